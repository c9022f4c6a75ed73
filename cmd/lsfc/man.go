//go:build !lsfclient

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
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
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return exit(exitUsage, err)
			}
			header := &doc.GenManHeader{Section: "1", Source: "lsfc " + version(), Manual: "lsfc manual"}
			// A tree of its own, so that the pages are the same whichever
			// command line built the running one.
			root := newRootCmd(e)
			forMan(root)
			if err := doc.GenManTree(root, header, dir); err != nil {
				return exit(exitUsage, err)
			}
			written, err := filepath.Glob(filepath.Join(dir, "lsfc*.1"))
			if err != nil {
				return exit(exitUsage, err)
			}
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
				if err := writeManPage(c, header, path); err != nil {
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

// forMan readies cmd and its subcommands for their man pages: their
// texts are plain text, which the page generator reads as Markdown, so
// the characters Markdown gives a meaning ("<ID>", "lsb.*", "[flags]")
// are escaped; and the line naming the library that made the pages is
// left out.
func forMan(cmd *cobra.Command) {
	cmd.DisableAutoGenTag = true
	// An LSF command's usage line lists its options already.
	cmd.DisableFlagsInUseLine = cmd.DisableFlagParsing
	cmd.Short = escapeMarkdown(cmd.Short)
	cmd.Long = escapeMarkdown(cmd.Long)
	cmd.Flags().VisitAll(func(f *pflag.Flag) { f.Usage = escapeMarkdown(f.Usage) })
	for _, c := range cmd.Commands() {
		forMan(c)
	}
}

// escapeMarkdown turns plain help text into Markdown that reads as the
// text: a line indented by two spaces or more (a table, an example)
// becomes a code block, kept as it is; elsewhere a backslash goes before
// each character Markdown would read as markup.
func escapeMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "  ") {
			lines[i] = "  " + line
			continue
		}
		var b strings.Builder
		for _, r := range line {
			if strings.ContainsRune("\\`*_[]<>#|~&", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// writeManPage writes the man page of cmd to path.
func writeManPage(cmd *cobra.Command, header *doc.GenManHeader, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	h := *header
	if err := doc.GenMan(cmd, &h, f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
