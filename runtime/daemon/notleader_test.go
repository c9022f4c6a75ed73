package daemon_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
)

// notLeaderError is a write a fenced log refuses: another master leads.
type notLeaderError struct{}

func (notLeaderError) Error() string   { return "the log is held by another master" }
func (notLeaderError) NotLeader() bool { return true }

// fencedCommit is a transaction the log refused.
type fencedCommit struct{}

func (fencedCommit) Wait() error { return notLeaderError{} }

// fencingStore is an event log in memory that refuses every write once
// fenced is set, as the log of a fail-over master whose election key is
// gone does.
type fencingStore struct {
	memStore
	mu     sync.Mutex
	fenced bool
}

type fencingJournal struct{ s *fencingStore }

func (s *fencingStore) Open(replay func(uint64, [][]byte) error) (daemon.Journal, string, error) {
	if _, _, err := s.memStore.Open(replay); err != nil {
		return nil, "", err
	}
	return fencingJournal{s}, "", nil
}

func (j fencingJournal) Append(records [][]byte) (daemon.Committed, error) {
	j.s.mu.Lock()
	defer j.s.mu.Unlock()
	if j.s.fenced {
		return fencedCommit{}, nil
	}
	return memJournal{&j.s.memStore}.Append(records)
}

func (j fencingJournal) Compact(snapshot [][]byte) error {
	return memJournal{&j.s.memStore}.Compact(snapshot)
}

func (j fencingJournal) Close() error { return nil }

// TestNotLeaderAnswer submits to a master whose log has been fenced: the
// request is answered as a standby answers, 503 with the leader header
// naming none, so that a client of several candidates asks the others
// (the refused submission left nothing behind).
func TestNotLeaderAnswer(t *testing.T) {
	store := &fencingStore{}
	c, _ := startOnStore(t, store)
	c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
	store.mu.Lock()
	store.fenced = true
	store.mu.Unlock()

	body := strings.NewReader(`{"command":"true","hold":true}`)
	req, err := http.NewRequest("POST", c.base+"/v1/jobs", body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a submission to a fenced master: status %d, want 503", resp.StatusCode)
	}
	if v, ok := resp.Header[http.CanonicalHeaderKey(api.HeaderLeader)]; !ok || len(v) != 1 || v[0] != "" {
		t.Errorf("the leader header: %q (present %v), want present and empty", v, ok)
	}
}
