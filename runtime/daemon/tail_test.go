package daemon_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/eventlog"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// logFrames returns the offsets of the frames of an event log, and the
// end of the last one (see the framing in runtime/eventlog).
func logFrames(t *testing.T, data []byte) []int {
	t.Helper()
	var offs []int
	for off := 24; off < len(data); {
		offs = append(offs, off)
		off += 8 + int(binary.LittleEndian.Uint32(data[off:]))
	}
	return append(offs, len(data))
}

// TestFinishedRunsOnce damages the tail of a log whose last record is the
// finish of a job that is not rerunnable, in every way confined to its
// last three frames: each byte flipped, and the file cut at each offset.
// The log is that of one job (its submission, start and finish are the
// last three frames), or of three jobs that end one after the other (the
// last three frames are their finishes). Whatever the damage, no job
// starts again: the daemon either finds their ends again (from the status
// files the executor keeps until a compaction seals the finishes) or
// refuses to start with a message saying the log lost transactions. Each
// damaged log is first read by the event log alone, which either refuses
// it or cuts it at a frame's end; a daemon then starts once on each
// outcome.
func TestFinishedRunsOnce(t *testing.T) {
	t.Run("one job", func(t *testing.T) { finishedRunsOnce(t, 1) })
	t.Run("three finishes", func(t *testing.T) { finishedRunsOnce(t, 3) })
}

func finishedRunsOnce(t *testing.T, jobs int) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func(dir string) (*daemon.Daemon, error) {
		return daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: dir, MinInterval: 5 * time.Millisecond,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	}
	state := t.TempDir()
	ran := t.TempDir()
	d, err := start(state)
	if err != nil {
		t.Fatal(err)
	}
	c := unixClient(state)
	var ids []int64
	release := t.TempDir()
	for i := range jobs {
		// Each ends when the test releases it, once all have started,
		// and the next only once its end is logged: each end is a
		// transaction of its own, one after the other.
		cmd := fmt.Sprintf("echo ran >> %s/%d; until [ -e %s/%d ]; do sleep 0.02; done; exit %d", ran, i, release, i, 3+i)
		ids = append(ids, c.submit(t, api.SubmitRequest{Command: cmd, Cwd: t.TempDir(), Stdout: "/dev/null"}).ID)
	}
	for _, id := range ids {
		c.waitState(t, id, "RUN")
	}
	for i, id := range ids {
		if err := os.WriteFile(filepath.Join(release, strconv.Itoa(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		c.waitState(t, id, "EXIT")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(filepath.Join(state, "lsb.events"))
	if err != nil {
		t.Fatal(err)
	}
	frames := logFrames(t, full)
	if len(frames) < 4 {
		t.Fatalf("log has %d frames, want at least 3", len(frames)-1)
	}
	// The first record of each of the last frames (of three jobs: each
	// of the last three) is a finish, of the last job for the last one.
	for k := 1; k <= jobs; k++ {
		f := frames[len(frames)-1-k]
		n := int(binary.LittleEndian.Uint32(full[f+8+12:]))
		first := full[f+8+12+4 : f+8+12+4+n]
		rec, err := daemon.DecodeRecord(first)
		if err != nil || rec.Type != daemon.KindFinish || rec.Job != ids[jobs-k] {
			t.Fatalf("the first record of the log's frame %d from the end is %s (%v), want the finish of job %d", k, first, err, ids[jobs-k])
		}
	}

	// Every damage, read by the event log alone: refused, or cut.
	type outcome struct {
		size    int    // the length of the log after recovery, 0 if refused
		damaged []byte // one damaged log of this outcome
		count   int
	}
	outcomes := map[int]*outcome{}
	// Thousands of opens, each syncing what it cuts: in memory where the
	// machine has a tmpfs.
	dir := t.TempDir()
	if shm, err := os.MkdirTemp("/dev/shm", "lsfc-tail"); err == nil {
		dir = shm
		t.Cleanup(func() { os.RemoveAll(shm) })
	}
	path := filepath.Join(dir, "lsb.events")
	try := func(data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		size := 0
		l, rec, err := eventlog.Open(path, eventlog.Options{Existing: true})
		var corrupt *eventlog.CorruptError
		switch {
		case errors.As(err, &corrupt):
		case err != nil:
			t.Fatalf("damaged log: %v", err)
		default:
			size = int(rec.Size)
			l.Close()
		}
		o := outcomes[size]
		if o == nil {
			o = &outcome{size: size, damaged: slices.Clone(data)}
			outcomes[size] = o
		}
		o.count++
	}
	first := frames[len(frames)-4]
	damages := 0
	for off := first; off < len(full); off++ {
		flipped := slices.Clone(full)
		flipped[off] ^= 0xff
		try(flipped)
		try(full[:off])
		damages += 2
	}

	// A daemon on each outcome, with the jobs' files as they were.
	runs := 0
	for _, size := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[size]
		st := t.TempDir()
		copyTree(t, filepath.Join(state, "jobs"), filepath.Join(st, "jobs"))
		log := o.damaged
		if size > 0 {
			log = full[:size]
		}
		if err := os.WriteFile(filepath.Join(st, "lsb.events"), log, 0o600); err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("log cut at %d", size)
		if size == 0 {
			what = "log refused as corrupt"
		}
		d, err := start(st)
		if err != nil {
			msg := err.Error()
			if size == 0 && !strings.Contains(msg, "corrupt event log") ||
				size > 0 && !strings.Contains(msg, "has lost transactions") {
				t.Errorf("%s (%d damages): Start refused with %q, want a message saying the log is corrupt or lost transactions", what, o.count, msg)
			}
			t.Logf("%s (%d damages): the daemon refuses to start: %v", what, o.count, err)
			continue
		}
		runs++
		c := unixClient(st)
		// Cycles run meanwhile: a job wrongly pending would start.
		time.Sleep(100 * time.Millisecond)
		for i, id := range ids {
			j := c.job(t, id)
			if j.State != "EXIT" || j.ExitCode != 3+i {
				t.Errorf("%s (%d damages): job %d is %s %d, want EXIT %d as it ended", what, o.count, id, j.State, j.ExitCode, 3+i)
			}
		}
		d.Close()
		t.Logf("%s (%d damages): the daemon finds every job's end", what, o.count)
	}
	if runs == 0 {
		t.Error("no damage left the daemon a log to start on")
	}
	for i, id := range ids {
		data, err := os.ReadFile(filepath.Join(ran, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(data, []byte("ran")); n != 1 {
			t.Errorf("job %d ran %d times after %d damages, want once", id, n, damages)
		}
	}
	t.Logf("%d damages, %d outcomes: the jobs' ends found again on %d, the daemon refused to start on the others", damages, len(outcomes), runs)
}

// copyTree copies the regular files of directory from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
