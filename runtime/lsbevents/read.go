package lsbevents

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// An Error is a record that could not be read: where it is and why.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// MaxErrors is how many errors a Log keeps; Stats.Malformed counts them
// all.
const MaxErrors = 100

// maxLine bounds one record: a longer line is reported and skipped.
const maxLine = 16 << 20

// Stats count what reading found.
type Stats struct {
	// Records counts the job records read into histories.
	Records int
	// Passed counts, by type, the records of the cluster's own life
	// (MBD_START, QUEUE_CTRL, ...), which hold no job history.
	Passed map[string]int
	// Unknown counts, by type, the records of types not known.
	Unknown map[string]int
	// Malformed counts the records that could not be read.
	Malformed int
	// Orphans counts the job records of jobs whose JOB_NEW is in none of
	// the files read (submitted before the oldest of them).
	Orphans int
}

// passed are the record types that hold no job history.
var passed = map[string]bool{
	"MBD_START": true, "MBD_DIE": true, "MBD_UNFULFILL": true, "LOAD_INDEX": true, "LOG_SWITCH": true,
	"QUEUE_CTRL": true, "HOST_CTRL": true, "CAL_NEW": true, "CAL_MODIFY": true, "CAL_DELETE": true,
	"JOB_EXECUTE": true, "JOB_CLEAN": true, "JOB_CHUNK": true, "JOB_ATTR_SET": true, "JOB_EXT_MSG": true,
	"JOB_ATTA_DATA": true, "JOB_OCCUPY_REQ": true, "JOB_VACATED": true, "PRE_EXEC_START": true,
	"JOB_ROUTE": true, "JOB_RUN_RUSAGE": true, "METRIC_LOG": true, "SBD_UNREPORTED_STATUS": true,
	"JOB_SIGACT": true, "JOB_EXCEPTION": true, "UNFULFILL": true, "END_OF_STREAM": true,
}

// A Log is what reading lsb.events files gives: the jobs, their
// histories, and what could not be read. Files are read oldest first
// (lsb.events.2, then lsb.events.1, then lsb.events).
type Log struct {
	Stats
	// Errors are the first MaxErrors malformed records, in order.
	Errors []*Error

	jobs   map[jobKey]*Job
	order  []*Job
	arrays map[int64]*Job // array jobs, by ID, whose elements are made as they appear
	seq    int
}

// NewLog returns an empty Log.
func NewLog() *Log {
	return &Log{Stats: Stats{Passed: map[string]int{}, Unknown: map[string]int{}},
		jobs: map[jobKey]*Job{}, arrays: map[int64]*Job{}}
}

// Read reads one lsb.events file, named name in errors, adding its
// records to the log. Malformed records are kept in Errors and skipped;
// the error returned is one of reading r.
func (l *Log) Read(r io.Reader, name string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var fields []string
	line := 0
	for {
		b, err := readLine(br)
		if len(b) > 0 || err == nil {
			line++
		}
		if err != nil && err != io.EOF && err != errLong {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err == errLong {
			l.bad(name, line, fmt.Sprintf("the line is longer than %d bytes", maxLine))
			continue
		}
		if len(b) > 0 {
			fields = l.record(b, name, line, fields)
		}
		if err == io.EOF {
			return nil
		}
	}
}

var errLong = fmt.Errorf("line too long")

// readLine returns the next line without its newline; a line longer
// than maxLine is read to its end and errLong returned.
func readLine(br *bufio.Reader) ([]byte, error) {
	b, err := br.ReadSlice('\n')
	if err == nil {
		return b[:len(b)-1], nil
	}
	if err != bufio.ErrBufferFull {
		return b, err
	}
	long := append([]byte(nil), b...)
	for err == bufio.ErrBufferFull {
		b, err = br.ReadSlice('\n')
		if len(long) <= maxLine {
			long = append(long, b...)
		}
	}
	if len(long) > maxLine {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, errLong
	}
	if err == nil {
		long = long[:len(long)-1]
	}
	return long, err
}

// record reads one line.
func (l *Log) record(b []byte, name string, line int, scratch []string) []string {
	b = bytes.TrimRight(b, "\r")
	if len(bytes.TrimSpace(b)) == 0 || b[0] == '#' {
		return scratch
	}
	fields, err := splitFields(string(b), scratch)
	if err != nil {
		l.bad(name, line, err.Error())
		return fields
	}
	if len(fields) < 3 {
		l.bad(name, line, fmt.Sprintf("a record has a type, a version and a time: this line has %d fields", len(fields)))
		return fields
	}
	typ := fields[0]
	if !knownType(typ) {
		if passed[typ] {
			l.Passed[typ]++
		} else {
			l.Unknown[typ]++
		}
		return fields
	}
	at, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		l.bad(name, line, fmt.Sprintf("%s: the event time %q is not an integer", typ, fields[2]))
		return fields
	}
	c := &cursor{f: fields[3:]}
	if err := l.apply(typ, at, c); err != nil {
		l.bad(name, line, fmt.Sprintf("%s: %v", typ, err))
		return fields
	}
	l.Records++
	return fields
}

func (l *Log) bad(name string, line int, msg string) {
	l.Malformed++
	if len(l.Errors) < MaxErrors {
		l.Errors = append(l.Errors, &Error{File: name, Line: line, Msg: msg})
	}
}
