//go:build !lsfclient

package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

func newCompileCmd(e env) *cobra.Command {
	var (
		tf  treeFlags
		out string
	)
	cmd := &cobra.Command{
		Use:   "compile [PATH...] [-o FILE]",
		Short: "Compile a configuration tree into its Policy, as JSON",
		Long: `compile compiles an LSF configuration tree and writes the resulting Policy
as JSON: every setting typed, host groups and queue host lists resolved,
resource requirements in canonical form, each value with the position it
was read from. The JSON form is stable: fields are added, never renamed
(see "lsfc compile" in README.md).

Errors and warnings go to standard error, and so does one line per file
naming the keys the tree sets that lsfc reads and checks but does not act
on. When there are errors no Policy
is written and the exit code is 1.`,
		Example: `  lsfc compile testdata/clusters/demo
  lsfc compile -o policy.json /etc/lsf`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			res, err := lint.Run(args, opts)
			if err != nil {
				return exit(exitUsage, err)
			}
			var shown lang.Diagnostics
			for _, d := range res.Diagnostics {
				if d.Severity >= lang.Warning {
					shown = append(shown, d)
				}
			}
			shown.WriteText(e.stderr)
			if res.Diagnostics.HasErrors() {
				return exit(exitFindings, nil)
			}
			noteNotActedOn(e, "compile", res.Policy)
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res.Policy); err != nil {
				return exit(exitInternal, err)
			}
			if out == "" || out == "-" {
				_, err = e.stdout.Write(b.Bytes())
			} else {
				err = writeAtomic(out, b.Bytes())
			}
			if err != nil {
				return exit(exitUsage, err)
			}
			return nil
		},
	}
	tf.register(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the Policy to FILE instead of standard output")
	return cmd
}

// noteNotActedOn writes to standard error, one line per file, the keys the
// policy's files set that lsfc reads and checks but does not act on.
func noteNotActedOn(e env, command string, p *compile.Policy) {
	if p == nil {
		return
	}
	for _, line := range p.NotActedOn() {
		fmt.Fprintf(e.stderr, "lsfc %s: %s\n", command, line)
	}
}
