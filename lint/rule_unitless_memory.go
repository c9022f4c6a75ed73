package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// unitlessMemory finds memory amounts written without a unit where LSF
// reads them in KB: the most common memory mistake, a limit or
// reservation a thousand times smaller than meant.
func unitlessMemory() *Analyzer {
	return &Analyzer{
		Code: "LSF512", Name: "unitless-memory", Severity: lang.Warning,
		Summary: "a memory amount without a unit that LSF reads in KB",
		Doc: `What it finds: a memory amount written without a unit where LSF reads it
in kilobytes: MEMLIMIT and SWAPLIMIT of a queue or application profile
while LSF_UNIT_FOR_LIMITS in lsf.conf is unset or KB, and, when
LSF_UNIT_FOR_LIMITS = KB, the memory amounts of a RES_REQ, STOP_COND or
RESUME_COND (rusage[mem=4000], select[mem>4000], likewise swp). With
LSF_UNIT_FOR_LIMITS unset, LSF reads rusage and select amounts in MB, so
they are left alone. A value of 0 is the same in any unit. An amount of a
gigabyte or more, which is more likely meant in KB, is reported as
information only. For openlava, whose memory limits are always in KB and
take no unit, only limits under 64 MB are reported, as information: they
are almost certainly meant in MB. lsfc says nothing without lsf.conf.

Why it matters: MEMLIMIT = 4000 is 4000 KB, about 3.9 MB: every job is
killed as soon as it starts. The unit written next to the number removes
the doubt for whoever reads the file next.

Example: MEMLIMIT = 4000 with no LSF_UNIT_FOR_LIMITS in lsf.conf.

Fix: write the unit: MEMLIMIT = 4000MB (or 4000KB when kilobytes are
meant); for openlava, give the limit in KB (4096000 for 4000 MB).`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFConf) {
				return
			}
			m := memoryUnits{pass: p, env: p.Policy.Env(), openlava: p.Policy.Dialect == compile.Openlava}
			if !m.openlava {
				st := p.Policy.Conf["LSF_UNIT_FOR_LIMITS"]
				switch {
				case st == nil:
					m.why = "LSF_UNIT_FOR_LIMITS is unset (KB)"
				default:
					u, err := compile.ParseUnit(st.Raw)
					if err != nil || u != compile.KB {
						return
					}
					m.why, m.reqsInKB = "LSF_UNIT_FOR_LIMITS is KB", true
				}
			}
			for _, q := range p.Policy.Queues {
				m.settings(q.Settings)
			}
			for _, a := range p.Policy.Applications {
				m.settings(a.Settings)
			}
		},
	}
}

// memoryUnits reports the unitless amounts of one tree.
type memoryUnits struct {
	pass     *Pass
	env      *compile.Env
	openlava bool
	// why says why bare numbers are in KB; reqsInKB is set when resource
	// requirements are in KB too (LSF_UNIT_FOR_LIMITS = KB).
	why      string
	reqsInKB bool
}

// memoryLimitKeys are the limits of memory a queue or profile sets.
var memoryLimitKeys = []string{"MEMLIMIT", "SWAPLIMIT"}

// settings checks the memory limits and resource requirements of one
// queue or profile, each #if arm too.
func (m *memoryUnits) settings(set compile.Settings) {
	for _, key := range memoryLimitKeys {
		for _, st := range withAlternatives(set[key]) {
			if _, ok := st.Value.(*compile.Limit); ok {
				for _, w := range valueWords(st.Span()) {
					m.limitWord(key, w)
				}
			}
		}
	}
	if !m.reqsInKB {
		return
	}
	for _, key := range sortedNames(set) {
		for _, st := range withAlternatives(set[key]) {
			if r, ok := st.Value.(*compile.Requirement); ok && r != nil {
				m.requirement(r.AST)
			}
		}
	}
}

// withAlternatives returns a setting and its values in other #if arms.
func withAlternatives(st *compile.Setting) []*compile.Setting {
	if st == nil {
		return nil
	}
	return append([]*compile.Setting{st}, st.Alternatives...)
}

// valueWords returns the spans of the blank-separated words of a value as
// written in its file, without enclosing parentheses or quotes and
// skipping line continuations.
func valueWords(sp lang.Span) []lang.Span {
	r := sp.Root()
	if !r.IsValid() {
		return nil
	}
	text := r.Text()
	var out []lang.Span
	for i := 0; i < len(text); {
		if strings.IndexByte(" \t\r\n\\()\"'", text[i]) >= 0 {
			i++
			continue
		}
		j := i
		for j < len(text) && strings.IndexByte(" \t\r\n\\()\"'", text[j]) < 0 {
			j++
		}
		out = append(out, lang.Span{Src: r.Src, Start: r.Start + i, End: r.Start + j})
		i = j
	}
	return out
}

// bareNumber reads a number written without a unit (and without a time
// or host spec): "4000", "1.5".
func bareNumber(s string) (float64, bool) {
	if s == "" || strings.IndexFunc(s, func(c rune) bool { return (c < '0' || c > '9') && c != '.' }) >= 0 {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil
}

// limitWord checks one word of MEMLIMIT or SWAPLIMIT.
func (m *memoryUnits) limitWord(key string, w lang.Span) {
	n, ok := bareNumber(w.Text())
	if !ok || n == 0 {
		return
	}
	text := w.Text()
	if m.openlava {
		if n >= 64*1024 {
			return
		}
		kb := strconv.FormatFloat(n*1024, 'f', -1, 64)
		d := m.pass.Report(w, "%s %s is %s KB (%s): openlava reads memory limits in KB; write %s if %s MB is meant",
			key, text, text, kbText(n), kb, text)
		d.Severity = lang.Info
		d.Suggest(replaceWith(kb), w, kb)
		return
	}
	m.report(w, key+" "+text, n)
}

// report reports a bare amount n at w, read in KB; what names it.
func (m *memoryUnits) report(w lang.Span, what string, n float64) {
	text := w.Text()
	if n >= 1024*1024 {
		d := m.pass.Report(w, "%s is %s KB (%s) because %s; write %sKB to make the unit explicit",
			what, text, kbText(n), m.why, text)
		d.Severity = lang.Info
		d.Suggest(fmt.Sprintf("write the unit: %q", text+"KB"), w, text+"KB")
		return
	}
	alt := ""
	if n >= 1024 && n == float64(int64(n)) && int64(n)%1024 == 0 {
		alt = fmt.Sprintf(" or %dG", int64(n)/1024)
	}
	m.pass.Report(w, "%s is %s KB (%s) because %s; write %sMB%s if megabytes are meant",
		what, text, kbText(n), m.why, text, alt).
		Suggest(fmt.Sprintf("write the unit: %q", text+"MB"), w, text+"MB")
}

// kbText shows n KB in MB or a larger unit, to one decimal ("3.9 MB"),
// or two under 1 MB ("0.49 MB").
func kbText(n float64) string {
	units := []string{"MB", "GB", "TB", "PB"}
	n /= 1024
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	prec := 1
	if n < 1 {
		prec = 2
	}
	s := strconv.FormatFloat(n, 'f', prec, 64)
	return strings.TrimSuffix(s, ".0") + " " + units[i]
}

// memoryResource reports whether bare amounts of resource name are in
// LSF_UNIT_FOR_LIMITS: mem, swp, maxmem, maxswp, and tmp and maxtmp with
// LSF_ENABLE_TMP_UNIT.
func (m *memoryUnits) memoryResource(name string) bool {
	r, _, ok := m.env.Lookup(name)
	if !ok {
		return false
	}
	return r.Memory || (r.Name == "tmp" || r.Name == "maxtmp") && m.env.TmpUnit
}

// requirement checks the rusage and select amounts of a requirement.
func (m *memoryUnits) requirement(r *lang.ResReq) {
	for _, alt := range r.Alts {
		for _, t := range alt.Terms {
			for _, sec := range t.Simple.Sections {
				switch sec.Kind {
				case lang.SecRusage:
					for _, usages := range sec.Rusage {
						for _, u := range usages {
							m.usage(u)
						}
					}
				case lang.SecSelect, lang.SecFilter:
					if sec.Select != nil {
						m.selectExpr(sec.Select)
					}
				}
			}
		}
	}
}

func (m *memoryUnits) usage(u *lang.Usage) {
	for _, it := range u.Items {
		if !m.memoryResource(it.Name.Text) {
			continue
		}
		values := it.Phases
		if it.Value != nil {
			values = []*lang.Literal{it.Value}
		}
		for _, v := range values {
			if v.Kind == lang.LitNumber && v.Unit == "" && v.Num != 0 {
				m.report(v.Span.Root(), it.Name.Text+"="+v.Text, v.Num)
			}
		}
	}
}

func (m *memoryUnits) selectExpr(s *lang.Select) {
	for _, t := range s.Legacy {
		if t.Value != nil && !t.Not && m.memoryResource(t.Name.Text) {
			if v := t.Value; v.Kind == lang.LitNumber && v.Unit == "" && v.Num != 0 {
				m.report(v.Span.Root(), t.Name.Text+"="+v.Text, v.Num)
			}
		}
	}
	var walk func(lang.Expr)
	walk = func(e lang.Expr) {
		switch e := e.(type) {
		case *lang.Paren:
			walk(e.X)
		case *lang.Unary:
			walk(e.X)
		case *lang.Binary:
			switch e.Op {
			case "==", "=", "!=", "<", "<=", ">", ">=":
				for _, pair := range [2][2]lang.Expr{{e.X, e.Y}, {e.Y, e.X}} {
					id, ok1 := pair[0].(*lang.Ident)
					v, ok2 := pair[1].(*lang.Literal)
					if ok1 && ok2 && m.memoryResource(id.Name) && v.Kind == lang.LitNumber && v.Unit == "" && v.Num != 0 {
						m.report(v.Span.Root(), "in "+lang.ExprString(e)+", "+v.Text, v.Num)
					}
				}
				return
			}
			walk(e.X)
			walk(e.Y)
		}
	}
	if s.Expr != nil {
		walk(s.Expr)
	}
}
