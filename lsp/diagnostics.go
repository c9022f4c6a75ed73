package lsp

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"go.lsp.dev/protocol"
)

// slowCheck is how long a full check of a tree may take before an edit
// is first answered with the findings of the edited file alone, the
// whole tree's following when its check ends.
const slowCheck = 100 * time.Millisecond

// edited records that d's text changed: its tree is checked again, and,
// when that tree is slow to check, d's findings are published at once,
// those of the sections the edit touched checked anew (see quickFindings).
func (s *Server) edited(d *document) {
	s.mu.Lock()
	t := s.treeOfLocked(d.path)
	if t == nil {
		t = &treeState{pending: d.path}
		s.trees = append(s.trees, t)
	}
	t.gen++
	var prev *lang.File
	var prevDiags lang.Diagnostics
	if t.took > slowCheck && t.snap != nil {
		prev = t.snap.file(d.path)
		prevDiags = t.snap.res.Diagnostics
	}
	text, version := d.text, d.version
	s.mu.Unlock()
	if prev != nil {
		s.publishQuick(d, prev, prevDiags, text, version)
	}
	s.poke()
}

// publishQuick publishes d's findings without checking the whole tree:
// those of the last check outside the edited region, moved to where the
// edit put them, and those of the sections the edit touched, checked on
// their own (syntax, keys and values, and the rules that need no other
// file). The whole tree's findings follow when its check ends.
func (s *Server) publishQuick(d *document, prev *lang.File, prevDiags lang.Diagnostics, text string, version int32) {
	src := lang.NewSource(d.path, text)
	own := quickFindings(prev, prevDiags, src, s.opts)
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	stale := d.version != version || s.docs[d.uri] != d
	conv := s.converterLocked()
	s.mu.Unlock()
	if stale {
		return
	}
	params := protocol.PublishDiagnosticsParams{URI: d.uri, Version: uint32(version), Diagnostics: conv.diagnostics(own)}
	_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", params)
}

// quickFindings returns the findings of src, the new text of the file
// prev, from prevDiags (the last check's findings, which hold prev's)
// and from a check of the region of src that differs from prev's text,
// widened to whole sections.
func quickFindings(prev *lang.File, prevDiags lang.Diagnostics, src *lang.Source, opts Options) lang.Diagnostics {
	old, text := prev.Src.Text, src.Text
	// The changed region: [a, oldEnd) of old became [a, newEnd) of text.
	a := 0
	for a < len(old) && a < len(text) && old[a] == text[a] {
		a++
	}
	sfx := 0
	for sfx < len(old)-a && sfx < len(text)-a && old[len(old)-1-sfx] == text[len(text)-1-sfx] {
		sfx++
	}
	oldEnd, newEnd := len(old)-sfx, len(text)-sfx
	ra, rb := sectionAround(text, a, newEnd)
	// The same region in the old text: its ends moved by the edit.
	oa, ob := ra, rb+(oldEnd-newEnd)
	shift := newEnd - oldEnd
	var out lang.Diagnostics
	for _, x := range prevDiags {
		r := x.Span.Root()
		if r.Src != prev.Src {
			continue
		}
		switch {
		case r.End < oa || r.End == oa && r.Start < oa:
			out = append(out, moved(x, src, 0))
		case r.Start > ob || r.Start == ob && r.End > ob:
			out = append(out, moved(x, src, shift))
		}
	}
	part := src.Derive(text[ra:rb], []lang.Segment{{Off: 0, ParentOff: ra}})
	f, diags := lang.ConfigParser{Limits: opts.Load.Limits}.Parse(part, prev.Kind)
	res := lint.CheckLoaded(&compile.Tree{Files: []*lang.File{f}}, diags, lint.Options{Compile: opts.Compile})
	for _, x := range res.Diagnostics {
		if x.Span.Root().Src == src {
			out = append(out, x)
		}
	}
	out.Sort()
	return out
}

// moved returns a copy of d placed in src, its span and those of its
// notes in the same file moved by shift bytes. A finding that names
// another file keeps its place there.
func moved(d *lang.Diagnostic, src *lang.Source, shift int) *lang.Diagnostic {
	cp := *d
	from := d.Span.Root().Src
	move := func(sp lang.Span) lang.Span {
		r := sp.Root()
		if r.Src != from {
			return sp
		}
		return src.SpanOf(min(r.Start+shift, len(src.Text)), min(r.End+shift, len(src.Text)))
	}
	cp.Span = move(d.Span)
	cp.Related = nil
	for _, r := range d.Related {
		cp.Related = append(cp.Related, lang.Related{Span: move(r.Span), Message: r.Message})
	}
	return &cp
}

// sectionAround widens [a, b) of text to whole lines and to the Begin
// and End lines of a section it lies in.
func sectionAround(text string, a, b int) (int, int) {
	a = strings.LastIndexByte(text[:a], '\n') + 1
	if i := strings.IndexByte(text[b:], '\n'); i >= 0 {
		b += i + 1
	} else {
		b = len(text)
	}
	// Up to the nearest Begin, unless an End comes first.
	for p := a; p > 0; {
		q := strings.LastIndexByte(text[:p-1], '\n') + 1
		w := firstWord(text[q : p-1])
		if isKeyword(w, "End") {
			break
		}
		if isKeyword(w, "Begin") {
			a = q
			break
		}
		p = q
	}
	// Down to the nearest End, unless a Begin comes first.
	for p := b; p < len(text); {
		q := strings.IndexByte(text[p:], '\n')
		if q < 0 {
			q = len(text) - p
		} else {
			q++
		}
		w := firstWord(text[p : p+q])
		if isKeyword(w, "Begin") {
			break
		}
		p += q
		if isKeyword(w, "End") {
			b = p
			break
		}
	}
	return a, b
}

func kindOf(path, text string) lang.FileKind {
	kind := lang.KindOf(path)
	if kind == lang.KindUnknown {
		kind = lang.SniffKind(text[:min(len(text), 64<<10)])
	}
	return kind
}

// checker checks the trees whose documents changed, one at a time, until
// ctx is done.
func (s *Server) checker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		for s.checkOne() {
		}
	}
}

// checkOne checks one changed tree and publishes its findings; it
// reports whether there was one.
func (s *Server) checkOne() bool {
	s.mu.Lock()
	var t *treeState
	for _, c := range s.trees {
		if c.snap == nil || c.gen != c.built {
			t = c
			break
		}
	}
	if t == nil {
		s.mu.Unlock()
		return false
	}
	gen := t.gen
	opts := s.opts.Load
	opts.Overlay = s.overlayLocked()
	opts.Parse = s.parses.parse
	paths, pending := t.paths, t.pending
	s.mu.Unlock()

	start := time.Now()
	var tree *compile.Tree
	var loaded lang.Diagnostics
	if paths == nil {
		tree, loaded, paths = loadTree(pending, opts.Overlay[pending], opts)
	} else {
		var err error
		tree, loaded, err = reloadTree(paths, pending, opts.Overlay[pending], opts)
		if err != nil {
			// The tree went away from the disk: find it again.
			tree, loaded, paths = loadTree(pending, opts.Overlay[pending], opts)
		}
	}
	snap := lintTree(tree, loaded, paths[0], s.opts)
	snap.paths = paths
	took := time.Since(start)

	// Publications go out one at a time, in the order their staleness
	// was judged, and without holding s.mu while the editor reads them.
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	if !slices.Contains(s.trees, t) {
		// Its last document was closed during the check.
		s.mu.Unlock()
		return true
	}
	t.paths, t.snap, t.built, t.took = paths, snap, gen, took
	// Another state waiting for a document this tree holds joins it; an
	// edit of that document since the overlay was taken is checked anew.
	s.trees = slices.DeleteFunc(s.trees, func(o *treeState) bool {
		if o == t || !snap.contains(o.pending) || o.snap != nil && !slices.Equal(o.paths, paths) {
			return false
		}
		for _, d := range s.docs {
			if d.path == o.pending && d.text != snap.file(d.path).Src.Text {
				t.gen++
			}
		}
		return true
	})
	var out []protocol.PublishDiagnosticsParams
	if t.gen == gen {
		out = s.publicationsLocked(t)
	}
	s.mu.Unlock()
	for _, p := range out {
		_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", p)
	}
	return true
}

// publicationsLocked returns the findings of t's snapshot for every file
// of the tree, and empty lists for the files that had some and no longer
// have. The caller holds s.mu.
func (s *Server) publicationsLocked(t *treeState) []protocol.PublishDiagnosticsParams {
	snap := t.snap
	conv := s.converterLocked()
	byURI := map[protocol.DocumentURI][]protocol.Diagnostic{}
	for path := range snap.files {
		byURI[conv.uri(path)] = nil
	}
	all := append(append(lang.Diagnostics{}, snap.res.Diagnostics...), snap.config...)
	for _, d := range all {
		r := d.Span.Root()
		if r.Src == nil {
			continue
		}
		u := conv.uri(r.Src.Name)
		byURI[u] = append(byURI[u], conv.diagnostic(d))
	}
	for u := range t.published {
		if _, ok := byURI[u]; !ok {
			byURI[u] = nil
		}
	}
	t.published = map[protocol.DocumentURI]bool{}
	uris := make([]protocol.DocumentURI, 0, len(byURI))
	for u := range byURI {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	out := make([]protocol.PublishDiagnosticsParams, 0, len(uris))
	for _, u := range uris {
		ds := byURI[u]
		if ds == nil {
			ds = []protocol.Diagnostic{}
		} else {
			t.published[u] = true
		}
		params := protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds}
		if d := s.docs[u]; d != nil {
			params.Version = uint32(d.version)
		}
		out = append(out, params)
	}
	return out
}

// A converter maps lsfc's spans to protocol ranges, keeping the line
// table of each file it meets.
type converter struct {
	lines map[*lang.Source][]int
	// uris are the URIs of the open documents by path: the editor's own
	// spelling of them, and the only name of an unsaved buffer.
	uris map[string]protocol.DocumentURI
}

// newConverter returns a converter knowing the open documents of s.
func newConverter(s *Server) *converter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.converterLocked()
}

// converterLocked is newConverter for a caller holding s.mu.
func (s *Server) converterLocked() *converter {
	c := &converter{lines: map[*lang.Source][]int{}, uris: make(map[string]protocol.DocumentURI, len(s.docs))}
	for u, d := range s.docs {
		c.uris[d.path] = u
	}
	return c
}

// uri returns the URI of the file at path.
func (c *converter) uri(path string) protocol.DocumentURI {
	if u, ok := c.uris[path]; ok {
		return u
	}
	return uriOf(path)
}

// rangeOf returns the URI and range of a span's root.
func (c *converter) rangeOf(sp lang.Span) (protocol.DocumentURI, protocol.Range, bool) {
	r := sp.Root()
	if r.Src == nil {
		return "", protocol.Range{}, false
	}
	lines, ok := c.lines[r.Src]
	if !ok {
		lines = lineStarts(r.Src.Text)
		c.lines[r.Src] = lines
	}
	return c.uri(r.Src.Name), protocol.Range{Start: position(r.Src.Text, lines, r.Start), End: position(r.Src.Text, lines, r.End)}, true
}

var severities = map[lang.Severity]protocol.DiagnosticSeverity{
	lang.Error: protocol.DiagnosticSeverityError, lang.Warning: protocol.DiagnosticSeverityWarning, lang.Info: protocol.DiagnosticSeverityInformation,
}

// diagnostic converts one finding; its code links to its documentation.
func (c *converter) diagnostic(d *lang.Diagnostic) protocol.Diagnostic {
	_, rng, _ := c.rangeOf(d.Span)
	out := protocol.Diagnostic{Range: rng, Severity: severities[d.Severity], Source: "lsfc", Message: d.Message}
	if d.Code != "" {
		out.Code = string(d.Code)
		out.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(lint.HelpURI(d.Code))}
	}
	for _, r := range d.Related {
		u, rr, ok := c.rangeOf(r.Span)
		if !ok {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: u, Range: rr}, Message: r.Message,
		})
	}
	return out
}

func (c *converter) diagnostics(ds lang.Diagnostics) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, c.diagnostic(d))
	}
	return out
}
