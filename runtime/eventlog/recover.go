package eventlog

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// A CorruptError is damage Open will not repair: a bad header, or a
// frame that is damaged or inconsistent where it cannot be a torn tail.
// Open changes nothing when it returns one.
type CorruptError struct {
	Path   string
	Offset int64 // where the damage starts
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s: offset %d: corrupt event log: %s", e.Path, e.Offset, e.Reason)
}

// A Recovery reports what Open found and what it repaired.
type Recovery struct {
	// Created is set when there was no log (no file, or an empty one)
	// and Open made an empty one.
	Created bool
	// Transactions is the number of transactions replayed; FirstSeq and
	// LastSeq are the first and last of their sequence numbers (zero
	// when there were none).
	Transactions int
	FirstSeq     uint64
	LastSeq      uint64
	// Size is the length of the file after recovery: where the next
	// transaction goes.
	Size int64
	// Truncated is set when the file ended in a torn transaction: it was
	// cut at TruncatedAt, the end of the last intact transaction,
	// dropping Dropped bytes, for the reason given.
	Truncated   bool
	TruncatedAt int64
	Dropped     int64
	Reason      string
	// ZeroTail is set, with Truncated, when the bytes dropped were all
	// zeros: space the writer had reserved past its last transaction
	// (which a crash leaves behind), or a tear that left none of a
	// transaction's bytes. No transaction was lost in them.
	ZeroTail bool
	// TornWrite is set, with Truncated, when the tail cut held intact
	// transactions after a hole of zeros: the last write, torn by a
	// crash during its sync (see the package documentation). Those
	// transactions, DroppedFirst to DroppedLast, were never
	// acknowledged, and are dropped with the hole.
	TornWrite    bool
	DroppedFirst uint64
	DroppedLast  uint64
	// RemovedTemp is set when a leftover lsb.events.tmp (a compaction or
	// creation that did not finish) was removed.
	RemovedTemp bool
}

const (
	// directRead is the largest frame body read into memory before its
	// checksum is known; larger ones are checked first, then read.
	directRead = 1 << 20
	// searchWindow is how much of the file the search for an intact
	// frame reads at a time.
	searchWindow = 64 << 10
)

// A scanner reads the frames of one file in order.
type scanner struct {
	f      *os.File
	path   string
	size   int64
	sealed int64
	replay func(seq uint64, records [][]byte) error
	rec    *Recovery
	buf    []byte // for checksums of frames not read into memory
}

// scan replays every intact frame after the header. It returns the end
// of the last one and, when damage after it is a torn tail, why the rest
// is not a transaction; any other damage is an error.
func (s *scanner) scan() (end int64, torn string, err error) {
	off := int64(headerSize)
	br := bufio.NewReaderSize(io.NewSectionReader(s.f, off, s.size-off), searchWindow)
	var hdr [frameHeaderSize]byte
	for off < s.size {
		var body []byte
		reason := ""
		rest := s.size - off
		l := int64(0)
		if rest < frameHeaderSize {
			reason = fmt.Sprintf("incomplete frame header (%d of %d bytes)", rest, frameHeaderSize)
		} else {
			if _, err := io.ReadFull(br, hdr[:]); err != nil {
				return 0, "", s.readErr(off, err)
			}
			l = int64(binary.LittleEndian.Uint32(hdr[0:]))
			switch {
			case l < minBody || l > MaxFrameSize:
				reason = fmt.Sprintf("frame length %d is out of range", l)
			case l > rest-frameHeaderSize:
				reason = fmt.Sprintf("frame of %d bytes runs %d bytes past the end of the file", l, l-(rest-frameHeaderSize))
			default:
				body, err = s.readBody(br, off, l, binary.LittleEndian.Uint32(hdr[4:]))
				if err != nil {
					return 0, "", err
				}
				if body == nil {
					reason = fmt.Sprintf("checksum mismatch in frame of %d bytes", l)
				}
			}
		}
		if reason != "" {
			torn, err := s.damaged(off, l, reason)
			return off, torn, err
		}
		seq, records, bad := decodeBody(body)
		if bad != "" {
			return 0, "", &CorruptError{s.path, off, "malformed transaction: " + bad}
		}
		if s.rec.Transactions > 0 && seq != s.rec.LastSeq+1 {
			return 0, "", &CorruptError{s.path, off, fmt.Sprintf("sequence number %d does not follow %d", seq, s.rec.LastSeq)}
		}
		if s.replay != nil {
			if err := s.replay(seq, records); err != nil {
				return 0, "", fmt.Errorf("%s: offset %d: replay of transaction %d: %w", s.path, off, seq, err)
			}
		}
		if s.rec.Transactions == 0 {
			s.rec.FirstSeq = seq
		}
		s.rec.Transactions++
		s.rec.LastSeq = seq
		off += frameHeaderSize + l
	}
	return off, "", nil
}

// readBody reads the body of the frame at off, of length l, from br. It
// returns nil if the body does not match sum.
func (s *scanner) readBody(br *bufio.Reader, off, l int64, sum uint32) ([]byte, error) {
	if l <= directRead {
		body := make([]byte, l)
		if _, err := io.ReadFull(br, body); err != nil {
			return nil, s.readErr(off, err)
		}
		if checksum(body) != sum {
			return nil, nil
		}
		return body, nil
	}
	crc := uint32(0)
	for left := l; left > 0; {
		b := s.scratch()[:min(left, searchWindow)]
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, s.readErr(off, err)
		}
		crc = updateChecksum(crc, b)
		left -= int64(len(b))
	}
	if crc != sum {
		return nil, nil
	}
	body := make([]byte, l)
	if _, err := s.f.ReadAt(body, off+frameHeaderSize); err != nil {
		return nil, s.readErr(off, err)
	}
	return body, nil
}

// damaged decides whether damage at off is a torn tail, and returns
// why, or corruption (a *CorruptError). l is the frame length read at
// off, when there was a whole frame header.
func (s *scanner) damaged(off, l int64, reason string) (string, error) {
	if off < s.sealed {
		return "", &CorruptError{s.path, off, fmt.Sprintf("%s, below the sealed length %d", reason, s.sealed)}
	}
	after, at, err := s.findIntact(off)
	if err != nil {
		return "", err
	}
	if after == "" {
		return reason, nil
	}
	hole, err := s.zeroHole(off, l)
	if err != nil {
		return "", err
	}
	if hole == "" || at < 0 {
		return "", &CorruptError{s.path, off, reason + ", " + after}
	}
	last, err := lastNonZero(s.f, at, s.size)
	if err != nil {
		return "", s.readErr(at, err)
	}
	if last-off > maxPending {
		return "", &CorruptError{s.path, off, fmt.Sprintf("%s (%s), %s, and data up to offset %d: more than one write holds", reason, hole, after, last)}
	}
	first, n, err := s.chain(at)
	if err != nil {
		return "", err
	}
	s.rec.TornWrite = true
	s.rec.DroppedFirst, s.rec.DroppedLast = first, first+uint64(n)-1
	return fmt.Sprintf("%s (%s) in the last write, which a crash tore: %d intact transactions after it (%d to %d), never acknowledged, were dropped with it",
		reason, hole, n, first, first+uint64(n)-1), nil
}

// sectorSize is the smallest unit a disk writes: after a crash, each
// sector of a write that was in flight holds its new bytes or its old ones.
const sectorSize = 512

// zeroHole reports whether the frame at off, of length l (0 when its
// length field reads 0), is damaged the way a write cut short by a crash
// damages it: sectors of it left as zeros, the file's bytes before they
// were written. It describes the hole it found, or returns "".
//
// A frame's length is never 0, so a frame that starts with a zero length
// is a hole when the zeros run on to the end of its sector. A frame whose
// length was written but whose checksum fails is a hole when one of its
// sectors after its first is zeros (up to the frame's end, if that comes
// first).
func (s *scanner) zeroHole(off, l int64) (string, error) {
	sectorEnd := func(p int64) int64 { return (p/sectorSize + 1) * sectorSize }
	if l == 0 {
		if off+4 > s.size {
			return "", nil
		}
		end := max(min(sectorEnd(off), s.size), off+4)
		zero, err := allZero(s.f, off, end)
		if err != nil {
			return "", s.readErr(off, err)
		}
		if !zero {
			return "", nil
		}
		return fmt.Sprintf("zeros from offset %d to %d", off, end), nil
	}
	end := off + frameHeaderSize + l
	if l < minBody || l > MaxFrameSize || end > s.size {
		return "", nil
	}
	for p := sectorEnd(off); p < end; p += sectorSize {
		e := min(p+sectorSize, end)
		zero, err := allZero(s.f, p, e)
		if err != nil {
			return "", s.readErr(p, err)
		}
		if zero {
			return fmt.Sprintf("zeros from offset %d to %d inside the frame", p, e), nil
		}
	}
	return "", nil
}

// chain counts the intact frames that follow each other from at, the
// first of which is intact, and returns the first's sequence number.
func (s *scanner) chain(at int64) (first uint64, n int, err error) {
	var hdr [minFrame]byte
	for p := at; p+minFrame <= s.size; {
		if _, err := s.f.ReadAt(hdr[:], p); err != nil {
			return 0, 0, s.readErr(p, err)
		}
		l := int64(binary.LittleEndian.Uint32(hdr[0:]))
		seq := binary.LittleEndian.Uint64(hdr[8:])
		if l < minBody || l > MaxFrameSize || l > s.size-p-frameHeaderSize || (n > 0 && seq != first+uint64(n)) {
			break
		}
		ok, err := s.checksumAt(p+frameHeaderSize, l, binary.LittleEndian.Uint32(hdr[4:]))
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			break
		}
		if n == 0 {
			first = seq
		}
		n++
		p += frameHeaderSize + l
	}
	return first, n, nil
}

// findIntact looks for an intact frame starting after the damage at
// off whose sequence number could follow the frames replayed so far, and
// says where it found one. It tries every offset; the length, record
// count and sequence number rule out almost all of them before a
// checksum is computed. The bytes it checksums are bounded by a budget
// proportional to the rest of the file, so that data crafted to look like
// frames at every offset cannot make it quadratic; past the budget it
// gives up and calls the damage corruption.
func (s *scanner) findIntact(damage int64) (string, int64, error) {
	budget := 2*(s.size-damage) + 64<<20
	buf := make([]byte, searchWindow+minFrame-1)
	for base := damage + 1; base+minFrame <= s.size; base += searchWindow {
		n := min(int64(len(buf)), s.size-base)
		if _, err := s.f.ReadAt(buf[:n], base); err != nil {
			return "", 0, s.readErr(base, err)
		}
		for i := int64(0); i < searchWindow && i+minFrame <= n; i++ {
			p := base + i
			c := buf[i : i+minFrame]
			l := int64(binary.LittleEndian.Uint32(c))
			if l < minBody || l > MaxFrameSize || l > s.size-p-frameHeaderSize {
				continue
			}
			if int64(binary.LittleEndian.Uint32(c[16:])) > (l-minBody)/recordPrefix {
				continue
			}
			seq := binary.LittleEndian.Uint64(c[8:])
			if s.rec.Transactions > 0 {
				// Every frame between the damage and p takes at least
				// minFrame bytes.
				if seq <= s.rec.LastSeq || seq-s.rec.LastSeq > 2+uint64((p-damage)/minFrame) {
					continue
				}
			}
			if budget -= l; budget < 0 {
				return fmt.Sprintf("followed by too many frame-like candidates to rule out an intact frame (gave up at offset %d)", p), -1, nil
			}
			sum := binary.LittleEndian.Uint32(c[4:])
			ok := false
			if i+frameHeaderSize+l <= n {
				ok = checksum(buf[i+frameHeaderSize:i+frameHeaderSize+l]) == sum
			} else {
				var err error
				if ok, err = s.checksumAt(p+frameHeaderSize, l, sum); err != nil {
					return "", 0, err
				}
			}
			if ok {
				return fmt.Sprintf("followed by an intact frame with sequence number %d at offset %d", seq, p), p, nil
			}
		}
	}
	return "", 0, nil
}

// checksumAt reports whether the l bytes at off match sum.
func (s *scanner) checksumAt(off, l int64, sum uint32) (bool, error) {
	crc := uint32(0)
	for done := int64(0); done < l; {
		b := s.scratch()[:min(l-done, searchWindow)]
		if _, err := s.f.ReadAt(b, off+done); err != nil {
			return false, s.readErr(off+done, err)
		}
		crc = updateChecksum(crc, b)
		done += int64(len(b))
	}
	return crc == sum, nil
}

func (s *scanner) scratch() []byte {
	if s.buf == nil {
		s.buf = make([]byte, searchWindow)
	}
	return s.buf
}

func (s *scanner) readErr(off int64, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%s: offset %d: file shrank while being read", s.path, off)
	}
	return fmt.Errorf("%s: offset %d: %w", s.path, off, err)
}

// allZero reports whether the bytes of f from off to end are all zeros.
func allZero(f *os.File, off, end int64) (bool, error) {
	buf := make([]byte, min(end-off, searchWindow))
	for off < end {
		b := buf[:min(int64(len(buf)), end-off)]
		if _, err := f.ReadAt(b, off); err != nil {
			return false, err
		}
		for _, c := range b {
			if c != 0 {
				return false, nil
			}
		}
		off += int64(len(b))
	}
	return true, nil
}

// lastNonZero returns the offset after the last byte of f before end
// that is not zero, or off if there is none from off on.
func lastNonZero(f *os.File, off, end int64) (int64, error) {
	buf := make([]byte, min(end-off, searchWindow))
	for end > off {
		b := buf[:min(int64(len(buf)), end-off)]
		if _, err := f.ReadAt(b, end-int64(len(b))); err != nil {
			return 0, err
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] != 0 {
				return end - int64(len(b)) + int64(i) + 1, nil
			}
		}
		end -= int64(len(b))
	}
	return off, nil
}
