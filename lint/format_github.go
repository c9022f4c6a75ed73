package lint

import (
	"fmt"
	"io"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// writeGitHub writes ds as GitHub Actions workflow commands: one
// ::error, ::warning or ::notice annotation per diagnostic, then one
// ::notice with the counts. GitHub shows only the first few annotations of
// a step on the run's page, so the counts tell the reader how many more
// the log holds.
func writeGitHub(w io.Writer, ds lang.Diagnostics, opts WriteOptions) error {
	paths, err := newPathMapper(opts.Base)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, d := range ds {
		var props []string
		if d.Span.IsValid() {
			p, _ := paths.rel(d.Span.Path())
			s, e := d.Span.StartPos(), d.Span.EndPos()
			props = append(props,
				"file="+githubProperty(p),
				fmt.Sprintf("line=%d,col=%d,endLine=%d,endColumn=%d", s.Line, s.Col, e.Line, e.Col))
		}
		if d.Code != "" {
			props = append(props, "title="+githubProperty(string(d.Code)))
		}
		writeGitHubCommand(&b, githubCommand(d.Severity), props, detailedMessage(paths, d))
	}
	writeGitHubCommand(&b, "notice", []string{"title=lsfc"}, countSummary(ds))
	_, err = io.WriteString(w, b.String())
	return err
}

func githubCommand(s lang.Severity) string {
	switch s {
	case lang.Error:
		return "error"
	case lang.Warning:
		return "warning"
	}
	return "notice"
}

// writeGitHubCommand writes "::name prop,prop::message"; props must be
// escaped already.
func writeGitHubCommand(b *strings.Builder, name string, props []string, message string) {
	b.WriteString("::")
	b.WriteString(name)
	if len(props) > 0 {
		b.WriteByte(' ')
		b.WriteString(strings.Join(props, ","))
	}
	b.WriteString("::")
	b.WriteString(githubData(message))
	b.WriteByte('\n')
}

// githubData escapes the message of a workflow command: a line break would
// end the command, and % introduces the escapes.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value of a workflow command, where a
// colon would end the properties and a comma would start the next one.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// detailedMessage returns the message of d followed by a line for each
// related note ("path:line:col: note: message") and for the fix, for the
// formats that show one location per finding.
func detailedMessage(paths pathMapper, d *lang.Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Message)
	for _, r := range d.Related {
		b.WriteByte('\n')
		if r.Span.IsValid() {
			p, _ := paths.rel(r.Span.Path())
			s := r.Span.StartPos()
			fmt.Fprintf(&b, "%s:%d:%d: ", p, s.Line, s.Col)
		}
		b.WriteString("note: ")
		b.WriteString(r.Message)
	}
	if d.Fix != nil {
		b.WriteString("\nfix: ")
		b.WriteString(d.Fix.Message)
	}
	return b.String()
}
