package lint

import (
	"cmp"
	"slices"

	"github.com/lsfc/lsfc/lang"
)

// A FileFix is the new text of one file once the safe fixes of its
// findings are applied.
type FileFix struct {
	// Path is the file, as its Source names it.
	Path string
	// Text is the file's new content.
	Text []byte
	// Fixed are the findings whose fixes were applied.
	Fixed lang.Diagnostics
}

// Fixes applies the safe fixes (lang.Fix.Safe) of ds to the text of their
// files. A fix whose edits overlap an edit already taken, or fall outside
// their file, is left out and its finding stays. Files come in path order.
func Fixes(ds lang.Diagnostics) []FileFix {
	type edit struct {
		src        *lang.Source
		start, end int
		text       string
		d          *lang.Diagnostic
	}
	byFile := map[*lang.Source][]edit{}
	for _, d := range ds {
		if d.Fix == nil || !d.Fix.Safe || len(d.Fix.Edits) == 0 {
			continue
		}
		var es []edit
		ok := true
		for _, e := range d.Fix.Edits {
			r := e.Span.Root()
			if r.Src == nil || r.Start < 0 || r.End > len(r.Src.Text) || r.Start > r.End {
				ok = false
				break
			}
			es = append(es, edit{src: r.Src, start: r.Start, end: r.End, text: e.NewText, d: d})
		}
		if !ok {
			continue
		}
		for _, e := range es {
			byFile[e.src] = append(byFile[e.src], e)
		}
	}
	var out []FileFix
	for src, es := range byFile {
		slices.SortStableFunc(es, func(a, b edit) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end)) })
		// Drop every fix one of whose edits overlaps an earlier one.
		dropped := map[*lang.Diagnostic]bool{}
		end := -1
		for _, e := range es {
			if e.start < end || (e.start == end && e.start == e.end) {
				dropped[e.d] = true
				continue
			}
			end = max(end, e.end)
		}
		text := src.Text
		var b []byte
		last := 0
		var fixed lang.Diagnostics
		for _, e := range es {
			if dropped[e.d] {
				continue
			}
			b = append(b, text[last:e.start]...)
			b = append(b, e.text...)
			last = e.end
			if len(fixed) == 0 || fixed[len(fixed)-1] != e.d {
				fixed = append(fixed, e.d)
			}
		}
		if len(fixed) == 0 {
			continue
		}
		b = append(b, text[last:]...)
		out = append(out, FileFix{Path: src.Name, Text: b, Fixed: fixed})
	}
	slices.SortFunc(out, func(a, b FileFix) int { return cmp.Compare(a.Path, b.Path) })
	return out
}
