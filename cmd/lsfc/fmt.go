//go:build !lsfclient

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/spf13/cobra"
)

func newFmtCmd(e env) *cobra.Command {
	var write, check, list bool
	cmd := &cobra.Command{
		Use:   "fmt [-w | --check | -l] PATH...",
		Short: "Print LSF configuration files in canonical form",
		Long: `fmt prints configuration files in canonical form: keywords spelt
Begin/End, "=" aligned within each section, table columns aligned, blank
lines collapsed, comments kept. Formatting never changes what LSF reads.

PATH is a configuration file or a directory (read like lsfc lint reads it).
A file with syntax errors is not formatted: its errors are printed and the
exit code is 1.

Without flags the formatted files are printed on standard output.`,
		Example: `  lsfc fmt lsb.queues
  lsfc fmt -w testdata/clusters/demo
  lsfc fmt --check /etc/lsf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if btoi(write)+btoi(check)+btoi(list) > 1 {
				return usageError("-w, --check and -l exclude each other")
			}
			tree, _, err := compile.Load(args, compile.LoadOptions{})
			if err != nil {
				return exit(exitUsage, err)
			}
			code := exitOK
			for _, f := range tree.Files {
				_, diags := lang.ParseConfig(f.Src, f.Kind)
				if diags.HasErrors() {
					diags.WriteText(e.stderr)
					code = exitFindings
					continue
				}
				out := lang.Format(f)
				changed := !bytes.Equal(out, []byte(f.Src.Text))
				switch {
				case write:
					if changed {
						if err := writeAtomic(f.Src.Name, out); err != nil {
							return exit(exitUsage, err)
						}
					}
				case check || list:
					if changed {
						fmt.Fprintln(e.stdout, f.Src.Name)
						if check {
							code = max(code, exitFindings)
						}
					}
				default:
					e.stdout.Write(out)
				}
			}
			if code != exitOK {
				return exit(code, nil)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&write, "write", "w", false, "write the result back to each file that changes")
	f.BoolVar(&check, "check", false, "list files that are not in canonical form and exit 1 if there are any")
	f.BoolVarP(&list, "list", "l", false, "list files that are not in canonical form")
	return cmd
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeAtomic replaces path by data: it writes a temporary file in the same
// directory with the same mode (0644 for a new file), syncs it and renames
// it over path.
func writeAtomic(path string, data []byte) error {
	perm := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".lsfc-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
