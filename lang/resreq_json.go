package lang

// JSON returns r as plain data for JSON output: the canonical text and,
// for each alternative, its terms and their sections. Offsets are byte
// offsets in r's Source ("start", "end"); select expressions are trees of
// {"op", "x", "y"}, {"ident"}, {"number", "unit"}, {"string"},
// {"defined"}.
func (r *ResReq) JSON() map[string]any {
	alts := []any{}
	for _, alt := range r.Alts {
		terms := []any{}
		for _, t := range alt.Terms {
			secs := []any{}
			for _, sec := range t.Simple.Sections {
				secs = append(secs, sec.json())
			}
			terms = append(terms, map[string]any{"count": t.Count, "sections": secs})
		}
		alts = append(alts, terms)
	}
	return map[string]any{"canonical": r.String(), "alternatives": alts}
}

func spanJSON(m map[string]any, sp Span) map[string]any {
	if sp.IsValid() {
		m["start"], m["end"] = sp.Start, sp.End
	}
	return m
}

func (sec *ReqSection) json() map[string]any {
	m := map[string]any{"name": sec.Kind.String(), "text": sec.String()}
	spanJSON(m, sec.Span)
	switch sec.Kind {
	case SecSelect, SecFilter:
		if sec.Select.Expr != nil {
			m["expr"] = exprJSON(sec.Select.Expr)
		} else {
			var terms []any
			for _, t := range sec.Select.Legacy {
				lt := map[string]any{"name": t.Name.Text, "not": t.Not}
				if t.Value != nil {
					lt["value"] = t.Value.Text
				}
				terms = append(terms, lt)
			}
			m["legacy"] = terms
		}
		m["bare"] = sec.Bare
	case SecOrder:
		keys := []any{}
		for _, k := range sec.Order {
			keys = append(keys, map[string]any{"name": k.Name.Text, "reverse": k.Minus})
		}
		m["keys"] = keys
	case SecRusage:
		alts := []any{}
		for _, alt := range sec.Rusage {
			usages := []any{}
			for _, u := range alt {
				items := []any{}
				for _, it := range u.Items {
					im := map[string]any{"name": it.Name.Text}
					if it.Value != nil {
						im["value"] = it.Value.Text
					}
					if it.Phases != nil {
						var ph []string
						for _, p := range it.Phases {
							ph = append(ph, p.Text)
						}
						im["phases"] = ph
					}
					if it.Per != "" {
						im["per"] = it.Per
					}
					items = append(items, im)
				}
				usages = append(usages, map[string]any{"items": items})
			}
			alts = append(alts, usages)
		}
		m["alternatives"] = alts
	case SecSpan, SecSame, SecCu:
		items := []any{}
		for _, it := range sec.Items {
			im := map[string]any{"name": it.Name.Text}
			if it.Value != nil {
				v := it.Value.Text
				if it.Minus {
					v = "-" + v
				}
				im["value"] = v
			}
			if it.Count != nil {
				im["count"] = it.Count.Text
			}
			items = append(items, im)
		}
		m["items"] = items
	}
	return m
}

func exprJSON(e Expr) map[string]any {
	switch e := e.(type) {
	case *Binary:
		return spanJSON(map[string]any{"op": e.Op, "x": exprJSON(e.X), "y": exprJSON(e.Y)}, ExprSpan(e))
	case *Unary:
		return spanJSON(map[string]any{"op": e.Op, "x": exprJSON(e.X)}, ExprSpan(e))
	case *Ident:
		return spanJSON(map[string]any{"ident": e.Name}, e.Span)
	case *Literal:
		if e.Kind == LitNumber {
			m := map[string]any{"number": e.Num}
			if e.Unit != "" {
				m["unit"] = e.Unit
			}
			return spanJSON(m, e.Span)
		}
		return spanJSON(map[string]any{"string": e.Str}, e.Span)
	case *Defined:
		return spanJSON(map[string]any{"defined": e.Name.Text}, e.Span)
	case *Paren:
		return spanJSON(map[string]any{"paren": exprJSON(e.X)}, e.Span)
	}
	return nil
}
