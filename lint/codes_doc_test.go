package lint

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
)

// TestCodesMarkdown checks that lint/CODES.md is what WriteCodesMarkdown
// writes today; -update (or LSFC_UPDATE=1) rewrites it.
func TestCodesMarkdown(t *testing.T) {
	var b strings.Builder
	if err := WriteCodesMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	testkit.CheckFile(t, "CODES.md", b.String())
}

// TestCodesMarkdownAnchors checks that every code's HelpURI points at an
// anchor of the page, right above the code's heading, and that the page
// holds no raw HTML but those anchors.
func TestCodesMarkdownAnchors(t *testing.T) {
	var b strings.Builder
	if err := WriteCodesMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	const prefix = "https://github.com/lsfc/lsfc/blob/main/lint/CODES.md#"
	for _, c := range Codes() {
		want := prefix + strings.ToLower(string(c.Code))
		if got := HelpURI(c.Code); got != want {
			t.Errorf("HelpURI(%s) = %q, want %q", c.Code, got, want)
			continue
		}
		heading := "<a id=\"" + strings.ToLower(string(c.Code)) + "\"></a>\n\n## " + string(c.Code) + " " + c.Name + "\n"
		if !strings.Contains(page, heading) {
			t.Errorf("CODES.md lacks %q", heading)
		}
	}
	html := regexp.MustCompile(`(^|[^\\])<[a-zA-Z/!]`)
	for i, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "<a id=") || strings.HasPrefix(line, "<!-- ") {
			continue
		}
		if html.MatchString(line) {
			t.Errorf("CODES.md:%d: unescaped HTML: %s", i+1, line)
		}
	}
}

// TestDocMarkdown checks how a Doc becomes Markdown: labels in bold,
// lines joined, markup characters escaped, indented lines fenced.
func TestDocMarkdown(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"What it finds: a key\nthat is wrong.\n\nFix: remove it.",
			"**What it finds:** a key that is wrong.\n\n**Fix:** remove it.\n"},
		{"Example: lsbatch/<cluster>/configdir, define_ncpus_*, QUEUE_NAME, _x_, a*b, `c`, [d](e), ~f, &amp; && g\\h.",
			"**Example:** lsbatch/\\<cluster>/configdir, define_ncpus\\_\\*, QUEUE_NAME, \\_x\\_, a\\*b, \\`c\\`, \\[d\\](e), \\~f, \\&amp; && g\\\\h.\n"},
		{"# lsfc:ignore LSF512\n\n- item\n\n12. item\n\n> quote",
			"\\# lsfc:ignore LSF512\n\n\\- item\n\n12\\. item\n\n\\> quote\n"},
		{"Example:\n  hosts:\n    - name: cn01   # a comment\n\nFix: x",
			"**Example:**\n\n```text\nhosts:\n  - name: cn01   # a comment\n```\n\n**Fix:** x\n"},
		{"Example: a file\n  with ```backquotes```\nand prose after it.",
			"**Example:** a file\n\n````text\nwith ```backquotes```\n````\n\nand prose after it.\n"},
	} {
		if got := docMarkdown(tc.doc); got != tc.want {
			t.Errorf("docMarkdown(%q)\n got %q\nwant %q", tc.doc, got, tc.want)
		}
	}
}
