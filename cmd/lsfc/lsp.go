package main

import (
	"context"
	"io"
	"runtime/debug"

	"github.com/lsfc/lsfc/lsp"
	"github.com/spf13/cobra"
)

func newLSPCmd(e env) *cobra.Command {
	var tf treeFlags
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve editors as a language server for LSF configuration files",
		Long: `lsp speaks the Language Server Protocol on standard input and output, for
an editor to start: diagnostics of the whole tree as you type (the same
findings, suppressions and .lsfc.yaml as lint), hover with the documentation
of keys and the resolved value of names, completion, go to definition, find
references, rename across files, document symbols, folding, code actions
from lint's fixes, formatting with fmt's layout and semantic tokens.

A file belongs to the tree lint would read for it: the nearest LSF_ENVDIR
above it (or $LSF_ENVDIR) whose configuration includes it, else its
directory of lsb.* files, else the file alone. Unsaved text in the editor
counts instead of the file on disk.

The server keeps its memory under 450 MiB where it can (a soft limit of
the Go runtime); GOMEMLIMIT sets another.`,
		Example: `  lsfc lsp        # started by the editor; see editors/ for VS Code and Neovim`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			if e.getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(lsp.MemoryLimit)
			}
			rwc := stdio{Reader: e.stdin, Writer: e.stdout}
			return lsp.Serve(context.Background(), rwc, lsp.Options{Load: opts.Load, Compile: opts.Compile, Version: version()})
		},
	}
	tf.register(cmd)
	return cmd
}

// stdio joins standard input and output into one stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
