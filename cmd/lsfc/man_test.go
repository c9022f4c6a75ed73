//go:build !lsfclient

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestManPages checks lsfc man: a page for lsfc and each of its
// commands, and one named after each LSF command, titled as it, with its
// help text as written, and every page well formed.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runWith(t, map[string]string{"SOURCE_DATE_EPOCH": "1700000000"}, "man", dir)
	if code != exitOK {
		t.Fatalf("lsfc man: exit %d, stderr %q", code, stderr)
	}
	for _, name := range append([]string{"lsfc", "lsfc-lint", "lsfc-serve", "lsfc-resreq-match", "lsfc-bsub"}, lsfCommandNames()...) {
		path := filepath.Join(dir, name+".1")
		if !strings.Contains(out, path+"\n") {
			t.Errorf("lsfc man did not list %s", path)
		}
		if _, err := os.Stat(path); err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "bsub.1"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`.TH "BSUB" "1" "2023-11-14" "lsfc `, `bsub \- Submit a job`, "\n.EX\nJob <ID> is submitted to queue <QUEUE>.\n.EE\n",
		`\fBbsub [\-q queue] [\-R res_req]`, "\n.TP\n\\fB\\-h\\fP, \\fB\\-\\-help\\fP[=false]\nhelp for bsub\n"} {
		if !strings.Contains(page, want) {
			t.Errorf("bsub.1 lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "[flags]") || strings.Contains(page, "Auto generated") {
		t.Errorf("bsub.1 has text of the generator:\n%s", page)
	}
	b, err = os.ReadFile(filepath.Join(dir, "lsfc-resreq-match.1"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n.SH \"SEE ALSO\"\n\\fBlsfc\\-resreq(1)\\fP\n"; !strings.Contains(string(b), want) {
		t.Errorf("lsfc-resreq-match.1 lacks %q:\n%s", want, b)
	}

	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	if len(pages) != strings.Count(out, "\n") {
		t.Errorf("%d pages in %s, %d listed", len(pages), dir, strings.Count(out, "\n"))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkRoff(t, filepath.Base(p), string(b))
	}
	// mandoc's checker, where it is installed, reads the pages as man
	// readers do.
	if mandoc, err := exec.LookPath("mandoc"); err == nil {
		out, err := exec.Command(mandoc, append([]string{"-T", "lint", "-W", "warning"}, pages...)...).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("mandoc -T lint: %v\n%s", err, out)
		}
	}

	if code, _, _ := runWith(t, nil, "man"); code != exitUsage {
		t.Errorf("lsfc man without DIR: exit %d, want %d", code, exitUsage)
	}
	if code, _, stderr := runWith(t, map[string]string{"SOURCE_DATE_EPOCH": "yesterday"}, "man", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("lsfc man with a bad SOURCE_DATE_EPOCH: exit %d, stderr %q", code, stderr)
	}
}

// checkRoff checks that page is a man page in the form manPage writes:
// its sections in order, only the requests it uses, no blank line but in
// an example, no text line that troff would read as a request, and no
// backslash but in the escapes it writes.
func checkRoff(t *testing.T, name, page string) {
	t.Helper()
	order := []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "OPTIONS INHERITED FROM PARENT COMMANDS", "EXAMPLES", "SEE ALSO"}
	var sections []string
	inExample := false
	lines := strings.Split(strings.TrimSuffix(page, "\n"), "\n")
	if !strings.HasPrefix(lines[0], ".TH ") {
		t.Errorf("%s begins with %q, want .TH", name, lines[0])
	}
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, ".SH "):
			sections = append(sections, strings.Trim(l[len(".SH "):], `"`))
		case l == ".EX":
			inExample = true
		case l == ".EE":
			inExample = false
		case l == "" && !inExample:
			t.Errorf("%s:%d: a blank line outside an example", name, i+1)
		case strings.HasPrefix(l, "."), strings.HasPrefix(l, "'"):
			if !slices.Contains([]string{".nh", ".PP", ".TP"}, l) && !strings.HasPrefix(l, ".TH ") {
				t.Errorf("%s:%d: unexpected request %q", name, i+1, l)
			}
		}
		if rest := roffEscapes.Replace(l); strings.Contains(rest, `\`) {
			t.Errorf("%s:%d: a backslash that begins none of the escapes manPage writes in %q", name, i+1, l)
		}
	}
	if inExample {
		t.Errorf("%s: an example is not closed", name)
	}
	if len(sections) < 3 || !slices.Equal(sections[:3], order[:3]) {
		t.Errorf("%s: sections %q, want NAME, SYNOPSIS, DESCRIPTION first", name, sections)
	}
	at := 0
	for _, s := range sections {
		i := slices.Index(order, s)
		if i < at {
			t.Errorf("%s: sections %q out of order", name, sections)
			break
		}
		at = i + 1
	}
}

// roffEscapes removes the escapes manPage writes.
var roffEscapes = strings.NewReplacer(`\e`, "", `\-`, "", `\&`, "", `\fB`, "", `\fP`, "", `\(dq`, "")

// TestManPageRoff checks how manPage writes text troff would misread: a
// line that begins with a dot or an apostrophe, backslashes, hyphens,
// quotes in the title line, and examples with blank lines inside.
func TestManPageRoff(t *testing.T) {
	root := &cobra.Command{Use: "tool", Short: "the tool"}
	root.PersistentFlags().String("conf", "", "the configuration")
	cmd := &cobra.Command{
		Use:   "run-it [-x] FILE",
		Short: `runs a "file"`,
		Long: `run-it runs FILE with C:\dir\ as its directory,
.profile read first
'quoted' lines too.

  an example
    indented more

  after a blank line
back to text
.`,
		Example: "  tool run-it -x f\n.hidden\n",
		Run:     func(*cobra.Command, []string) {},
	}
	cmd.Flags().BoolP("exec", "x", false, "execute, not\n\nprint")
	cmd.Flags().String("dry-run", "no", "a \\ backslash")
	cmd.Flags().Int("hidden", 0, "hidden")
	_ = cmd.Flags().MarkHidden("hidden")
	root.AddCommand(cmd)

	got := string(manPage(cmd, manHeader{Section: "1", Date: time.Date(2024, 2, 3, 0, 0, 0, 0, time.UTC), Source: `tool "x"`, Manual: "m"}))
	want := `.TH "TOOL\-RUN\-IT" "1" "2024-02-03" "tool \(dqx\(dq" "m"
.nh
.SH "NAME"
tool-run-it \- runs a "file"
.SH "SYNOPSIS"
\fBtool run\-it [\-x] FILE [flags]\fP
.SH "DESCRIPTION"
run\-it runs FILE with C:\edir\e as its directory,
\&.profile read first
\&'quoted' lines too.
.PP
.EX
an example
  indented more

after a blank line
.EE
.PP
back to text
\&.
.SH "OPTIONS"
.TP
\fB\-\-dry\-run\fP="no"
a \e backslash
.TP
\fB\-x\fP, \fB\-\-exec\fP[=false]
execute, not
print
.TP
\fB\-h\fP, \fB\-\-help\fP[=false]
help for run\-it
.SH "OPTIONS INHERITED FROM PARENT COMMANDS"
.TP
\fB\-\-conf\fP=""
the configuration
.SH "EXAMPLES"
.EX
  tool run\-it \-x f
\&.hidden
.EE
.SH "SEE ALSO"
\fBtool(1)\fP
`
	if got != want {
		t.Errorf("manPage:\n%s\nwant:\n%s", got, want)
	}
	checkRoff(t, "tool-run-it.1", got)

	// The parent lists its documented subcommands, in name order.
	root.AddCommand(&cobra.Command{Use: "alpha", Short: "a", Run: func(*cobra.Command, []string) {}},
		&cobra.Command{Use: "secret", Short: "s", Hidden: true, Run: func(*cobra.Command, []string) {}})
	page := string(manPage(root, manHeader{Section: "1"}))
	if want := "\n.SH \"SEE ALSO\"\n\\fBtool\\-alpha(1)\\fP, \\fBtool\\-run\\-it(1)\\fP\n"; !strings.Contains(page, want) {
		t.Errorf("the parent's page lacks %q:\n%s", want, page)
	}
	checkRoff(t, "tool.1", page)
}
