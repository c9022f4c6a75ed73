package lsbacct

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func recordAt(id, t int64) *Record {
	r := sample()
	r.JobID, r.EventTime = id, t
	return r
}

// jobsIn returns the job ids of a file's records, in order.
func jobsIn(t *testing.T, path string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewScanner(f, path)
	var ids []int64
	for s.Scan() {
		ids = append(ids, s.Record().JobID)
	}
	if s.NumProblems() > 0 || s.Err() != nil {
		t.Fatalf("%s: %v %v", path, s.Problems(), s.Err())
	}
	return ids
}

func TestLogArchiveSize(t *testing.T) {
	dir := t.TempDir()
	size := int64(len(Append(nil, recordAt(1, 100))))
	l, err := OpenLog(dir, Archive{Size: 2 * size, Keep: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= 7; id++ {
		if err := l.Append([]*Record{recordAt(id, 100+id)}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	// Two records fill a file; the third goes to a new one. Two archives
	// are kept: the oldest (jobs 1 and 2) is deleted.
	for name, want := range map[string][]int64{"lsb.acct": {7}, "lsb.acct.1": {5, 6}, "lsb.acct.2": {3, 4}} {
		if got := jobsIn(t, filepath.Join(dir, name)); !slices.Equal(got, want) {
			t.Errorf("%s holds jobs %v, want %v", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lsb.acct.3")); err == nil {
		t.Error("lsb.acct.3 kept past MAX_ACCT_ARCHIVE_FILE=2")
	}
}

func TestLogArchiveAgeAndTime(t *testing.T) {
	now := time.Date(2026, 3, 1, 1, 0, 0, 0, time.Local)
	clock := func() time.Time { return now }
	dir := t.TempDir()
	l, err := OpenLog(dir, Archive{Age: 48 * time.Hour}, clock)
	if err != nil {
		t.Fatal(err)
	}
	l.Append([]*Record{recordAt(1, now.Unix())})
	now = now.Add(47 * time.Hour)
	l.Append([]*Record{recordAt(2, now.Unix())})
	now = now.Add(time.Hour)
	l.Append([]*Record{recordAt(3, now.Unix())})
	l.Close()
	if got := jobsIn(t, filepath.Join(dir, "lsb.acct.1")); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("ACCT_ARCHIVE_AGE=2: lsb.acct.1 holds %v, want [1 2]", got)
	}

	// ACCT_ARCHIVE_TIME=02:30: the file begun at 01:00 is archived at the
	// first write after 02:30, and its successor the next day.
	dir = t.TempDir()
	now = time.Date(2026, 3, 1, 1, 0, 0, 0, time.Local)
	l, err = OpenLog(dir, Archive{Time: 150, TimeSet: true}, clock)
	if err != nil {
		t.Fatal(err)
	}
	for id, at := range []time.Duration{0, time.Hour, 2 * time.Hour, 20 * time.Hour, 26 * time.Hour} {
		now = time.Date(2026, 3, 1, 1, 0, 0, 0, time.Local).Add(at)
		l.Append([]*Record{recordAt(int64(id+1), now.Unix())})
	}
	l.Close()
	for name, want := range map[string][]int64{"lsb.acct.2": {1, 2}, "lsb.acct.1": {3, 4}, "lsb.acct": {5}} {
		if got := jobsIn(t, filepath.Join(dir, name)); !slices.Equal(got, want) {
			t.Errorf("ACCT_ARCHIVE_TIME: %s holds jobs %v, want %v", name, got, want)
		}
	}
}

// TestLogTornLine: a record cut short by a crash is cut off when the file
// is opened again, and Recent tells which records are complete.
func TestLogTornLine(t *testing.T) {
	dir := t.TempDir()
	l, err := OpenLog(dir, Archive{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Append([]*Record{recordAt(1, 100), recordAt(2, 200)})
	l.Close()
	path := filepath.Join(dir, FileName)
	half := Append(nil, recordAt(3, 300))
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(half[:len(half)/2])
	f.Close()
	l, err = OpenLog(dir, Archive{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := Recent(dir, 150)
	if err != nil {
		t.Fatal(err)
	}
	if !keys[Key{2, 0, 200}] || keys[Key{1, 0, 100}] || len(keys) != 1 {
		t.Errorf("Recent(150) = %v, want job 2 only", keys)
	}
	l.Append([]*Record{recordAt(3, 300)})
	l.Close()
	if got := jobsIn(t, path); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("after the torn line: jobs %v, want [1 2 3]", got)
	}
	b, _ := os.ReadFile(path)
	if strings.Count(string(b), "\n") != 3 {
		t.Errorf("file holds %d lines, want 3", strings.Count(string(b), "\n"))
	}
}

// TestRecentReadsArchives: records since a time may be in an archive.
func TestRecentReadsArchives(t *testing.T) {
	dir := t.TempDir()
	size := int64(len(Append(nil, recordAt(1, 100))))
	l, _ := OpenLog(dir, Archive{Size: 3 * size}, nil)
	for id := int64(1); id <= 7; id++ {
		l.Append([]*Record{recordAt(id, 100*id)})
	}
	l.Close()
	keys, err := Recent(dir, 200)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for k := range keys {
		ids = append(ids, k.JobID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []int64{2, 3, 4, 5, 6, 7}) {
		t.Errorf("Recent(200) = jobs %v, want 2 to 7", ids)
	}
}
