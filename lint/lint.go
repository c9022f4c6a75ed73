package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
)

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Load configures how the files are found and parsed.
	Load compile.LoadOptions
	// Compile configures the compilation (the dialect).
	Compile compile.Options
	// Config holds the rule settings of a .lsfc.yaml; nil for none.
	Config *Config
	// Peers are the loaded trees of other clusters of the installation,
	// for the checks across clusters (send and receive queues that do not
	// agree). Their own findings are not reported: lint each on its own.
	// A peer whose cluster is the local one, or unknown, is ignored.
	Peers []*compile.Tree
}

// A Result is what Run found.
type Result struct {
	// Tree holds the files that were read.
	Tree *compile.Tree
	// Policy is the compiled configuration, holding what could be read.
	Policy *compile.Policy
	// Diagnostics are the findings, sorted by path and position, with
	// suppressions and rule settings applied.
	Diagnostics lang.Diagnostics
	// Suppressed counts the findings that suppression comments removed.
	Suppressed int
}

// Run loads and compiles the tree at paths, runs the analyzers, and
// returns the findings. The error is for I/O failures and paths that hold
// no configuration; mistakes in the files are Diagnostics.
func Run(paths []string, opts Options) (*Result, error) {
	tree, diags, err := compile.Load(paths, opts.Load)
	if err != nil {
		return nil, err
	}
	return check(tree, diags, opts), nil
}

// Check lints a tree that is already loaded (opts.Load is not used).
func Check(tree *compile.Tree, opts Options) *Result {
	return check(tree, nil, opts)
}

// CheckLoaded is Check for a tree whose loading found loaded (the
// syntax and discovery diagnostics compile.Load returned): they are
// reported with the rest, through the same suppressions and settings.
func CheckLoaded(tree *compile.Tree, loaded lang.Diagnostics, opts Options) *Result {
	return check(tree, loaded, opts)
}

func check(tree *compile.Tree, loaded lang.Diagnostics, opts Options) *Result {
	policy, diags := compile.Compile(tree, opts.Compile)
	diags = append(append(lang.Diagnostics{}, loaded...), diags...)
	cfg := opts.Config
	peers := map[string]*compile.Policy{}
	for _, pt := range opts.Peers {
		pp, _ := compile.Compile(pt, opts.Compile)
		if pp.Cluster != "" && pp.Cluster != policy.Cluster {
			peers[pp.Cluster] = pp
		}
	}
	diags = append(diags, runAnalyzers(policy, tree, peers, func(c lang.Code) bool { return !cfg.offEverywhere(c) })...)
	diags, suppressed := suppress(tree, diags, cfg)
	diags = cfg.apply(diags)
	diags.Sort()
	return &Result{Tree: tree, Policy: policy, Diagnostics: diags, Suppressed: suppressed}
}

// Codes returns the documentation of every diagnostic code lsfc reports,
// in code order.
func Codes() []lang.CodeInfo {
	codes := append(lang.SyntaxCodes(), compile.Codes()...)
	codes = append(codes, inventory.Codes()...)
	for _, a := range Analyzers() {
		codes = append(codes, a.Info())
	}
	codes = append(codes, metaCodes()...)
	sortCodes(codes)
	return codes
}
