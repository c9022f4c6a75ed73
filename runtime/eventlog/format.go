package eventlog

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

const (
	// MaxRecordSize is the largest record a transaction may hold.
	MaxRecordSize = 16 << 20
	// MaxFrameSize is the largest frame body: the sequence number, the
	// record count and the length-prefixed records of one transaction.
	// It bounds a compaction's snapshot too.
	MaxFrameSize = 1 << 30

	magic           = "LSFCELOG"
	formatVersion   = 1
	headerSize      = 24
	frameHeaderSize = 8  // body length, checksum
	minBody         = 12 // sequence number, record count
	recordPrefix    = 4  // record length
	minFrame        = frameHeaderSize + minBody
)

// checksum is the CRC-32C of b.
func checksum(b []byte) uint32 {
	return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
}

// updateChecksum continues a CRC-32C with b.
func updateChecksum(crc uint32, b []byte) uint32 {
	return crc32.Update(crc, crc32.MakeTable(crc32.Castagnoli), b)
}

// encodeHeader returns the file header for a file whose first sealed
// bytes are durable.
func encodeHeader(sealed int64) []byte {
	h := make([]byte, headerSize)
	copy(h, magic)
	binary.LittleEndian.PutUint32(h[8:], formatVersion)
	binary.LittleEndian.PutUint64(h[12:], uint64(sealed))
	binary.LittleEndian.PutUint32(h[20:], checksum(h[:20]))
	return h
}

// decodeHeader checks a file header and returns its sealed length. The
// error's offset is that of the field at fault.
func decodeHeader(h []byte) (sealed int64, off int64, reason string) {
	if string(h[:8]) != magic {
		return 0, 0, fmt.Sprintf("bad magic %q: not an event log", h[:8])
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != formatVersion {
		return 0, 8, fmt.Sprintf("unsupported format version %d (this build reads version %d)", v, formatVersion)
	}
	if got := checksum(h[:20]); got != binary.LittleEndian.Uint32(h[20:]) {
		return 0, 20, "header checksum mismatch"
	}
	s := binary.LittleEndian.Uint64(h[12:])
	if s < headerSize || s > 1<<62 {
		return 0, 12, fmt.Sprintf("sealed length %d is out of range", s)
	}
	return int64(s), 0, ""
}

// bodySize returns the body length of a frame holding records, or an
// error if a record or the frame is over its limit.
func bodySize(records [][]byte) (int, error) {
	n := minBody
	for i, r := range records {
		if len(r) > MaxRecordSize {
			return 0, fmt.Errorf("record %d is %d bytes, more than the limit of %d", i, len(r), MaxRecordSize)
		}
		n += recordPrefix + len(r)
		if n > MaxFrameSize {
			return 0, fmt.Errorf("transaction of %d records is more than the limit of %d bytes", len(records), MaxFrameSize)
		}
	}
	return n, nil
}

// appendFrame appends the frame of one transaction to dst; body is its
// bodySize.
func appendFrame(dst []byte, seq uint64, records [][]byte, body int) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(body))
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	dst = binary.LittleEndian.AppendUint64(dst, seq)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(records)))
	for _, r := range records {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(r)))
		dst = append(dst, r...)
	}
	binary.LittleEndian.PutUint32(dst[start+4:], checksum(dst[start+frameHeaderSize:]))
	return dst
}

// writeFrame writes the frame of one transaction to w without building
// it in memory; body is its bodySize.
func writeFrame(w *bufio.Writer, seq uint64, records [][]byte, body int) error {
	var head [minFrame]byte
	var prefix [recordPrefix]byte
	binary.LittleEndian.PutUint32(head[0:], uint32(body))
	binary.LittleEndian.PutUint64(head[8:], seq)
	binary.LittleEndian.PutUint32(head[16:], uint32(len(records)))
	crc := updateChecksum(0, head[frameHeaderSize:])
	for _, r := range records {
		binary.LittleEndian.PutUint32(prefix[:], uint32(len(r)))
		crc = updateChecksum(updateChecksum(crc, prefix[:]), r)
	}
	binary.LittleEndian.PutUint32(head[4:], crc)
	w.Write(head[:])
	for _, r := range records {
		binary.LittleEndian.PutUint32(prefix[:], uint32(len(r)))
		w.Write(prefix[:])
		w.Write(r)
	}
	return w.Flush()
}

// decodeBody splits an intact frame body into its sequence number and
// records. The records share body's memory, each capped at its length.
func decodeBody(body []byte) (seq uint64, records [][]byte, reason string) {
	seq = binary.LittleEndian.Uint64(body)
	n := binary.LittleEndian.Uint32(body[8:])
	if int64(n) > int64(len(body)-minBody)/recordPrefix {
		return seq, nil, fmt.Sprintf("record count %d does not fit in a frame body of %d bytes", n, len(body))
	}
	records = make([][]byte, 0, n)
	p := minBody
	for i := range int(n) {
		if len(body)-p < recordPrefix {
			return seq, nil, fmt.Sprintf("record %d of %d: incomplete length", i, n)
		}
		l := int(binary.LittleEndian.Uint32(body[p:]))
		p += recordPrefix
		if l > MaxRecordSize {
			return seq, nil, fmt.Sprintf("record %d of %d: length %d is more than the limit of %d", i, n, l, MaxRecordSize)
		}
		if l > len(body)-p {
			return seq, nil, fmt.Sprintf("record %d of %d: length %d runs past the end of the frame", i, n, l)
		}
		records = append(records, body[p:p+l:p+l])
		p += l
	}
	if p != len(body) {
		return seq, nil, fmt.Sprintf("%d bytes after the last of %d records", len(body)-p, n)
	}
	return seq, records, ""
}
