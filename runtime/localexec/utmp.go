package localexec

import (
	"encoding/binary"
	"errors"
	"io"
)

// The layout of a Linux utmp record: 384 bytes, starting with the record type as a 16-bit integer in the
// machine's byte order, the user name at offset 44.
const (
	utmpRecordSize = 384
	utmpUserOffset = 44
	utmpUserSize   = 32
	utmpUserProc   = 7 // USER_PROCESS: a login session
)

// countSessions reads a utmp file and returns its number of login
// sessions: USER_PROCESS records with a user name. A partial record at the
// end is ignored.
func countSessions(r io.Reader) (int, error) {
	n := 0
	rec := make([]byte, utmpRecordSize)
	for {
		_, err := io.ReadFull(r, rec)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
		if binary.NativeEndian.Uint16(rec) == utmpUserProc && rec[utmpUserOffset] != 0 {
			n++
		}
	}
}
