//go:build !lsfclient

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"

	"github.com/lsfc/lsfc/lsp"
	"github.com/spf13/cobra"
)

func newLSPCmd(e env) *cobra.Command {
	var (
		tf    treeFlags
		hosts string
	)
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
		Example: `  lsfc lsp                          # started by the editor; see editors/ for VS Code and Neovim
  lsfc lsp --hosts inventory.yaml   # the hover of a -R string counts the hosts it matches`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			if e.getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(lsp.MemoryLimit)
			}
			lo := lsp.Options{Load: opts.Load, Compile: opts.Compile, Version: version()}
			if hosts != "" {
				b, err := os.ReadFile(hosts)
				if err != nil {
					return exit(exitUsage, fmt.Errorf("--hosts: %w", err))
				}
				inv, ds := inventory.Read(lang.NewSource(hosts, string(b)), compile.MB)
				if err := ds.Err(); err != nil {
					return exit(exitUsage, fmt.Errorf("--hosts: %w", err))
				}
				lo.Hosts = inv.Hosts
			}
			rwc := stdio{Reader: e.stdin, Writer: e.stdout}
			return lsp.Serve(context.Background(), rwc, lo)
		},
	}
	tf.register(cmd)
	cmd.Flags().StringVar(&hosts, "hosts", "", "host inventory (YAML or JSON, as lsfc resreq match --hosts reads): the hover of a resource requirement tells how many of its hosts it matches")
	return cmd
}

// stdio joins standard input and output into one stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
