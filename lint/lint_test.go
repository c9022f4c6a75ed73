package lint_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
)

// TestCodesDocumented checks that every code is unique, well formed and
// documented with what it finds, why it matters, an example and the fix.
func TestCodesDocumented(t *testing.T) {
	codeRE := regexp.MustCompile(`^LSF[1-6][0-9][0-9]$`)
	nameRE := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[lang.Code]bool{}
	names := map[string]bool{}
	for _, c := range lint.Codes() {
		if !codeRE.MatchString(string(c.Code)) {
			t.Errorf("code %q is not LSF and three digits", c.Code)
		}
		if seen[c.Code] || names[c.Name] {
			t.Errorf("%s (%s) documented twice", c.Code, c.Name)
		}
		seen[c.Code], names[c.Name] = true, true
		if !nameRE.MatchString(c.Name) || c.Summary == "" || c.Severity == 0 {
			t.Errorf("%s: bad name %q, summary %q or severity %v", c.Code, c.Name, c.Summary, c.Severity)
		}
		for _, part := range []string{"What it finds:", "Why it matters:", "Example:", "Fix:"} {
			if !strings.Contains(c.Doc, part) {
				t.Errorf("%s: doc lacks %q", c.Code, part)
			}
		}
	}
}

func TestWriteFormats(t *testing.T) {
	src := lang.NewSource("lsb.params", "Begin Parameters\nX =\nEnd Parameters\n")
	_, ds := lang.ParseConfig(src, lang.KindLSBParams)
	for _, f := range lint.Formats() {
		var b bytes.Buffer
		if err := lint.Write(&b, f, ds, lint.WriteOptions{}); err != nil || !strings.Contains(b.String(), "LSF111") {
			t.Errorf("Write(%s) = %v, %q", f, err, b.String())
		}
	}
	if err := lint.Write(&bytes.Buffer{}, "xml", ds, lint.WriteOptions{}); err == nil {
		t.Error("Write(xml) succeeded")
	}
}
