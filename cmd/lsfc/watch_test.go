//go:build !lsfclient

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCheckWatch runs lsfc check --watch on a directory, breaks a file,
// and waits for the second check to report the mistake; then it stops the
// watch and expects the exit code of the last run.
func TestCheckWatch(t *testing.T) {
	dir := t.TempDir()
	queues := filepath.Join(dir, "lsb.queues")
	if err := os.WriteFile(queues, []byte("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs syncBuffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int)
	go func() {
		root := newRootCmd(e)
		root.SetArgs([]string{"check", "--watch", dir})
		err := root.ExecuteContext(ctx)
		code := exitOK
		if ee, ok := err.(*exitError); ok {
			code = ee.code
		}
		done <- code
	}()
	waitFor(t, &out, "0 errors, 0 warnings in 1 file")
	if err := os.WriteFile(queues, []byte("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = high\nEnd Queue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &out, "1 error, 0 warnings in 1 file")
	if !strings.Contains(errs.String(), "changed; checking again") {
		t.Errorf("no announcement of the re-run on stderr: %q", errs.String())
	}
	cancel()
	if code := <-done; code != exitFindings {
		t.Errorf("exit code %d after a failing last run, want %d", code, exitFindings)
	}
}

// waitFor waits until out holds want. The deadline only guards against a
// watch that never fires; it measures nothing.
func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%s", want, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
