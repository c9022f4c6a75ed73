package daemon

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/confwatch"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// Reload compiles the configuration again, with the very code of lsfc
// check (Config.Load), and adopts it only when it compiled without
// errors: the cluster of the new Policy, with every job of the old one,
// is swapped in between two cycles and the generation goes up. A
// configuration with errors is refused and the old one keeps serving.
// Either way the outcome is kept (Status), logged, and returned. A reload
// once begun runs to its end: it takes no context.
func (d *Daemon) Reload(trigger string) api.Reload {
	d.reloadMu.Lock()
	defer d.reloadMu.Unlock()
	start := d.clk.Now()
	out := api.Reload{Time: start.Unix(), Trigger: trigger}
	var p *compile.Policy
	var diags lang.Diagnostics
	var dirs []string
	var err error
	if d.cfg.Load == nil {
		err = errors.New("this daemon was started without a way to read its configuration again")
	} else {
		p, diags, dirs, err = d.cfg.Load()
	}
	for _, dg := range diags {
		if dg.Severity >= lang.Warning {
			out.Diagnostics = append(out.Diagnostics, dg.Error())
		}
	}
	if err != nil {
		out.Diagnostics = append(out.Diagnostics, err.Error())
	}
	adopt := err == nil && p != nil && !diags.HasErrors()
	v, derr := d.do(context.Background(), func() (any, []Record, func(), error) {
		var recs []Record
		if adopt {
			n, warnings, rerr := d.cluster.Reconfigure(p, runtime.ClusterOptions{SlotsPerHost: d.cpus})
			if rerr != nil {
				out.Diagnostics = append(out.Diagnostics, rerr.Error())
			} else {
				out.Changes = policyChanges(d.cfg.Policy, p)
				out.Warnings = warnings
				// The moves to lost_and_found are logged, so that a
				// restart finds the jobs where this daemon put them.
				recs = lostRecords(d.cluster, n, d.now())
				d.cluster, d.engine = n, runtime.NewEngine(n, d.clock, nil)
				d.reqc.Store(n.ReqCompiler())
				d.cfg.Policy = p
				d.generation++
				d.dirty = true
				out.OK = true
			}
		}
		out.Generation = d.generation
		out.Took = d.clk.Since(start).Seconds()
		// The status shows a copy of its own: out goes on changing here.
		kept := out
		kept.Diagnostics = slices.Clone(out.Diagnostics)
		d.lastReload = &kept
		return kept, recs, nil, nil
	})
	if derr != nil {
		out.Diagnostics = append(out.Diagnostics, derr.Error())
		return out
	}
	out = v.(api.Reload)
	if out.OK {
		d.setConfFiles(p.Files)
	}
	if len(dirs) > 0 {
		d.setWatchDirs(dirs)
	}
	if out.OK {
		d.cfg.Logf("reconfig (%s): generation %d adopted in %.0f ms, %d changes", trigger, out.Generation,
			out.Took*1000, len(out.Changes))
		for _, c := range out.Changes {
			d.cfg.Logf("reconfig: %s [%s]", c.What, c.Applies)
		}
		for _, w := range out.Warnings {
			d.cfg.Logf("reconfig: %s", w)
		}
		d.noteNotActedOn(p)
	} else {
		d.cfg.Logf("reconfig (%s): refused, generation %d keeps serving", trigger, out.Generation)
		for _, s := range out.Diagnostics {
			d.cfg.Logf("reconfig: %s", s)
		}
	}
	return out
}

// handleReconfig answers badmin reconfig: an administrator's call; 409
// when the configuration is refused.
func (d *Daemon) handleReconfig(w http.ResponseWriter, r *http.Request) {
	id := who(r)
	if _, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		if !d.isAdmin(id) {
			return nil, nil, nil, errorf(http.StatusForbidden, "reconfig: User permission denied")
		}
		return nil, nil, nil, nil
	}); err != nil {
		reply(w, nil, err)
		return
	}
	// The reload runs to its end even when the client leaves; the
	// handler only stops waiting for it.
	done := make(chan api.Reload, 1)
	go func() { done <- d.Reload("badmin reconfig") }()
	var out api.Reload
	select {
	case out = <-done:
	case <-r.Context().Done():
		return
	}
	code := http.StatusOK
	if !out.OK {
		code = http.StatusConflict
	}
	writeJSON(w, code, out)
}

// setWatchDirs tells the watcher which directories the configuration's
// files are in.
func (d *Daemon) setWatchDirs(dirs []string) {
	d.watchMu.Lock()
	d.watchDirs = slices.Clone(dirs)
	d.watchMu.Unlock()
	select {
	case d.rewatch <- struct{}{}:
	default:
	}
}

// settle is how long the watcher waits, after a change, for the rest of
// an edit (editors and configuration managers write in several steps).
const settle = 100 * time.Millisecond

// retryAfter is how long the watcher waits before trying a refused
// configuration again when nothing changed meanwhile: a file may have been
// read half written.
const retryAfter = time.Second

// startWatch starts watching the configuration's directories before
// Start returns, so that no change made after it is missed, and runs the
// watch.
func (d *Daemon) startWatch() error {
	w, err := confwatch.New()
	if err != nil {
		return fmt.Errorf("cannot watch the configuration: %w", err)
	}
	d.setConfFiles(d.cfg.Policy.Files)
	d.rewatchDirs(w)
	go d.watch(w, d.confDigests())
	return nil
}

// rewatchDirs watches the directories of the configuration's files and
// their parents (so that a directory removed and made again is seen).
func (d *Daemon) rewatchDirs(w *confwatch.Watcher) {
	d.watchMu.Lock()
	dirs := slices.Clone(d.watchDirs)
	d.watchMu.Unlock()
	// A directory that cannot be watched now (removed) is watched
	// through its parent, and again once it is back.
	w.Set(dirs, true)
}

// watch reloads the configuration when its files change (last holds the
// digests of the files the running configuration was read from). It
// waits for edits to settle, and reloads when the contents of
// configuration files differ from those of the last try — so that
// editors' write-to-temporary-then-rename, truncate-and-write, and
// touch-only changes are all handled, a half-written file refused now is
// tried again once it is whole, and a change to another file of a
// watched directory reloads nothing. Each reload is logged with the
// configuration files that changed.
func (d *Daemon) watch(w *confwatch.Watcher, last map[string][32]byte) {
	defer close(d.watchDone)
	defer w.Close()
	changes := w.Changes(d.quit)
	var retry <-chan time.Time
	var refused string // the trigger of the refused reload retry tries again
	for {
		again := false
		select {
		case <-d.quit:
			return
		case <-d.rewatch:
			d.rewatchDirs(w)
			continue
		case err := <-w.Errors():
			d.cfg.Logf("watching the configuration: %v", err)
			continue
		case <-changes:
		case <-retry:
			again = true
		}
		if !confwatch.Settle(changes, d.quit, settle) {
			return
		}
		// A directory removed and made again lost its watch: take them
		// all again.
		w.Forget()
		d.rewatchDirs(w)
		now := d.confDigests()
		files := d.confChanges(last, now)
		last = now
		var trigger string
		switch {
		case len(files) > 0:
			trigger = strings.Join(files, ", ") + " changed"
		case again:
			trigger = refused + ", tried again"
		default:
			continue
		}
		retry = nil
		out := d.Reload(trigger)
		if !out.OK {
			retry = d.clk.After(retryAfter)
			refused = strings.TrimSuffix(trigger, ", tried again")
		}
		d.rewatchDirs(w)
	}
}

// setConfFiles tells the watcher which files the configuration was read
// from.
func (d *Daemon) setConfFiles(files []string) {
	set := map[string]bool{}
	for _, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			set[abs] = true
		}
	}
	d.watchMu.Lock()
	d.confFiles = set
	d.watchMu.Unlock()
}

// confChanges returns, sorted, the configuration files whose digests
// differ between before and after (made, changed or removed): files the
// running configuration was read from, and files named as a
// configuration's directory is read (lsb.queues, lsf.cluster.NAME ...:
// lang.KindOf knows their kind); not an editor's backup, notes, or any
// other file.
func (d *Daemon) confChanges(before, after map[string][32]byte) []string {
	d.watchMu.Lock()
	read := d.confFiles
	d.watchMu.Unlock()
	isConf := func(path string) bool {
		base := filepath.Base(path)
		return read[path] || lang.KindOf(base) != lang.KindUnknown
	}
	var out []string
	for path, sum := range after {
		if old, ok := before[path]; (!ok || old != sum) && isConf(path) {
			out = append(out, path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok && isConf(path) {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}

// confDigests digests the files of the watched directories: every
// regular file whose name does not start with a dot, by path.
func (d *Daemon) confDigests() map[string][32]byte {
	d.watchMu.Lock()
	dirs := slices.Clone(d.watchDirs)
	d.watchMu.Unlock()
	out := map[string][32]byte{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			f, err := os.Open(path)
			if err != nil {
				continue
			}
			h := sha256.New()
			io.Copy(h, io.LimitReader(f, 64<<20))
			f.Close()
			var sum [32]byte
			copy(sum[:], h.Sum(nil))
			out[path] = sum
		}
	}
	return out
}
