//go:build !lsfclient

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

func newLintCmd(e env) *cobra.Command {
	var (
		format    string
		failLevel string
		explain   string
		config    string
		listRules bool
		fix       bool
		peers     []string
		tf        treeFlags
	)
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Report every mistake in an LSF configuration tree",
		Long: `lint reads an LSF configuration tree and reports every mistake it finds,
each with its position, severity and a stable code.

PATH is an LSF_ENVDIR (a directory holding lsf.conf), a directory of lsb.*
files, or configuration files; without PATH, $LSF_ENVDIR is read.

--peer gives the configuration of another cluster of lsf.shared (a path
as PATH is), once per cluster: lint then checks that send-jobs and
receive-jobs queues agree across the clusters. The peers' own mistakes
are not reported; lint each cluster on its own for those.

The exit code is 1 when a finding is at or above --fail-level.`,
		Example: `  lsfc lint testdata/clusters/demo
  lsfc lint --explain LSF306
  lsfc lint --format json /etc/lsf
  lsfc lint --fail-level warning lsb.queues lsb.hosts
  lsfc lint --peer /etc/lsf-peer /etc/lsf`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if explain != "" {
				return explainCode(e, explain)
			}
			if listRules {
				for _, c := range lint.Codes() {
					fmt.Fprintf(e.stdout, "%s  %-31s %-8s %s\n", c.Code, c.Name, c.Severity, c.Summary)
				}
				return nil
			}
			if !lint.ValidFormat(format) {
				return usageError("unknown --format %q (want %s)", format, strings.Join(lint.Formats(), ", "))
			}
			fail, err := lang.ParseSeverity(failLevel)
			if err != nil {
				return usageError("--fail-level: %v", err)
			}
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			cfgDiags, err := loadLintConfig(&opts, config, args, e)
			if err != nil {
				return exit(exitUsage, err)
			}
			for _, path := range peers {
				tree, _, err := compile.Load([]string{path}, compile.LoadOptions{Limits: opts.Load.Limits})
				if err != nil {
					return exit(exitUsage, fmt.Errorf("--peer: %w", err))
				}
				opts.Peers = append(opts.Peers, tree)
			}
			res, err := lint.Run(args, opts)
			if err != nil {
				return exit(exitUsage, err)
			}
			if fix {
				if res, err = applyFixes(e, res, args, opts); err != nil {
					return exit(exitUsage, err)
				}
			}
			ds := append(res.Diagnostics, cfgDiags...)
			ds.Sort()
			if err := lint.Write(e.stdout, format, ds, lint.WriteOptions{Version: version()}); err != nil {
				return exit(exitUsage, err)
			}
			if format == "text" {
				fmt.Fprintln(e.stderr, summary(ds, len(res.Tree.Files)))
			}
			if ds.AtLeast(fail) > 0 {
				return exit(exitFindings, nil)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: "+strings.Join(lint.Formats(), ", "))
	f.StringVar(&failLevel, "fail-level", "error", "exit 1 when a finding is at or above this severity: error, warning, info")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords(lint.Formats()...))
	_ = cmd.RegisterFlagCompletionFunc("fail-level", completeWords("error", "warning", "info"))
	f.StringVar(&explain, "explain", "", "print what a diagnostic code finds, why it matters and how to fix it, then exit")
	f.BoolVar(&fix, "fix", false, "apply the safe fixes (misspelt keys and section names, mismatched End names, ...) in place, then report what remains")
	f.BoolVar(&listRules, "list-rules", false, "list every code with its name, default severity and summary, then exit")
	f.StringVar(&config, "config", "", "rule settings file (default: the nearest "+lint.ConfigName+" above the first PATH, or above the working directory)")
	f.StringArrayVar(&peers, "peer", nil, "configuration of another cluster, to check send and receive queues across clusters (repeatable)")
	tf.register(cmd)
	return cmd
}

// explainCode prints the documentation of one code.
func explainCode(e env, code string) error {
	want := lang.Code(strings.ToUpper(strings.TrimSpace(code)))
	for _, c := range lint.Codes() {
		if c.Code == want {
			fmt.Fprintf(e.stdout, "%s %s (%s)\n%s\n\n%s\n", c.Code, c.Name, c.Severity, c.Summary, c.Doc)
			return nil
		}
	}
	return usageError("--explain: unknown code %q (codes are LSF and three digits, such as LSF201)", code)
}

// summary returns "N errors, M warnings, K infos in F files".
func summary(ds lang.Diagnostics, files int) string {
	return fmt.Sprintf("%s, %s, %s in %s",
		plural(ds.Count(lang.Error), "error"), plural(ds.Count(lang.Warning), "warning"),
		plural(ds.Count(lang.Info), "info"), plural(files, "file"))
}

// loadLintConfig reads the rule settings named by --config, or the nearest
// .lsfc.yaml above the first path (or the working directory), into opts.
// Mistakes in the file are returned as diagnostics.
func loadLintConfig(opts *lint.Options, flag string, args []string, e env) (lang.Diagnostics, error) {
	p := flag
	if p == "" {
		start := "."
		if len(args) > 0 {
			start = args[0]
		} else if d := e.getenv("LSF_ENVDIR"); d != "" {
			start = d
		}
		if st, err := os.Stat(start); err == nil && !st.IsDir() {
			start = filepath.Dir(start)
		}
		if p = lint.FindConfig(start); p == "" {
			return nil, nil
		}
	}
	cfg, diags, err := lint.LoadConfig(p)
	if err != nil {
		return nil, err
	}
	opts.Config = cfg
	return diags, nil
}

// applyFixes writes the safe fixes of res's findings into their files,
// atomically, says on standard error what changed, and lints the tree
// again so that what is reported is what remains.
func applyFixes(e env, res *lint.Result, args []string, opts lint.Options) (*lint.Result, error) {
	fixes := lint.Fixes(res.Diagnostics)
	if len(fixes) == 0 {
		return res, nil
	}
	for _, f := range fixes {
		if err := writeAtomic(f.Path, f.Text); err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "lsfc: %s: fixed %s\n", f.Path, plural(len(f.Fixed), "finding"))
		for _, d := range f.Fixed {
			p := d.Span.StartPos()
			fmt.Fprintf(e.stderr, "  %d:%d %s %s\n", p.Line, p.Col, d.Code, d.Fix.Message)
		}
	}
	return lint.Run(args, opts)
}
