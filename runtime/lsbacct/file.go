package lsbacct

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/lsfc/lsfc/internal/fsync"
)

// LogDir is the directory of lsb.acct under LSB_SHAREDIR/<cluster>, the
// daemon's state directory.
const LogDir = "logdir"

// FileName is the name of the accounting file in its directory; its
// archives are FileName.1 (the newest), FileName.2, and so on.
const FileName = "lsb.acct"

// Archive says when a Log archives its file, as lsb.params's
// ACCT_ARCHIVE_* keys do; the zero value never archives.
type Archive struct {
	// Age archives the file once its first record is this old.
	Age time.Duration
	// Size archives the file once it holds this many bytes.
	Size int64
	// Time archives the file every day at this many minutes after
	// midnight (local time); -1 or Set false for none.
	Time    int
	TimeSet bool
	// Keep is how many archives are kept; the older are deleted. 0 keeps
	// all.
	Keep int
}

// A Log appends records to the lsb.acct file of a directory and archives
// the file as Archive says. It is not safe for concurrent use.
type Log struct {
	dir   string
	opts  Archive
	now   func() time.Time
	f     *os.File
	size  int64
	first time.Time // time of the file's first record; zero when empty
	buf   []byte
}

// OpenLog opens (creating it and its directory if needed) the lsb.acct
// file of dir for appending. A last line without its newline — a write
// cut short by a crash — is cut off: the record it began was never
// complete, and whoever wrote it writes it again (see Recent). now gives
// the time the archiving conditions are checked against (nil: the real
// clock).
func OpenLog(dir string, opts Archive, now func() time.Time) (*Log, error) {
	if now == nil {
		now = time.Now
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l := &Log{dir: dir, opts: opts, now: now}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// Path is the log's current file.
func (l *Log) Path() string { return filepath.Join(l.dir, FileName) }

func (l *Log) open() error {
	_, statErr := os.Stat(l.Path())
	f, err := os.OpenFile(l.Path(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// The new file's name is durable before records go in it.
		if err := syncDir(l.dir); err != nil {
			f.Close()
			return err
		}
	}
	size, err := cutTorn(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", l.Path(), err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	l.f, l.size, l.first = f, size, time.Time{}
	if size > 0 {
		l.first = firstRecordTime(f, l.now())
	}
	return nil
}

// cutTorn truncates f after its last newline and returns its size.
func cutTorn(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	end := size
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if n > end {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	if end == size {
		return size, nil
	}
	if err := f.Truncate(end); err != nil {
		return 0, err
	}
	return end, f.Sync()
}

// firstRecordTime returns the event time of the file's first record, or
// def when it has none.
func firstRecordTime(f *os.File, def time.Time) time.Time {
	s := NewScanner(io.NewSectionReader(f, 0, 1<<62), "")
	if s.Scan() {
		return time.Unix(s.Record().EventTime, 0)
	}
	return def
}

// Append writes records at the end of the file, in one write, and waits
// until they are on disk. The file is archived first when Archive says it
// is due.
func (l *Log) Append(recs []*Record) error {
	if len(recs) == 0 {
		return nil
	}
	if err := l.maybeArchive(); err != nil {
		return err
	}
	l.buf = l.buf[:0]
	for _, r := range recs {
		l.buf = Append(l.buf, r)
	}
	n, err := l.f.Write(l.buf)
	l.size += int64(n)
	if err != nil {
		return err
	}
	if l.first.IsZero() {
		l.first = l.now()
	}
	return fsync.DataSync(l.f)
}

// due reports whether the current file is to be archived now.
func (l *Log) due() bool {
	if l.size == 0 {
		return false
	}
	now := l.now()
	o := l.opts
	switch {
	case o.Size > 0 && l.size >= o.Size:
		return true
	case o.Age > 0 && now.Sub(l.first) >= o.Age:
		return true
	case o.TimeSet && o.Time >= 0:
		// The last time of day at o.Time not after now.
		y, m, d := now.Date()
		at := time.Date(y, m, d, o.Time/60, o.Time%60, 0, 0, now.Location())
		if at.After(now) {
			at = at.AddDate(0, 0, -1)
		}
		return l.first.Before(at)
	}
	return false
}

func (l *Log) maybeArchive() error {
	if !l.due() {
		return nil
	}
	return l.archive()
}

// archive renames lsb.acct.N to lsb.acct.N+1 from the oldest on, lsb.acct
// to lsb.acct.1, deletes the archives past Keep, and starts a new file.
func (l *Log) archive() error {
	if err := l.f.Close(); err != nil {
		return err
	}
	l.f = nil
	n := 0
	for {
		if _, err := os.Stat(l.archiveName(n + 1)); err != nil {
			break
		}
		n++
	}
	for i := n; i >= 1; i-- {
		if l.opts.Keep > 0 && i+1 > l.opts.Keep {
			if err := os.Remove(l.archiveName(i)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		}
		if err := os.Rename(l.archiveName(i), l.archiveName(i+1)); err != nil {
			return err
		}
	}
	if err := os.Rename(l.Path(), l.archiveName(1)); err != nil {
		return err
	}
	if err := syncDir(l.dir); err != nil {
		return err
	}
	return l.open()
}

func (l *Log) archiveName(i int) string { return l.Path() + "." + strconv.Itoa(i) }

// Close closes the file.
func (l *Log) Close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// A Key names a record: its job (and array index) and its event time.
type Key struct {
	JobID, Idx int64
	EventTime  int64
}

// KeyOf returns the key of r.
func KeyOf(r *Record) Key { return Key{r.JobID, r.Idx, r.EventTime} }

// Recent returns the keys of the records of dir's lsb.acct, and of its
// archives as far as needed, whose event time is since or later: the file
// is read from its end, records being appended in time order, so that
// this costs the recent records, not the whole file. Bad lines are
// skipped.
func Recent(dir string, since int64) (map[Key]bool, error) {
	out := map[Key]bool{}
	for i := 0; ; i++ {
		name := filepath.Join(dir, FileName)
		if i > 0 {
			name += "." + strconv.Itoa(i)
		}
		done, err := recentIn(name, since, out)
		if errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		if err != nil || done {
			return out, err
		}
	}
}

// recentIn adds the keys of the file's records since the time to out and
// reports whether it met an older record.
func recentIn(name string, since int64, out map[Key]bool) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	size := st.Size()
	var d decoder
	for chunk := int64(256 << 10); ; chunk *= 4 {
		start := max(size-chunk, 0)
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return false, err
		}
		if start > 0 {
			// The first line may begin before the chunk.
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				continue
			}
			buf = buf[i+1:]
		}
		older := false
		for _, line := range bytes.Split(buf, []byte{'\n'}) {
			var r Record
			if typ, err := d.decode(trimLine(string(line)), &r); err != nil || typ != "JOB_FINISH" {
				continue
			}
			if r.EventTime < since {
				older = true
				continue
			}
			out[KeyOf(&r)] = true
		}
		if older || start == 0 {
			return older, nil
		}
	}
}
