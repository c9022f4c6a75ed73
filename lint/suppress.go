package lint

import (
	"regexp"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// suppressRE reads a suppression comment: "# lsfc:ignore LSF512 reason",
// several codes separated by commas.
var suppressRE = regexp.MustCompile(`^#\s*lsfc:ignore(?:\s+(\S+))?(?:\s+(.*))?$`)

var codeRE = regexp.MustCompile(`^LSF[0-9]{3}$`)

// A suppression is one "# lsfc:ignore" comment and the lines it covers.
type suppression struct {
	codes  []lang.Code
	at     lang.Span // the comment
	target lang.Span // the next line, or the whole next section
	used   map[lang.Code]bool
}

// suppressions reads the suppression comments of every file. A comment
// line applies to the next line that is not a comment; when that line
// begins a section, to the whole section. Malformed comments are reported.
func suppressions(tree *compile.Tree, diags *lang.Diagnostics) []*suppression {
	var out []*suppression
	for _, f := range tree.Files {
		out = append(out, fileSuppressions(f.Items, diags)...)
	}
	return out
}

func fileSuppressions(items []lang.Item, diags *lang.Diagnostics) []*suppression {
	var out []*suppression
	var pending []*suppression
	for _, it := range items {
		if c, ok := it.(*lang.Comment); ok {
			if s := readSuppression(c, diags); s != nil {
				pending = append(pending, s)
			}
			continue
		}
		if len(pending) > 0 {
			target := it.Line().Whole
			if s, ok := it.(*lang.Section); ok {
				target = s.Span()
			}
			for _, s := range pending {
				s.target = target
			}
			out = append(out, pending...)
			pending = nil
		}
		if s, ok := it.(*lang.Section); ok {
			out = append(out, fileSuppressions(s.Body, diags)...)
		}
	}
	for _, s := range pending {
		diags.Add(lang.Warning, CodeBadSuppression, s.at, "lsfc:ignore is followed by no line to apply to")
	}
	return out
}

// readSuppression reads one comment; it returns nil for a comment that is
// not a suppression, or one too malformed to apply.
func readSuppression(c *lang.Comment, diags *lang.Diagnostics) *suppression {
	m := suppressRE.FindStringSubmatch(strings.TrimSpace(c.Text))
	if m == nil {
		return nil
	}
	sp := c.TextSpan
	if m[1] == "" {
		diags.Add(lang.Error, CodeBadSuppression, sp, "lsfc:ignore names no code: write # lsfc:ignore LSF512 reason")
		return nil
	}
	var codes []lang.Code
	for _, code := range strings.Split(m[1], ",") {
		code = strings.ToUpper(strings.TrimSpace(code))
		if !codeRE.MatchString(code) || !knownCode(lang.Code(code)) {
			diags.Add(lang.Error, CodeBadSuppression, sp, "lsfc:ignore: %q is not a code lsfc reports (see lsfc lint --list-rules)", code)
			return nil
		}
		codes = append(codes, lang.Code(code))
	}
	if strings.TrimSpace(m[2]) == "" {
		diags.Add(lang.Error, CodeBadSuppression, sp, "lsfc:ignore %s gives no reason: say why the finding does not apply", m[1])
		return nil
	}
	return &suppression{codes: codes, at: sp, used: map[lang.Code]bool{}}
}

// knownCode reports whether lsfc documents code.
func knownCode(code lang.Code) bool {
	for _, c := range Codes() {
		if c.Code == code {
			return true
		}
	}
	return false
}

// suppress removes the findings that suppression comments cover and
// reports the suppressions that covered nothing (unless their rule is
// turned off). It returns the findings kept and how many were removed.
func suppress(tree *compile.Tree, diags lang.Diagnostics, cfg *Config) (lang.Diagnostics, int) {
	var meta lang.Diagnostics
	sups := suppressions(tree, &meta)
	if len(sups) == 0 {
		return append(diags, meta...), 0
	}
	kept := diags[:0:0]
	removed := 0
	for _, d := range diags {
		if s := covering(sups, d); s != nil {
			s.used[d.Code] = true
			removed++
			continue
		}
		kept = append(kept, d)
	}
	for _, s := range sups {
		for _, code := range s.codes {
			if !s.used[code] && !cfg.offEverywhere(code) {
				meta.Add(lang.Warning, CodeUnusedSuppression, s.at, "lsfc:ignore %s suppresses nothing here; remove it", code)
			}
		}
	}
	return append(kept, meta...), removed
}

// covering returns the suppression that covers d, or nil.
func covering(sups []*suppression, d *lang.Diagnostic) *suppression {
	r := d.Span.Root()
	if r.Src == nil {
		return nil
	}
	for _, s := range sups {
		t := s.target
		if t.Src != r.Src || r.Start < t.Start || r.Start > t.End {
			continue
		}
		for _, code := range s.codes {
			if code == d.Code {
				return s
			}
		}
	}
	return nil
}
