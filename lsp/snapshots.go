package lsp

import (
	"time"
)

// latest returns the newest snapshot of the tree holding d, which may
// predate d's latest edits, or nil when none was made yet.
func (s *Server) latest(d *document) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.treeOfLocked(d.path); t != nil {
		return t.snap
	}
	return nil
}

// freshWait bounds how long a request waits for its tree's check.
const freshWait = 30 * time.Second

// fresh returns a snapshot of the tree holding d made after d's latest
// edit, waiting for the checker; after freshWait it returns the newest
// there is (nil when none).
func (s *Server) fresh(d *document) *snapshot {
	deadline := time.Now().Add(freshWait)
	for {
		s.mu.Lock()
		t := s.treeOfLocked(d.path)
		if t != nil && t.snap != nil && t.built == t.gen && t.snap.contains(d.path) || time.Now().After(deadline) {
			var snap *snapshot
			if t != nil {
				snap = t.snap
			}
			s.mu.Unlock()
			return snap
		}
		s.mu.Unlock()
		s.poke()
		time.Sleep(2 * time.Millisecond)
	}
}
