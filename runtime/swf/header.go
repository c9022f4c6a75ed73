package swf

import (
	"strconv"
	"strings"
)

// A Header is every comment line of a trace, in file order. Comment lines
// are kept even when they are not "Key: value" pairs, because the archive
// puts the meaning of a trace (cleaning filters, notes on what the times
// mean) in free-text continuation lines that a report may want to quote.
type Header struct {
	Fields []Field
}

// A Field is one header line. For a "; Key: value" line Key is the key
// and Value the text after the colon, both without surrounding blanks; for
// any other comment line (a continuation, a bare ";") Key is "" and Value
// is the text after the ';'. Line is the line's number in the file,
// counting from 1. Bytes that are not UTF-8 are replaced by U+FFFD, so
// that a header can be quoted in JSON or HTML as it is.
type Field struct {
	Key, Value string
	Line       int
}

// Get returns the value of the first field with the key, compared without
// regard to case. Keys may repeat ("Note", "Queue"): the first is the one
// the archive's own tools read.
func (h *Header) Get(key string) (string, bool) {
	if h == nil || key == "" {
		return "", false
	}
	for _, f := range h.Fields {
		if strings.EqualFold(f.Key, key) {
			return f.Value, true
		}
	}
	return "", false
}

// Values returns the values of every field with the key, in file order.
func (h *Header) Values(key string) []string {
	if h == nil || key == "" {
		return nil
	}
	var vs []string
	for _, f := range h.Fields {
		if strings.EqualFold(f.Key, key) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Int returns the first value of the key as an integer; ok is false when
// the key is absent or its value is not a whole decimal integer.
func (h *Header) Int(key string) (int, bool) {
	v, ok := h.Get(key)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return n, true
}

// MaxProcs returns the "MaxProcs" header: the number of processors of the
// machine the trace was recorded on.
func (h *Header) MaxProcs() (int, bool) { return h.Int("MaxProcs") }

// UnixStartTime returns the "UnixStartTime" header: the wall-clock time,
// in seconds since the Unix epoch, of time 0 of the trace. It is an int64
// so that it survives 32-bit platforms.
func (h *Header) UnixStartTime() (int64, bool) {
	v, ok := h.Get("UnixStartTime")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// Queues returns the queue names declared by "Queue: NUMBER NAME" lines,
// keyed by the number that the jobs' queue field holds. A malformed line
// is left out; when a number repeats, the first line wins.
func (h *Header) Queues() map[int]string { return h.numbered("Queue") }

// Partitions returns the partition names declared by "Partition: NUMBER
// NAME" lines, keyed by the number that the jobs' partition field holds
// (the LCG trace declares its grid sites this way).
func (h *Header) Partitions() map[int]string { return h.numbered("Partition") }

func (h *Header) numbered(key string) map[int]string {
	m := map[int]string{}
	for _, v := range h.Values(key) {
		num, name := v, ""
		if i := strings.IndexAny(v, " \t"); i >= 0 {
			num, name = v[:i], v[i+1:]
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		if _, dup := m[n]; !dup {
			m[n] = strings.TrimSpace(name)
		}
	}
	return m
}

// parseField splits the text of a comment line (after the ';') into a
// key and a value. A key is a word of letters, digits, '_' and '-' that
// starts with a letter and is followed by ':' and a blank or the end of
// the line; the blank requirement keeps a continuation line holding a URL
// ("http://...") from being read as key "http".
func parseField(text string, line int) Field {
	text = strings.TrimSpace(text)
	if i := strings.IndexByte(text, ':'); i > 0 && isKey(text[:i]) &&
		(i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
		return Field{Key: text[:i], Value: strings.TrimSpace(text[i+1:]), Line: line}
	}
	return Field{Value: text, Line: line}
}

func isKey(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}
