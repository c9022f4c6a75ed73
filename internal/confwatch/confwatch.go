// Package confwatch follows the directories of a configuration tree for
// changes: lsfc check --watch and lsfc serve's reload both use it.
//
// A Watcher watches a set of directories, which the caller may change at
// any time (a reload can add or drop files), and reports the changes that
// matter: a created, written, removed or renamed entry (a change of mode
// alone is not one). Editors and configuration managers write a file in
// several steps, so after the first event of a change Settle waits until
// no event has come for a while.
package confwatch

import (
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A Watcher follows a set of directories. It is not safe for use by
// several goroutines at once, but for its Events and Errors channels.
type Watcher struct {
	w       *fsnotify.Watcher
	watched map[string]bool
}

// New returns a Watcher that watches nothing yet.
func New() (*Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &Watcher{w: w, watched: map[string]bool{}}, nil
}

// Close stops the watch.
func (w *Watcher) Close() error { return w.w.Close() }

// Errors delivers the watch's own errors.
func (w *Watcher) Errors() <-chan error { return w.w.Errors }

// Set makes the watched directories exactly dirs (cleaned; with parents,
// each directory's parent too, so that a directory removed and made
// again is seen). Directories it cannot watch (missing ones) are left
// out and returned with their errors.
func (w *Watcher) Set(dirs []string, parents bool) map[string]error {
	want := map[string]bool{}
	for _, d := range dirs {
		d = filepath.Clean(d)
		want[d] = true
		if parents {
			want[filepath.Dir(d)] = true
		}
	}
	for d := range w.watched {
		if !want[d] {
			w.w.Remove(d)
			delete(w.watched, d)
		}
	}
	var failed map[string]error
	for _, d := range slices.Sorted(maps.Keys(want)) {
		if w.watched[d] {
			continue
		}
		if err := w.w.Add(d); err != nil {
			if failed == nil {
				failed = map[string]error{}
			}
			failed[d] = err
			continue
		}
		w.watched[d] = true
	}
	return failed
}

// Forget drops every watch, so that the next Set watches each directory
// anew: a directory removed and made again has lost its watch.
func (w *Watcher) Forget() {
	for d := range w.watched {
		w.w.Remove(d)
		delete(w.watched, d)
	}
}

// Changes delivers the names of the entries that changed (events that
// only change a mode are left out). Read it from one goroutine only.
func (w *Watcher) Changes(stop <-chan struct{}) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for {
			select {
			case <-stop:
				return
			case ev, ok := <-w.w.Events:
				if !ok {
					return
				}
				if ev.Op == fsnotify.Chmod {
					continue
				}
				select {
				case out <- ev.Name:
				case <-stop:
					return
				}
			}
		}
	}()
	return out
}

// Settle waits until no change has come on changes for quiet, and
// reports false if stop ended the wait first.
func Settle(changes <-chan string, stop <-chan struct{}, quiet time.Duration) bool {
	timer := time.NewTimer(quiet)
	defer timer.Stop()
	for {
		select {
		case <-stop:
			return false
		case _, ok := <-changes:
			if !ok {
				return false
			}
			timer.Reset(quiet)
		case <-timer.C:
			return true
		}
	}
}
