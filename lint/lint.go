package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Load configures how the files are found and parsed.
	Load compile.LoadOptions
	// Compile configures the compilation (the dialect).
	Compile compile.Options
}

// A Result is what Run found.
type Result struct {
	// Tree holds the files that were read.
	Tree *compile.Tree
	// Policy is the compiled configuration, holding what could be read.
	Policy *compile.Policy
	// Diagnostics are the findings, sorted by path and position.
	Diagnostics lang.Diagnostics
}

// Run loads and compiles the tree at paths and returns its findings: the
// syntax of every file, the keys and values, the references across files.
// The error is for I/O failures and paths that hold no configuration;
// mistakes in the files are Diagnostics.
func Run(paths []string, opts Options) (*Result, error) {
	tree, diags, err := compile.Load(paths, opts.Load)
	if err != nil {
		return nil, err
	}
	policy, more := compile.Compile(tree, opts.Compile)
	diags = append(diags, more...)
	diags.Sort()
	return &Result{Tree: tree, Policy: policy, Diagnostics: diags}, nil
}

// Codes returns the documentation of every diagnostic code lsfc reports,
// in code order.
func Codes() []lang.CodeInfo {
	codes := append(lang.SyntaxCodes(), compile.Codes()...)
	return append(codes, compile.InventoryCodes()...)
}
