package lsp

import (
	"context"
	"slices"
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
// when that tree is slow to check, d's own findings are published at
// once.
func (s *Server) edited(d *document) {
	s.mu.Lock()
	t := s.treeOfLocked(d.path)
	if t == nil {
		t = &treeState{pending: d.path}
		s.trees = append(s.trees, t)
	}
	t.gen++
	slow := t.took > slowCheck
	var text string
	var version int32
	if slow {
		text, version = d.text, d.version
	}
	s.mu.Unlock()
	if slow {
		s.publishFast(d, text, version)
	}
	s.poke()
}

// publishFast publishes the findings of one document checked alone:
// syntax, keys and values, and the rules that need no other file.
func (s *Server) publishFast(d *document, text string, version int32) {
	f, diags := lang.ConfigParser{Limits: s.opts.Load.Limits}.Parse(lang.NewSource(d.path, text), kindOf(d.path, text))
	tree := &compile.Tree{Files: []*lang.File{f}}
	res := lint.CheckLoaded(tree, diags, lint.Options{Compile: s.opts.Compile})
	var own lang.Diagnostics
	for _, x := range res.Diagnostics {
		if x.Span.Root().Src == f.Src {
			own = append(own, x)
		}
	}
	s.mu.Lock()
	stale := d.version != version || s.docs[d.uri] != d
	s.mu.Unlock()
	if stale {
		return
	}
	conv := newConverter(s)
	params := protocol.PublishDiagnosticsParams{URI: d.uri, Version: uint32(version), Diagnostics: conv.diagnostics(own)}
	_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", params)
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

	s.mu.Lock()
	defer s.mu.Unlock()
	t.paths, t.snap, t.built, t.took = paths, snap, gen, took
	// Another state waiting for a document this tree holds joins it.
	s.trees = slices.DeleteFunc(s.trees, func(o *treeState) bool {
		if o == t || !snap.contains(o.pending) {
			return false
		}
		return o.snap == nil || slices.Equal(o.paths, paths)
	})
	if t.gen == gen {
		s.publishLocked(t)
	}
	return true
}

// publishLocked publishes the findings of t's snapshot for every file of
// the tree, and clears those of files that no longer have any. The
// caller holds s.mu.
func (s *Server) publishLocked(t *treeState) {
	snap := t.snap
	conv := newConverter(s)
	byURI := map[protocol.DocumentURI][]protocol.Diagnostic{}
	for path := range snap.files {
		byURI[uriOf(path)] = nil
	}
	all := append(append(lang.Diagnostics{}, snap.res.Diagnostics...), snap.config...)
	for _, d := range all {
		r := d.Span.Root()
		if r.Src == nil {
			continue
		}
		u := uriOf(r.Src.Name)
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
		_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", params)
	}
}

// A converter maps lsfc's spans to protocol ranges, keeping the line
// table of each file it meets.
type converter struct {
	lines map[*lang.Source][]int
}

func newConverter(*Server) *converter { return &converter{lines: map[*lang.Source][]int{}} }

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
	return uriOf(r.Src.Name), protocol.Range{Start: position(r.Src.Text, lines, r.Start), End: position(r.Src.Text, lines, r.End)}, true
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
