package lint

import (
	"fmt"
	"io"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// codesDocURL is where lint/CODES.md, the page WriteCodesMarkdown writes,
// is published.
const codesDocURL = projectURL + "/blob/main/lint/CODES.md"

// HelpURI returns the address of the documentation of code: its anchor in
// lint/CODES.md on GitHub. Every code section of that page starts with an
// explicit anchor named after the lower-case code, because the anchor
// GitHub derives from a heading would change with the code's name.
func HelpURI(code lang.Code) string {
	return codesDocURL + "#" + codeAnchor(code)
}

func codeAnchor(code lang.Code) string { return strings.ToLower(string(code)) }

// WriteCodesMarkdown writes lint/CODES.md: the documentation of every code
// of Codes as GitHub-flavoured Markdown, one section per code under a
// heading "LSF201 unknown-key" and an anchor "lsf201" that HelpURI names.
func WriteCodesMarkdown(w io.Writer) error {
	codes := Codes()
	var b strings.Builder
	b.WriteString(`# lsfc diagnostic codes

<!-- Code generated from lint.Codes() by lint.WriteCodesMarkdown. DO NOT EDIT. -->
<!-- Regenerate with: go test ./lint -run TestCodesMarkdown -update -->

Every finding of ` + "`lsfc lint`" + ` carries a stable code, LSF and three digits, that
keeps its meaning from release to release. The hundreds say what kind of
mistake a code is about: 1xx syntax, 2xx keys and values, 3xx references
between files, 4xx resource requirements, 5xx policy smells found by the
lint rules, and 59x lint's own suppression comments and configuration file.

The severity given for each code is its default. A ` + "`.lsfc.yaml`" + ` can turn a
code off or give it another severity, for every file or for the files a
pattern matches, and a comment ` + "`# lsfc:ignore CODE reason`" + ` on the line above
a finding suppresses it. ` + "`lsfc lint --explain CODE`" + ` prints the documentation
of one code in a terminal, and ` + "`lsfc lint --list-rules`" + ` lists them all.

| Code | Name | Severity | Summary |
| --- | --- | --- | --- |
`)
	for _, c := range codes {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", c.Code, codeAnchor(c.Code),
			mdEscape(c.Name), c.Severity, strings.ReplaceAll(mdEscape(c.Summary), "|", `\|`))
	}
	for _, c := range codes {
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n\n## %s %s\n\n", codeAnchor(c.Code), c.Code, c.Name)
		fmt.Fprintf(&b, "Severity: %s. %s.\n\n", c.Severity, mdProse(upperFirst(c.Summary)))
		b.WriteString(docMarkdown(c.Doc))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// upperFirst returns s with its first letter in upper case, to start a
// sentence with a summary, which is written in lower case.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// docMarkdown renders a code's plain-text Doc as Markdown: each paragraph's
// label in bold, prose lines joined and escaped so that nothing in them
// reads as Markdown, and indented lines (a file excerpt in an example) as
// a fenced block. The result ends with a newline.
func docMarkdown(doc string) string {
	var out []string
	for para := range strings.SplitSeq(strings.TrimSpace(doc), "\n\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		lines := strings.Split(strings.Trim(para, "\n"), "\n")
		label := ""
		for _, l := range []string{"What it finds:", "Why it matters:", "Example:", "Fix:"} {
			if rest, ok := strings.CutPrefix(lines[0], l); ok {
				label, lines[0] = l, strings.TrimSpace(rest)
				break
			}
		}
		if label != "" && lines[0] == "" {
			lines = lines[1:]
		}
		blocks := markdownBlocks(lines)
		if label != "" {
			head := "**" + label + "**"
			if len(blocks) > 0 && !blocks[0].code {
				head += " " + blocks[0].text
				blocks = blocks[1:]
			}
			out = append(out, head)
		}
		for _, bl := range blocks {
			if bl.code {
				out = append(out, bl.text)
			} else {
				out = append(out, escapeBlockStart(bl.text))
			}
		}
	}
	return strings.Join(out, "\n\n") + "\n"
}

// A markdownBlock is a run of prose (joined and escaped) or of indented
// lines (already fenced).
type markdownBlock struct {
	text string
	code bool
}

// markdownBlocks splits lines into runs of prose and runs of indented
// lines.
func markdownBlocks(lines []string) []markdownBlock {
	var blocks []markdownBlock
	for i := 0; i < len(lines); {
		indented := isIndented(lines[i])
		j := i
		for j < len(lines) && isIndented(lines[j]) == indented {
			j++
		}
		if indented {
			blocks = append(blocks, markdownBlock{text: fence(lines[i:j]), code: true})
		} else {
			blocks = append(blocks, markdownBlock{text: mdProse(strings.Join(lines[i:j], " "))})
		}
		i = j
	}
	return blocks
}

func isIndented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// fence returns lines, less their common indentation, as a fenced block
// whose fence is longer than any run of backquotes inside.
func fence(lines []string) string {
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	indent = max(indent, 0)
	longest := 0
	body := make([]string, len(lines))
	for i, l := range lines {
		body[i] = strings.TrimRight(l[min(indent, len(l)-len(strings.TrimLeft(l, " \t"))):], " \t")
		run := 0
		for _, c := range l {
			if c == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + "text\n" + strings.Join(body, "\n") + "\n" + f
}

// mdProse joins the lines of s with single blanks and escapes it.
func mdProse(s string) string {
	return mdEscape(strings.Join(strings.Fields(s), " "))
}

// mdEscape escapes the characters of s that GitHub-flavoured Markdown
// would read as markup inside a line: emphasis, code spans, links, HTML,
// entities, strikethrough and backslash escapes. An underscore between two
// letters or digits cannot start emphasis and is left alone, so that keys
// like QUEUE_NAME stay readable in the Markdown source.
func mdEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '[', ']', '<', '~':
			b.WriteByte('\\')
		case '_':
			if i == 0 || i == len(s)-1 || !isAlnum(s[i-1]) || !isAlnum(s[i+1]) {
				b.WriteByte('\\')
			}
		case '&':
			if i+1 < len(s) && (isAlnum(s[i+1]) || s[i+1] == '#') {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// escapeBlockStart escapes the first character of an escaped prose
// paragraph when it would start a heading, quote, list or thematic break.
func escapeBlockStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '>', '-', '+', '=':
		return `\` + s
	}
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}
