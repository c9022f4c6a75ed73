package lint

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// An Analyzer is one lint rule: a policy smell (LSF5xx) found by looking
// at the compiled Policy and the syntax trees. Analyzers are values,
// registered in one explicit list (Analyzers), one per file.
type Analyzer struct {
	// Code is the rule's stable code, reported with every finding.
	Code lang.Code
	// Name is a short kebab-case name, stable like the code.
	Name string
	// Severity is the severity findings have unless configured otherwise.
	Severity lang.Severity
	// Summary is one line.
	Summary string
	// Doc says what the rule finds, why it matters, an example and the
	// fix, as the other codes' documentation does.
	Doc string
	// Run reports the rule's findings through the Pass.
	Run func(*Pass)
}

// Info returns the documentation of the analyzer's code.
func (a *Analyzer) Info() lang.CodeInfo {
	return lang.CodeInfo{Code: a.Code, Name: a.Name, Severity: a.Severity, Summary: a.Summary, Doc: a.Doc}
}

// A Pass is what one analyzer sees of a tree: the compiled Policy, the
// parsed files, and where to report.
type Pass struct {
	Policy *compile.Policy
	Tree   *compile.Tree
	// Peers are the compiled configurations of other clusters of
	// lsf.shared that were given (lsfc lint --peer), by cluster name;
	// rules across clusters say nothing of a cluster not given.
	Peers map[string]*compile.Policy

	an    *Analyzer
	diags *lang.Diagnostics
}

// Report adds a finding of the analyzer at sp, with its code and default
// severity, and returns it so that notes and fixes can be attached.
func (p *Pass) Report(sp lang.Span, format string, args ...any) *lang.Diagnostic {
	return p.diags.Add(p.an.Severity, p.an.Code, sp, format, args...)
}

// Files returns the parsed files of a kind, in tree order.
func (p *Pass) Files(kind lang.FileKind) []*lang.File {
	var out []*lang.File
	for _, f := range p.Tree.Files {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// Has reports whether the tree holds a file of the kind: a rule that
// compares two files says nothing when one of them was not given.
func (p *Pass) Has(kind lang.FileKind) bool {
	for _, f := range p.Tree.Files {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// Analyzers returns the registered analyzers, in code order, in a slice of
// the caller's own.
func Analyzers() []*Analyzer { return slices.Clone(analyzers()) }

var analyzers = sync.OnceValue(func() []*Analyzer {
	var all []*Analyzer
	for _, group := range [][]*Analyzer{policyRules(), resourceRules(), usageRules(), multiclusterRules(), resizeRules()} {
		all = append(all, group...)
	}
	slices.SortFunc(all, func(a, b *Analyzer) int { return strings.Compare(string(a.Code), string(b.Code)) })
	for i := 1; i < len(all); i++ {
		if all[i].Code == all[i-1].Code {
			panic(fmt.Sprintf("lint: two analyzers share code %s", all[i].Code))
		}
	}
	return all
})

// runAnalyzers runs every enabled analyzer over a compiled tree.
func runAnalyzers(p *compile.Policy, tree *compile.Tree, peers map[string]*compile.Policy, enabled func(lang.Code) bool) lang.Diagnostics {
	var diags lang.Diagnostics
	for _, a := range analyzers() {
		if !enabled(a.Code) {
			continue
		}
		a.Run(&Pass{Policy: p, Tree: tree, Peers: peers, an: a, diags: &diags})
	}
	return diags
}
