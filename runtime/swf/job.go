package swf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NumFields is the number of fields of a job line.
const NumFields = 18

// Unknown is the value SWF gives a field it has no data for.
const Unknown = -1

// Values of Job.Status. Values 2 to 4 appear only in traces that record
// each part of a checkpointed or swapped job on a line of its own.
const (
	StatusFailed            = 0
	StatusCompleted         = 1
	StatusPartial           = 2
	StatusLastPartCompleted = 3
	StatusLastPartFailed    = 4
	StatusCancelled         = 5
)

// A Job is one job line of a trace. Counts and identifiers are ints;
// times (seconds) and memory (kilobytes) are float64 because some traces
// record them with decimals ("489.00"). Any field may be Unknown (-1).
type Job struct {
	Number       int     // 1: job number, from 1 in a cleaned trace
	SubmitTime   float64 // 2: seconds from the start of the trace
	WaitTime     float64 // 3: seconds from submission to start
	RunTime      float64 // 4: seconds from start to end
	AllocProcs   int     // 5: processors allocated
	AvgCPUTime   float64 // 6: average CPU seconds used per processor
	UsedMemory   float64 // 7: average kilobytes used per processor
	ReqProcs     int     // 8: processors requested
	ReqTime      float64 // 9: seconds requested (the user's runtime estimate)
	ReqMemory    float64 // 10: kilobytes requested per processor
	Status       int     // 11: StatusCompleted, StatusFailed, StatusCancelled, ...
	UserID       int     // 12
	GroupID      int     // 13
	Executable   int     // 14: application number
	Queue        int     // 15: queue number, named by Header.Queues
	Partition    int     // 16: partition number, named by Header.Partitions
	PrecedingJob int     // 17: number of a job this one waited for
	ThinkTime    float64 // 18: seconds from the end of the preceding job to this submission

	Line int // line number in the file, counting from 1
}

// String formats the job as an SWF job line (without a line ending), so
// that a Reader reads it back as the same job.
func (j Job) String() string {
	var b []byte
	for i := 1; i <= NumFields; i++ {
		if i > 1 {
			b = append(b, ' ')
		}
		switch p := j.field(i).(type) {
		case *int:
			b = strconv.AppendInt(b, int64(*p), 10)
		case *float64:
			b = strconv.AppendFloat(b, *p, 'f', -1, 64)
		}
	}
	return string(b)
}

// field returns a pointer to field i (1 to 18), an *int or a *float64:
// one table for the parser and the formatter keeps them in step.
func (j *Job) field(i int) any {
	switch i {
	case 1:
		return &j.Number
	case 2:
		return &j.SubmitTime
	case 3:
		return &j.WaitTime
	case 4:
		return &j.RunTime
	case 5:
		return &j.AllocProcs
	case 6:
		return &j.AvgCPUTime
	case 7:
		return &j.UsedMemory
	case 8:
		return &j.ReqProcs
	case 9:
		return &j.ReqTime
	case 10:
		return &j.ReqMemory
	case 11:
		return &j.Status
	case 12:
		return &j.UserID
	case 13:
		return &j.GroupID
	case 14:
		return &j.Executable
	case 15:
		return &j.Queue
	case 16:
		return &j.Partition
	case 17:
		return &j.PrecedingJob
	case 18:
		return &j.ThinkTime
	}
	return nil
}

// FieldName returns the name of job field i (1 to 18) as error messages
// give it, or "" for any other i.
func FieldName(i int) string {
	switch i {
	case 1:
		return "job number"
	case 2:
		return "submit time"
	case 3:
		return "wait time"
	case 4:
		return "run time"
	case 5:
		return "allocated processors"
	case 6:
		return "average cpu time"
	case 7:
		return "used memory"
	case 8:
		return "requested processors"
	case 9:
		return "requested time"
	case 10:
		return "requested memory"
	case 11:
		return "status"
	case 12:
		return "user id"
	case 13:
		return "group id"
	case 14:
		return "executable number"
	case 15:
		return "queue number"
	case 16:
		return "partition number"
	case 17:
		return "preceding job number"
	case 18:
		return "think time"
	}
	return ""
}

// A ParseError is a line the Reader could not read. Field is the 1-based
// job field at fault, or 0 when the fault is the line as a whole (too
// long, a wrong number of fields) or the input (Err is then the I/O or
// gzip error). Line counts from 1 and is always set.
type ParseError struct {
	Line  int
	Field int
	Msg   string
	Err   error
}

// Error formats the error as "line N: field F (name): message", or
// "line N: message" when no field is at fault.
func (e *ParseError) Error() string {
	if name := FieldName(e.Field); name != "" {
		return fmt.Sprintf("line %d: field %d (%s): %s", e.Line, e.Field, name, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Unwrap returns the underlying read error, if any, so that
// errors.Is(err, io.ErrUnexpectedEOF) finds a truncated stream.
func (e *ParseError) Unwrap() error { return e.Err }

// isBlank reports the bytes that separate fields. Other bytes, even
// non-ASCII spaces, belong to a field and make it fail to parse, which is
// better than guessing.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// parseJob parses a job line, given without its line ending.
func parseJob(s []byte, line int, fields *[NumFields][]byte) (Job, error) {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		start := i
		for i < len(s) && !isBlank(s[i]) {
			i++
		}
		if n < NumFields {
			fields[n] = s[start:i]
		}
		n++
	}
	if n != NumFields {
		return Job{}, &ParseError{Line: line, Msg: fmt.Sprintf("%d fields, want %d", n, NumFields)}
	}
	j := Job{Line: line}
	for i := 1; i <= NumFields; i++ {
		tok := fields[i-1]
		var msg string
		switch p := j.field(i).(type) {
		case *int:
			*p, msg = parseInt(tok)
		case *float64:
			*p, msg = parseFloat(tok)
		}
		if msg != "" {
			return Job{}, &ParseError{Line: line, Field: i, Msg: quote(tok) + " " + msg}
		}
	}
	return j, nil
}

// quote quotes a field for a message, cut short so that a 64 KiB token
// does not make a 64 KiB message.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// maxExact is 2^53: integers up to it are exact in a float64.
const maxExact = 1 << 53

// parseFloat parses a decimal number: an optional sign, digits with an
// optional fraction, and an optional exponent. Go's other float syntaxes
// (hexadecimal, underscores, "inf", "nan") are not numbers in SWF. The
// common short forms ("3600", "489.00") are converted here without
// strconv, which is exact: a mantissa under 2^53 divided by a power of ten
// up to 10^22 is one correctly rounded operation. It returns a message
// when s is not a number.
func parseFloat(s []byte) (float64, string) {
	if !isNumber(s) {
		return 0, "is not a number"
	}
	i, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg, i = s[0] == '-', 1
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			dot = true
			continue
		}
		if c < '0' || c > '9' || digits >= 15 {
			break // an exponent or a long mantissa: leave it to strconv
		}
		mant = mant*10 + uint64(c-'0')
		digits++
		if dot {
			frac++
		}
	}
	if i == len(s) {
		v := float64(mant) / math.Pow10(frac)
		if neg {
			v = -v
		}
		return v, ""
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, "is out of range"
	}
	return v, ""
}

// parseInt parses an integer field. A decimal with a zero fraction
// ("32.00") is accepted, as some traces write counts that way; any other
// fraction is an error rather than a silent truncation.
func parseInt(s []byte) (int, string) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, i = s[0] == '-', 1
	}
	digits := 0
	var v int64
	for j := i; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
		if digits++; digits <= 18 {
			v = v*10 + int64(s[j]-'0')
		}
	}
	if digits > 0 && i+digits == len(s) {
		if digits > 18 {
			// Leading zeros or a real overflow: strconv tells which.
			var err error
			if v, err = strconv.ParseInt(string(s), 10, 64); err != nil {
				return 0, "is out of range"
			}
		} else if neg {
			v = -v
		}
		if v < math.MinInt || v > math.MaxInt {
			return 0, "is out of range"
		}
		return int(v), ""
	}
	f, msg := parseFloat(s)
	if msg != "" {
		return 0, msg
	}
	if f != math.Trunc(f) {
		return 0, "is not an integer"
	}
	// Strictly inside ±2^53: at 2^53 the decimal may have been rounded to
	// it from 2^53+1.
	if f <= -maxExact || f >= maxExact || f < math.MinInt || f > math.MaxInt {
		return 0, "is out of range"
	}
	return int(f), ""
}

// isNumber reports whether s is [+-]? (digits [. digits?] | . digits)
// ([eE] [+-]? digits)?.
func isNumber(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// trimSpace trims blanks from both ends of a line.
func trimSpace(s []byte) []byte {
	for len(s) > 0 && isBlank(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isBlank(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// comment returns the text of a comment line after its ';'.
func comment(s []byte) string {
	return strings.ToValidUTF8(string(s[1:]), "\uFFFD")
}
