//go:build !lsfclient

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func newManCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write man pages of lsfc and of its LSF commands into DIR",
		Long: `man writes troff man pages (section 1) into DIR, which it creates when
missing: lsfc.1 and one page for each of its commands (lsfc-lint.1,
lsfc-serve.1, lsfc-bsub.1 ...), and, for each LSF command lsfc answers to
under its own name (bsub, bjobs, bqueues ...), a page of that name
(bsub.1, bjobs.1 ...), for installations that link those names to lsfc.
The pages hold the text of lsfc help; $SOURCE_DATE_EPOCH, when set, fixes
their date. It prints the path of each page it writes.`,
		Example: `  lsfc man /usr/local/share/man/man1
  lsfc man ./man && man ./man/bsub.1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			date, err := manDate(e.getenv("SOURCE_DATE_EPOCH"))
			if err != nil {
				return exit(exitUsage, err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return exit(exitUsage, err)
			}
			header := manHeader{Section: "1", Date: date, Source: "lsfc " + version(), Manual: "lsfc manual"}
			// A tree of its own, so that the pages are the same whichever
			// command line built the running one.
			root := newRootCmd(e)
			forMan(root)
			written, err := writeManTree(root, header, dir)
			if err != nil {
				return exit(exitUsage, err)
			}
			slices.Sort(written)
			// Each LSF command on its own: detached from lsfc, its page
			// is named and titled as the command (bsub.1, BSUB(1)).
			lsf := newRootCmd(e)
			forMan(lsf)
			for _, name := range lsfCommandNames() {
				c, _, err := lsf.Find([]string{name})
				if err != nil || c == lsf {
					return exit(exitInternal, fmt.Errorf("no command %q to document", name))
				}
				lsf.RemoveCommand(c)
				path := filepath.Join(dir, name+".1")
				if err := os.WriteFile(path, manPage(c, header), 0o644); err != nil {
					return exit(exitUsage, err)
				}
				written = append(written, path)
			}
			for _, p := range written {
				fmt.Fprintln(e.stdout, p)
			}
			return nil
		},
	}
}

// forMan readies cmd and its subcommands for their man pages: an LSF
// command's usage line lists its options already, so it gets no
// "[flags]".
func forMan(cmd *cobra.Command) {
	cmd.DisableFlagsInUseLine = cmd.DisableFlagParsing
	for _, c := range cmd.Commands() {
		forMan(c)
	}
}

// manDate returns the date of the pages: the time $SOURCE_DATE_EPOCH
// gives in seconds since 1970, when it is set, else now.
func manDate(epoch string) (time.Time, error) {
	if epoch == "" {
		return time.Now(), nil
	}
	sec, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid SOURCE_DATE_EPOCH %q: want seconds since 1970-01-01", epoch)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// manDocumented reports whether c gets a page and a place in its
// parent's SEE ALSO: not a hidden or deprecated command, nor help.
func manDocumented(c *cobra.Command) bool {
	return c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand()
}

// writeManTree writes the page of cmd and of each of its documented
// subcommands, named after their command path with dashes (lsfc.1,
// lsfc-resreq-match.1), into dir, and returns the paths it wrote.
func writeManTree(cmd *cobra.Command, h manHeader, dir string) ([]string, error) {
	var written []string
	for _, c := range cmd.Commands() {
		if !manDocumented(c) {
			continue
		}
		w, err := writeManTree(c, h, dir)
		written = append(written, w...)
		if err != nil {
			return written, err
		}
	}
	path := filepath.Join(dir, manName(cmd)+"."+h.Section)
	if err := os.WriteFile(path, manPage(cmd, h), 0o644); err != nil {
		return written, err
	}
	return append(written, path), nil
}

// manName is the name of cmd's page: its command path with dashes for
// blanks.
func manName(cmd *cobra.Command) string {
	return strings.ReplaceAll(cmd.CommandPath(), " ", "-")
}
