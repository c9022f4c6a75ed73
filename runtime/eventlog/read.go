package eventlog

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// Read reads the log file at path without changing it, calling fn for
// each intact transaction in order, as Open's replay would. It stops,
// without an error, at the first frame that is not intact: the end of the
// file, or a transaction being appended while it reads (a damaged file is
// Open's to report). It is meant for a reader beside the Log that owns the
// file; a compaction that replaces the file while Read runs does not
// disturb it, as it goes on reading the file it opened.
func Read(path string, fn func(seq uint64, records [][]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	br := bufio.NewReaderSize(f, searchWindow)
	h := make([]byte, headerSize)
	if _, err := io.ReadFull(br, h); err != nil {
		return fmt.Errorf("%s: incomplete header: %w", path, err)
	}
	if _, off, reason := decodeHeader(h); reason != "" {
		return &CorruptError{path, off, reason}
	}
	var hdr [frameHeaderSize]byte
	off := int64(headerSize)
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil
		}
		l := int64(binary.LittleEndian.Uint32(hdr[0:]))
		if l < minBody || l > MaxFrameSize || l > size-off-frameHeaderSize {
			// Out of range, or past the end of the file as it was when
			// opened: nothing is allocated for it.
			return nil
		}
		off += frameHeaderSize + l
		body := make([]byte, l)
		if _, err := io.ReadFull(br, body); err != nil {
			return nil
		}
		if checksum(body) != binary.LittleEndian.Uint32(hdr[4:]) {
			return nil
		}
		seq, records, bad := decodeBody(body)
		if bad != "" {
			return nil
		}
		if err := fn(seq, records); err != nil {
			return err
		}
	}
}
