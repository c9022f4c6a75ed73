package lang

import "fmt"

// ParseResReqOptions parses the texts of several -R options, as bsub,
// bmod and lsfc resreq match take them, and joins them with
// JoinResReqs. The sources are named "-R" when there is one text, else
// "-R#1", "-R#2" and so on, so that diagnostics say which option they are
// about. No text gives the empty requirement.
func ParseResReqOptions(texts []string) (*ResReq, Diagnostics) {
	var reqs []*ResReq
	var ds Diagnostics
	for i, text := range texts {
		name := "-R"
		if len(texts) > 1 {
			name = fmt.Sprintf("-R#%d", i+1)
		}
		r, rds := ParseResReq(NewSource(name, text))
		ds = append(ds, rds...)
		reqs = append(reqs, r)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	r, jds := JoinResReqs(reqs)
	return r, append(ds, jds...)
}

// JoinResReqs joins the requirements of several -R options into one, as
// LSF 10.1's bsub merges them:
//
//   - select: every option's select must hold (ANDed, each in
//     parentheses); selects in the colon syntax join when all are;
//   - order: the keys of every option, in option order, a key given
//     again dropped;
//   - rusage: the usage strings of every option, joined with commas; when
//     options give "||" alternatives, every combination of one
//     alternative of each (a resource reserved by two options is an
//     error, as LSF allows a load index once in a usage string);
//   - same: the resources of every option, a resource given again
//     dropped;
//   - span, cu, affinity (and openlava's filter): one option at most may
//     give each (an error names the second).
//
// A compound or alternative requirement must be the only -R. Empty
// requirements (an empty -R) are skipped; one requirement is returned as
// it is, and none gives the empty requirement. The result shares nodes
// with reqs, whose spans keep pointing into their own sources.
func JoinResReqs(reqs []*ResReq) (*ResReq, Diagnostics) {
	var given []*ResReq
	for _, r := range reqs {
		if r != nil && len(r.Alts) > 0 {
			given = append(given, r)
		}
	}
	switch len(given) {
	case 0:
		return &ResReq{}, nil
	case 1:
		return given[0], nil
	}
	var ds Diagnostics
	var simples []*Simple
	for _, r := range given {
		s := r.Simple()
		if s == nil {
			ds.Add(Error, CodeRRSyntax, r.Span, "a compound or alternative requirement must be the only -R option; write the other options' sections into each of its terms")
			continue
		}
		simples = append(simples, s)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	out := &Simple{Span: simples[0].Span}
	for k := SecSelect; k <= SecFilter; k++ {
		var secs []*ReqSection
		for _, s := range simples {
			for _, sec := range s.Sections {
				if sec.Kind == k {
					secs = append(secs, sec)
				}
			}
		}
		if len(secs) == 0 {
			continue
		}
		if len(secs) == 1 {
			out.Sections = append(out.Sections, secs[0])
			continue
		}
		if sec := joinSections(k, secs, &ds); sec != nil {
			out.Sections = append(out.Sections, sec)
		}
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return &ResReq{Alts: []*Compound{{Terms: []*Term{{Simple: out, Span: out.Span}}, Span: out.Span}}, Span: given[0].Span}, ds
}

// joinSections joins two or more sections of kind k from different -R
// options.
func joinSections(k SectionKind, secs []*ReqSection, ds *Diagnostics) *ReqSection {
	first := secs[0]
	out := &ReqSection{Kind: k, Keyword: first.Keyword, Span: first.Span}
	switch k {
	case SecSelect:
		out.Select = joinSelects(secs, ds)
	case SecOrder:
		seen := map[string]bool{}
		for _, sec := range secs {
			for _, key := range sec.Order {
				if !seen[key.Name.Text] {
					seen[key.Name.Text] = true
					out.Order = append(out.Order, key)
				}
			}
		}
	case SecRusage:
		out.Rusage = joinRusage(secs, ds)
	case SecSame:
		seen := map[string]bool{}
		for _, sec := range secs {
			for _, it := range sec.Items {
				if !seen[it.Name.Text] {
					seen[it.Name.Text] = true
					out.Items = append(out.Items, it)
				}
			}
		}
	default:
		ds.Add(Error, CodeRRRepeat, secs[1].Keyword, "%s section given by two -R options; only select, order, rusage and same sections are merged", k).
			Note(first.Keyword, "the first %s section", k)
		return nil
	}
	return out
}

// joinSelects ANDs the selects of several options.
func joinSelects(secs []*ReqSection, ds *Diagnostics) *Select {
	legacy := 0
	for _, sec := range secs {
		if sec.Select.Expr == nil {
			legacy++
		}
	}
	out := &Select{Span: secs[0].Select.Span}
	if legacy == len(secs) {
		for _, sec := range secs {
			out.Legacy = append(out.Legacy, sec.Select.Legacy...)
		}
		return out
	}
	for _, sec := range secs {
		x := sec.Select.Expr
		if x == nil {
			ds.Add(Error, CodeRRSyntax, sec.Select.Span, "a select in the colon syntax cannot be joined with another -R option's select expression; write it as an expression")
			continue
		}
		x = &Paren{X: x, Span: ExprSpan(x)}
		if out.Expr == nil {
			out.Expr = x
		} else {
			out.Expr = &Binary{Op: "&&", X: out.Expr, Y: x}
		}
	}
	return out
}

// joinRusage joins the rusage sections of several options: every
// combination of one alternative of each, its usage strings in option
// order.
func joinRusage(secs []*ReqSection, ds *Diagnostics) [][]*Usage {
	owner := map[string]*UsageItem{}
	for _, sec := range secs {
		mine := map[string]bool{}
		for _, alt := range sec.Rusage {
			for _, u := range alt {
				for _, it := range u.Items {
					name := it.Name.Text
					if name == "duration" || name == "decay" {
						continue
					}
					if first, ok := owner[name]; ok && !mine[name] {
						ds.Add(Error, CodeRRRepeat, it.Name.Span, "%s is reserved by two -R options; a resource appears once in rusage[]", name).
							Note(first.Name.Span, "reserved here first")
						mine[name] = true
						continue
					}
					owner[name], mine[name] = it, true
				}
			}
		}
	}
	alts := [][]*Usage{nil}
	for _, sec := range secs {
		var next [][]*Usage
		for _, acc := range alts {
			for _, alt := range sec.Rusage {
				next = append(next, append(acc[:len(acc):len(acc)], alt...))
			}
		}
		alts = next
	}
	return alts
}
