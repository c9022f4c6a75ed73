package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long watch waits after a change for the rest of an edit
// (editors write a file in several steps) before it runs again.
const settle = 200 * time.Millisecond

// watch runs once, then again after each change to the directories run
// returns, until ctx ends. run returns the directories to watch (those of
// the files it read, and the paths it was given) and an error that ends
// the watch. Each re-run is announced on e.stderr with the file that
// changed.
func watch(ctx context.Context, e env, run func() ([]string, error)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	watched := map[string]bool{}
	rewatch := func(dirs []string) {
		want := map[string]bool{}
		for _, d := range dirs {
			want[filepath.Clean(d)] = true
		}
		for d := range watched {
			if !want[d] {
				w.Remove(d)
				delete(watched, d)
			}
		}
		keys := make([]string, 0, len(want))
		for d := range want {
			keys = append(keys, d)
		}
		slices.Sort(keys)
		for _, d := range keys {
			if !watched[d] {
				if err := w.Add(d); err != nil {
					fmt.Fprintf(e.stderr, "lsfc: cannot watch %s: %v\n", d, err)
					continue
				}
				watched[d] = true
			}
		}
	}
	dirs, err := run()
	if err != nil {
		return err
	}
	rewatch(dirs)
	for {
		var changed string
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors:
			return err
		case ev := <-w.Events:
			if ev.Op == fsnotify.Chmod {
				continue
			}
			changed = ev.Name
		}
		// Let the edit finish: drain events until none comes for settle.
		timer := time.NewTimer(settle)
	drain:
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return nil
			case <-w.Events:
				timer.Reset(settle)
			case <-timer.C:
				break drain
			}
		}
		fmt.Fprintf(e.stderr, "lsfc: %s changed; checking again\n", changed)
		if dirs, err = run(); err != nil {
			return err
		}
		rewatch(dirs)
	}
}
