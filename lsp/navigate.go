package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"
)

// occurrencesAt returns the names under a position of d, from a
// snapshot made after d's latest edit.
func (s *Server) occurrencesAt(u protocol.DocumentURI, pos protocol.Position) (*snapshot, []occurrence, error) {
	d, err := s.doc(u)
	if err != nil {
		return nil, nil, err
	}
	snap := s.fresh(d)
	if snap == nil {
		return nil, nil, nil
	}
	s.mu.Lock()
	off := d.offset(pos)
	current := snap.file(d.path) != nil && snap.file(d.path).Src.Text == d.text
	s.mu.Unlock()
	if !current {
		return snap, nil, nil
	}
	return snap, snap.index.at(d.path, off), nil
}

func (s *Server) location(conv *converter, o occurrence) protocol.Location {
	u, r, _ := conv.rangeOf(o.src.SpanOf(o.start, o.end))
	return protocol.Location{URI: u, Range: r}
}

func (s *Server) definition(_ context.Context, p protocol.DefinitionParams) (any, error) {
	snap, occs, err := s.occurrencesAt(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	out := []protocol.Location{}
	conv := newConverter(s)
	for _, o := range occs {
		for _, def := range snap.index.defs[o.nameKey] {
			out = append(out, s.location(conv, def))
		}
	}
	return out, nil
}

func (s *Server) references(_ context.Context, p protocol.ReferenceParams) (any, error) {
	snap, occs, err := s.occurrencesAt(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	out := []protocol.Location{}
	conv := newConverter(s)
	for _, o := range occs {
		for _, u := range snap.index.uses(o.nameKey) {
			if u.def && !p.Context.IncludeDeclaration {
				continue
			}
			out = append(out, s.location(conv, u))
		}
	}
	return out, nil
}

func (s *Server) prepareRename(_ context.Context, p protocol.PrepareRenameParams) (any, error) {
	_, occs, err := s.occurrencesAt(p.TextDocument.URI, p.Position)
	if err != nil || len(occs) == 0 {
		return nil, err
	}
	conv := newConverter(s)
	return s.location(conv, occs[0]).Range, nil
}

var errNoName = errors.New("no host, queue, group, resource, limit or application name here")

func (s *Server) rename(_ context.Context, p protocol.RenameParams) (any, error) {
	if !validName(p.NewName) {
		return nil, fmt.Errorf("%q is not a valid name: use letters, digits, '_', '-' and '.'", p.NewName)
	}
	snap, occs, err := s.occurrencesAt(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if len(occs) == 0 {
		return nil, errNoName
	}
	conv := newConverter(s)
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}
	seen := map[protocol.Location]bool{}
	for _, o := range occs {
		for _, u := range snap.index.uses(o.nameKey) {
			loc := s.location(conv, u)
			if seen[loc] {
				continue
			}
			seen[loc] = true
			edit.Changes[loc.URI] = append(edit.Changes[loc.URI], protocol.TextEdit{Range: loc.Range, NewText: p.NewName})
		}
	}
	return edit, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}
