package lsbevents

import (
	"fmt"
	"strconv"
)

// splitFields splits a record's line into its fields, unquoting the
// strings. A quote left open is an error.
func splitFields(line string, dst []string) ([]string, error) {
	out := dst[:0]
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			return out, nil
		}
		if line[i] != '"' {
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
				j++
			}
			out = append(out, line[i:j])
			i = j
			continue
		}
		// A quoted string: "" inside is one quote.
		start := i
		i++
		j := i
		plain := true
		for {
			if j >= len(line) {
				return out, fmt.Errorf("string opened at column %d is never closed", start+1)
			}
			if line[j] == '"' {
				if j+1 < len(line) && line[j+1] == '"' {
					plain = false
					j += 2
					continue
				}
				break
			}
			j++
		}
		s := line[i:j]
		if !plain {
			s = unescape(s)
		}
		out = append(out, s)
		i = j + 1
		if i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' {
			return out, fmt.Errorf("string closed at column %d is followed by %q, not a blank", j+1, line[i])
		}
	}
}

// unescape turns each doubled quote of s into one.
func unescape(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i])
		if s[i] == '"' && i+1 < len(s) && s[i+1] == '"' {
			i++
		}
	}
	return string(b)
}

// A cursor reads a record's fields in order. The first field it cannot
// read sets err, and every read after it returns a zero value.
type cursor struct {
	f   []string
	i   int
	err error
}

// next returns the next field, named for the error if there is none.
func (c *cursor) next(name string) (string, bool) {
	if c.err != nil {
		return "", false
	}
	if c.i >= len(c.f) {
		c.err = fmt.Errorf("the record ends before field %d (%s)", c.i+1, name)
		return "", false
	}
	c.i++
	return c.f[c.i-1], true
}

// left returns how many fields are left to read.
func (c *cursor) left() int {
	if c.err != nil {
		return 0
	}
	return len(c.f) - c.i
}

// more reports whether fields are left.
func (c *cursor) more() bool { return c.err == nil && c.i < len(c.f) }

func (c *cursor) str(name string) string {
	s, _ := c.next(name)
	return s
}

func (c *cursor) int(name string) int64 {
	s, ok := c.next(name)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		c.err = fmt.Errorf("field %d (%s) is %q, not an integer", c.i, name, s)
	}
	return n
}

func (c *cursor) float(name string) float64 {
	s, ok := c.next(name)
	if !ok {
		return 0
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		c.err = fmt.Errorf("field %d (%s) is %q, not a number", c.i, name, s)
	}
	return n
}

// count reads a count of the entries that follow, refusing one that is
// negative or larger than the fields left.
func (c *cursor) count(name string, per int) int {
	n := c.int(name)
	if c.err == nil && (n < 0 || n*int64(per) > int64(len(c.f)-c.i)) {
		c.err = fmt.Errorf("field %d (%s) is %d, but %d fields follow", c.i, name, n, len(c.f)-c.i)
		return 0
	}
	return int(n)
}

func (c *cursor) strs(name string, n int) []string {
	out := make([]string, 0, n)
	for range n {
		out = append(out, c.str(name))
	}
	return out
}

func (c *cursor) skip(name string, n int) {
	for range n {
		c.next(name)
	}
}
