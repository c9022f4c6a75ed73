package eventlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// A Mark is a point in a log: just after the last transaction appended
// when it was taken. A compaction at a later point makes it stale: the
// transactions after it are no longer all in the log. The zero Mark
// belongs to no log.
type Mark struct {
	l   *Log
	gen uint64
	seq uint64
	off int64
}

// Seq returns the sequence number of the last transaction before the
// mark, 0 if there is none.
func (m Mark) Seq() uint64 { return m.seq }

// Mark returns the point after the last transaction appended so far.
func (l *Log) Mark() Mark {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Mark{l: l, gen: l.gen, seq: l.lastSeq, off: l.tail}
}

// Compact replaces the log with one whose first transaction is snapshot.
// The snapshot must reflect every transaction whose Append returned
// before the call; transactions appended while Compact runs follow it in
// the new file. It is CompactAt with the Mark taken at the call.
func (l *Log) Compact(snapshot [][]byte) error {
	return l.CompactAt(l.Mark(), snapshot)
}

// CompactAt replaces the log with one whose first transaction is
// snapshot, numbered m.Seq(), followed by the transactions appended after
// m. The snapshot must reflect exactly the transactions up to m, so a
// caller can take the mark together with its state, under its own lock,
// and write the snapshot without holding it.
//
// The snapshot is written and synced under a temporary name while
// appends go on; the writer then copies the transactions after m, syncs,
// renames the file over the log and syncs the directory. Appends are
// neither blocked nor lost. On failure before the rename the log is
// unchanged and still usable; a failure to sync the directory after it
// stops the log like a failed write. One compaction runs at a time; one
// that waited for another still runs if its mark is not stale.
func (l *Log) CompactAt(m Mark, snapshot [][]byte) error {
	l.compactMu.Lock()
	defer l.compactMu.Unlock()
	return l.compact(m, snapshot)
}

// A switchReq asks the writer to finish a compaction.
type switchReq struct {
	mark   Mark
	tmp    *os.File
	size   int64 // bytes written to tmp
	result chan error
}

// compact writes the snapshot under the temporary name and hands the
// file to the writer to finish and put in place.
func (l *Log) compact(m Mark, snapshot [][]byte) error {
	body, err := bodySize(snapshot)
	if err != nil {
		return fmt.Errorf("%s: snapshot: %w", l.path, err)
	}
	l.mu.Lock()
	m, err = l.usableLocked(m)
	l.mu.Unlock()
	if err != nil {
		return err
	}
	st, err := os.Stat(l.path)
	if err != nil {
		return err
	}
	tmpPath := l.path + tempSuffix
	tmp, err := os.OpenFile(tmpPath, os.O_RDWR|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	err = tmp.Chmod(st.Mode().Perm())
	if err == nil {
		err = writeSnapshot(tmp, m.seq, snapshot, body)
	}
	sw := &switchReq{mark: m, tmp: tmp, size: headerSize + frameHeaderSize + int64(body), result: make(chan error, 1)}
	if err == nil {
		l.mu.Lock()
		if m, err = l.usableLocked(m); err == nil {
			sw.mark = m
			l.sw = sw
			l.work.Signal()
		}
		l.mu.Unlock()
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmpPath)
		return err
	}
	return <-sw.result
}

// A move says where the transactions a compaction carried over went: a
// frame at offset off >= from in file gen is at off+delta in file gen+1.
type move struct {
	gen   uint64
	from  int64
	delta int64
}

// maxMoves is how many compactions back a mark can be carried.
const maxMoves = 8

// usableLocked returns m carried over to the current file, or why the
// log cannot be compacted at m.
func (l *Log) usableLocked(m Mark) (Mark, error) {
	switch {
	case l.closing:
		return m, fmt.Errorf("%s: %w", l.path, ErrClosed)
	case l.err != nil:
		return m, l.err
	case m.l != l:
		return m, fmt.Errorf("%s: compaction mark is not from this log", l.path)
	}
	for _, mv := range l.moves {
		if mv.gen == m.gen && m.off >= mv.from {
			m.gen, m.off = m.gen+1, m.off+mv.delta
		}
	}
	if m.gen != l.gen {
		return m, fmt.Errorf("%s: compaction mark (sequence number %d) is stale: the log was compacted at a later point", l.path, m.seq)
	}
	return m, nil
}

// writeSnapshot writes a header, whose sealed length switchFile fills
// in, and the snapshot frame to f, and syncs it.
func writeSnapshot(f *os.File, seq uint64, snapshot [][]byte, body int) error {
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(encodeHeader(headerSize))
	if err := writeFrame(w, seq, snapshot, body); err != nil {
		return err
	}
	return f.Sync()
}

// switchFile runs in the writer, with every group appended before the
// request written: it completes the new file with the transactions after
// the mark and puts it in place of the log.
func (l *Log) switchFile(sw *switchReq) error {
	tmpPath := l.path + tempSuffix
	installed := false
	defer func() {
		if !installed {
			sw.tmp.Close()
			os.Remove(tmpPath)
		}
	}()
	l.mu.Lock()
	err := l.err
	if err == nil && sw.mark.gen != l.gen {
		err = fmt.Errorf("%s: compaction mark (sequence number %d) is stale: the log was compacted after it was taken", l.path, sw.mark.seq)
	}
	l.mu.Unlock()
	if err != nil {
		return err
	}
	carried := l.size - sw.mark.off
	if carried < 0 || sw.mark.off < headerSize {
		return fmt.Errorf("%s: compaction mark at offset %d is outside the %d bytes written", l.path, sw.mark.off, l.size)
	}
	if _, err := io.Copy(sw.tmp, io.NewSectionReader(l.f, sw.mark.off, carried)); err != nil {
		return fmt.Errorf("%s: copying %d bytes from offset %d to %s: %w", l.path, carried, sw.mark.off, tmpPath, err)
	}
	size := sw.size + carried
	if _, err := sw.tmp.WriteAt(encodeHeader(size), 0); err != nil {
		return err
	}
	if err := sw.tmp.Sync(); err != nil {
		return err
	}
	if l.opts.KeepPrevious {
		prev := l.path + previousSuffix
		if err := os.Remove(prev); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.Link(l.path, prev); err != nil {
			return err
		}
	}
	if err := os.Rename(tmpPath, l.path); err != nil {
		return err
	}
	installed = true
	dirErr := syncDir(filepath.Dir(l.path))
	// The replaced file (lsb.events.1) keeps its transactions, not the
	// zeros reserved past them.
	l.unreserve()
	old := l.f
	l.f, l.size, l.reserved, l.noReserve = sw.tmp, size, size, 0
	l.mu.Lock()
	l.moves = append(l.moves, move{gen: l.gen, from: sw.mark.off, delta: sw.size - sw.mark.off})
	if len(l.moves) > maxMoves {
		l.moves = slices.Delete(l.moves, 0, 1)
	}
	l.gen++
	l.tail = size + int64(len(l.pending))
	l.stats.Compactions++
	l.stats.Size = size
	if dirErr != nil {
		dirErr = fmt.Errorf("%s: compaction: %w", l.path, dirErr)
		if l.err == nil {
			l.err = dirErr
		}
		l.space.Broadcast()
	}
	l.mu.Unlock()
	old.Close()
	return dirErr
}
