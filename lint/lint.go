package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Load configures how the files are found and parsed.
	Load compile.LoadOptions
}

// A Result is what Run found.
type Result struct {
	// Tree holds the files that were read.
	Tree *compile.Tree
	// Diagnostics are the findings, sorted by path and position.
	Diagnostics lang.Diagnostics
}

// Run loads the tree at paths and returns its findings. The error is for
// I/O failures and paths that hold no configuration; mistakes in the files
// are Diagnostics.
func Run(paths []string, opts Options) (*Result, error) {
	tree, diags, err := compile.Load(paths, opts.Load)
	if err != nil {
		return nil, err
	}
	diags.Sort()
	return &Result{Tree: tree, Diagnostics: diags}, nil
}

// Codes returns the documentation of every diagnostic code lsfc reports,
// in code order.
func Codes() []lang.CodeInfo {
	codes := append(lang.SyntaxCodes(), compile.Codes()...)
	return append(codes, compile.InventoryCodes()...)
}
