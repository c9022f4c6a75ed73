//go:build !lsfclient

package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/lsfc/lsfc/internal/confwatch"
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
	w, err := confwatch.New()
	if err != nil {
		return err
	}
	defer w.Close()
	rewatch := func(dirs []string) {
		failed := w.Set(dirs, false)
		for _, d := range slices.Sorted(maps.Keys(failed)) {
			fmt.Fprintf(e.stderr, "lsfc: cannot watch %s: %v\n", d, failed[d])
		}
	}
	dirs, err := run()
	if err != nil {
		return err
	}
	rewatch(dirs)
	changes := w.Changes(ctx.Done())
	for {
		var changed string
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors():
			return err
		case changed = <-changes:
		}
		if !confwatch.Settle(changes, ctx.Done(), settle) {
			return nil
		}
		fmt.Fprintf(e.stderr, "lsfc: %s changed; checking again\n", changed)
		if dirs, err = run(); err != nil {
			return err
		}
		rewatch(dirs)
	}
}
