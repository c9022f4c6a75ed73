package lsbacct

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxLineLen is the longest line a Scanner reads; a longer one is reported
// and skipped. LSF bounds each string field to 4 KB, so a real record is
// well within it.
const MaxLineLen = 4 << 20

// A ParseError is a line of an lsb.acct file that is not a good record.
type ParseError struct {
	File  string // the name given to NewScanner; "" for ParseLine
	Line  int    // from 1
	Field string // the field at fault, "" for the line as a whole
	Msg   string
}

func (e *ParseError) Error() string {
	at := fmt.Sprintf("%s:%d", e.File, e.Line)
	if e.File == "" {
		at = fmt.Sprintf("line %d", e.Line)
	}
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", at, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", at, e.Field, e.Msg)
}

// A Scanner reads the records of an lsb.acct file one at a time, in
// bounded memory: the input is read a block at a time, and a record's
// strings share the block they were read from.
type Scanner struct {
	r        io.Reader
	block    string // text read, from off not yet consumed
	off      int
	eof      bool
	tmp      []byte
	name     string
	line     int
	rec      Record
	problems []*ParseError
	err      error
	d        decoder
	// Other counts the records of LSF's other types (JOB_RESIZE,
	// EVENT_ADRSV_FINISH), which are skipped.
	Other map[string]int
	// MaxProblems bounds the problems kept (the count goes on); 0 keeps
	// 1000.
	MaxProblems int
	nproblems   int
}

// blockSize is how much a Scanner reads at a time.
const blockSize = 1 << 20

// NewScanner returns a Scanner of r, whose problems name the file name.
func NewScanner(r io.Reader, name string) *Scanner {
	return &Scanner{r: r, name: name, Other: map[string]int{}}
}

// Scan reads up to the next good JOB_FINISH record and reports whether it
// found one; bad lines on the way are kept as problems. It returns false
// at the end of the input or on a read error (Err).
func (s *Scanner) Scan() bool {
	for {
		line, long, ok := s.nextLine()
		if !ok {
			return false
		}
		s.line++
		if long {
			s.problem(&ParseError{File: s.name, Line: s.line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineLen)})
			continue
		}
		t := trimLine(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		s.rec = Record{}
		typ, perr := s.d.decode(t, &s.rec)
		switch {
		case perr != nil:
			perr.File, perr.Line = s.name, s.line
			s.problem(perr)
		case typ != "JOB_FINISH":
			s.Other[typ]++
		default:
			return true
		}
	}
}

// nextLine returns the next line, without its newline; long reports a
// line longer than MaxLineLen, which is skipped; ok is false at the end
// of the input or on a read error.
func (s *Scanner) nextLine() (line string, long, ok bool) {
	skipping := false
	for {
		if i := strings.IndexByte(s.block[s.off:], '\n'); i >= 0 {
			line = s.block[s.off : s.off+i]
			s.off += i + 1
			return line, skipping || len(line) > MaxLineLen, true
		}
		if s.eof || s.err != nil {
			if s.off < len(s.block) {
				line = s.block[s.off:]
				s.off = len(s.block)
				return line, skipping || len(line) > MaxLineLen, true
			}
			if skipping {
				return "", true, true
			}
			return "", false, false
		}
		rest := s.block[s.off:]
		if len(rest) > MaxLineLen {
			// Too long: drop what is read of it, and the rest up to its
			// newline.
			skipping, rest = true, ""
		}
		// The next block is what is left of this one and up to size more
		// bytes, made a string without a copy of its own.
		size := int64(blockSize)
		if s.line == 0 {
			size = 64 << 10 // a small file stays small
		}
		if s.tmp == nil {
			s.tmp = make([]byte, 32<<10)
		}
		var b strings.Builder
		b.Grow(len(rest) + int(size))
		b.WriteString(rest)
		n, err := io.CopyBuffer(&b, io.LimitReader(s.r, size), s.tmp)
		switch {
		case err != nil:
			s.err = err
		case n < size:
			s.eof = true
		}
		s.block, s.off = b.String(), 0
	}
}

func trimLine(b string) string {
	for len(b) > 0 && (b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func (s *Scanner) problem(e *ParseError) {
	s.nproblems++
	max := s.MaxProblems
	if max == 0 {
		max = 1000
	}
	if len(s.problems) < max {
		s.problems = append(s.problems, e)
	}
}

// Record returns the record Scan found. It is overwritten by the next
// call to Scan: keep a copy.
func (s *Scanner) Record() *Record { return &s.rec }

// Line is the number of the line Scan read last, from 1.
func (s *Scanner) Line() int { return s.line }

// Problems are the bad lines met so far, in file order, up to MaxProblems.
func (s *Scanner) Problems() []*ParseError { return s.problems }

// NumProblems counts the bad lines met so far, kept or not.
func (s *Scanner) NumProblems() int { return s.nproblems }

// Err is the error that stopped the reading, nil at the end of the input.
func (s *Scanner) Err() error { return s.err }

// ParseLine decodes one line holding a JOB_FINISH record; its error, a
// *ParseError, names line 1.
func ParseLine(line string) (*Record, error) {
	var d decoder
	r := &Record{}
	typ, err := d.decode(strings.TrimSpace(line), r)
	if err != nil {
		err.Line = 1
		return nil, err
	}
	if typ != "JOB_FINISH" {
		return nil, &ParseError{Line: 1, Msg: fmt.Sprintf("record type %q is not JOB_FINISH", typ)}
	}
	return r, nil
}

// A decoder takes the fields of one line in order.
type decoder struct {
	s   string
	pos int
	n   int // fields taken
	err *ParseError
	// The lists of the records share arenas: a record's list is a
	// slice of one, capped at its length.
	strArena arena[string]
	extArena arena[IntValue]
	kvArena  arena[KeyValue]
}

func (d *decoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = &ParseError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// more reports whether the line holds another field.
func (d *decoder) more() bool {
	for d.pos < len(d.s) && (d.s[d.pos] == ' ' || d.s[d.pos] == '\t') {
		d.pos++
	}
	return d.err == nil && d.pos < len(d.s)
}

// token returns the next field as written and whether it is quoted, with
// its quotes removed and doubled quotes undone.
func (d *decoder) token(field string) (string, bool) {
	if d.err != nil {
		return "", false
	}
	if !d.more() {
		if d.err == nil {
			d.err = &ParseError{Field: field, Msg: "missing: the record ends before it"}
		}
		return "", false
	}
	d.n++
	s, i := d.s, d.pos
	if s[i] != '"' {
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			if s[j] == '"' {
				d.fail(field, "quote inside the unquoted field %q", clip(s[i:]))
				return "", false
			}
			j++
		}
		d.pos = j
		return s[i:j], false
	}
	j := i + 1
	escaped := false
	for {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			d.fail(field, "string %q is not closed", clip(s[i:]))
			return "", false
		}
		j += k
		if j+1 < len(s) && s[j+1] == '"' {
			escaped = true
			j += 2
			continue
		}
		break
	}
	// j is the closing quote.
	if j+1 < len(s) && s[j+1] != ' ' && s[j+1] != '\t' {
		d.fail(field, "no blank after the string %q", clip(s[i:j+2]))
		return "", false
	}
	v := s[i+1 : j]
	d.pos = j + 1
	if escaped {
		v = strings.ReplaceAll(v, `""`, `"`)
	}
	return v, true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (d *decoder) str(field string) string {
	v, quoted := d.token(field)
	if d.err == nil && !quoted {
		d.fail(field, "want a quoted string, got %q", clip(v))
	}
	return v
}

func (d *decoder) int(field string) int64 {
	v, quoted := d.token(field)
	if d.err != nil {
		return 0
	}
	if quoted {
		d.fail(field, "want a number, got the string %q", clip(v))
		return 0
	}
	n, ok := atoi(v)
	if !ok {
		d.fail(field, "want an integer, got %q", clip(v))
	}
	return n
}

// atoi parses a decimal integer, with an optional sign, without
// allocating.
func atoi(s string) (int64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		n, err := strconv.ParseInt(s, 10, 64)
		if neg {
			n = -n
		}
		return n, err == nil && len(s) > 0
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func (d *decoder) float(field string) float64 {
	v, quoted := d.token(field)
	if d.err != nil {
		return 0
	}
	if quoted {
		d.fail(field, "want a number, got the string %q", clip(v))
		return 0
	}
	// The integer path is only a shortcut: "-0" takes the full one, which
	// keeps the sign the writer gave a negative value rounded to zero.
	if n, ok := atoi(v); ok && (n != 0 || v[0] != '-') {
		return float64(n)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		d.fail(field, "want a number, got %q", clip(v))
	}
	return f
}

// count reads a list's length, at most the fields left on the line.
func (d *decoder) count(field string, per int) int {
	n := d.int(field)
	if d.err != nil {
		return 0
	}
	if n < 0 || n*int64(per) > int64(len(d.s)-d.pos) {
		d.fail(field, "count %d does not fit the record", n)
		return 0
	}
	return int(n)
}

func (d *decoder) strs(countField, field string) []string {
	n := d.count(countField, 2)
	if n == 0 {
		return nil
	}
	out := d.strArena.take(n)
	for i := range out {
		out[i] = d.str(field)
	}
	return out
}

// An arena hands out slices of a shared array, a new one when it is used
// up, so that short lists cost no allocation of their own.
type arena[T any] struct{ buf []T }

// take returns a slice of n zero items whose capacity is n: appending to
// it copies it.
func (a *arena[T]) take(n int) []T {
	if len(a.buf)+n > cap(a.buf) {
		a.buf = make([]T, 0, max(1024, n))
	}
	i := len(a.buf)
	a.buf = a.buf[:i+n]
	return a.buf[i : i+n : i+n]
}
