package api

import (
	"strconv"
	"unicode/utf8"
)

// The agents' requests without reflection.
//
// A master of thousands of hosts decodes thousands of load reports and
// exchanges a second, nearly all of them in the plain form this
// package's client writes: object keys as the struct tags spell them,
// each once, strings without escapes. DecodeFast reads that form
// directly; any other input (an escape, a key in another case, a null,
// a field it does not read, a duplicate key, bad JSON) it leaves to
// encoding/json, which reads it as it always did. What it accepts it
// decodes exactly as encoding/json would (FuzzAgentDecodeFast checks).

// DecodeFast decodes data, a whole request body, into l, which must be
// zero, and reports whether it could; when it could not, l is zero again.
func (l *AgentLoad) DecodeFast(data []byte) bool {
	s := scanner{b: data}
	var seen uint16
	ok := s.object(func(key string) bool {
		bit, f := loadFields(l, key)
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		return f(&s)
	}) && s.end()
	if !ok {
		*l = AgentLoad{}
	}
	return ok
}

// loadFields returns the bit of a load report's key and the reader of
// its value, 0 for a key the fast path does not read.
func loadFields(l *AgentLoad, key string) (uint16, func(*scanner) bool) {
	num := func(p *float64) func(*scanner) bool { return func(s *scanner) bool { return s.float(p) } }
	switch key {
	case "host":
		return 1 << 0, func(s *scanner) bool { return s.str(&l.Host) }
	case "interval":
		return 1 << 1, num(&l.Interval)
	case "type":
		return 1 << 2, func(s *scanner) bool { return s.str(&l.Type) }
	case "model":
		return 1 << 3, func(s *scanner) bool { return s.str(&l.Model) }
	case "ncpus":
		return 1 << 4, num(&l.Ncpus)
	case "nprocs":
		return 1 << 5, num(&l.Nprocs)
	case "ncores":
		return 1 << 6, num(&l.Ncores)
	case "nthreads":
		return 1 << 7, num(&l.Nthreads)
	case "maxmem":
		return 1 << 8, num(&l.Maxmem)
	case "maxswp":
		return 1 << 9, num(&l.Maxswp)
	case "maxtmp":
		return 1 << 10, num(&l.Maxtmp)
	case "load":
		return 1 << 11, func(s *scanner) bool {
			l.Load = map[string]float64{}
			return s.object(func(k string) bool {
				if _, dup := l.Load[k]; dup {
					return false
				}
				var v float64
				if !s.float(&v) {
					return false
				}
				l.Load[k] = v
				return true
			})
		}
	}
	return 0, nil
}

// DecodeFast decodes data, a whole request body, into x, which must be
// zero, and reports whether it could; when it could not, x is zero again.
// It reads the exchanges that carry no end, peek, notification or host
// command: the long polls of agents that wait for orders.
func (x *AgentSync) DecodeFast(data []byte) bool {
	s := scanner{b: data}
	var seen uint8
	ok := s.object(func(key string) bool {
		var bit uint8
		var f func() bool
		switch key {
		case "host":
			bit, f = 1<<0, func() bool { return s.str(&x.Host) }
		case "interval":
			bit, f = 1<<1, func() bool { return s.float(&x.Interval) }
		case "session":
			bit, f = 1<<2, func() bool { return s.str(&x.Session) }
		case "ack":
			bit, f = 1<<3, func() bool { return s.uint(&x.Ack) }
		case "wait":
			bit, f = 1<<4, func() bool { return s.float(&x.Wait) }
		case "known":
			bit, f = 1<<5, func() bool { return s.runs(&x.Known) }
		case "dirs":
			bit, f = 1<<6, func() bool { return s.dirs(&x.Dirs) }
		}
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		return f()
	}) && s.end()
	if !ok {
		*x = AgentSync{}
	}
	return ok
}

// A scanner reads the plain form of JSON the fast decoders accept.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether the next byte is c, which
// it then takes.
func (s *scanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// object reads an object, calling member for each key with the scanner
// at its value.
func (s *scanner) object(member func(key string) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		var key string
		if !s.str(&key) || !s.next(':') || !member(key) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// str reads a string without escapes or control characters, in valid
// UTF-8.
func (s *scanner) str(p *string) bool {
	if !s.next('"') {
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			if !utf8.Valid(v) {
				return false
			}
			*p = string(v)
			s.i++
			return true
		case c == '\\' || c < 0x20:
			return false
		}
		s.i++
	}
	return false
}

// number returns the text of a number in JSON's grammar; integer limits
// it to an optional minus sign and digits.
func (s *scanner) number(integer bool) ([]byte, bool) {
	s.space()
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	first := s.i
	if n := digits(); n == 0 || n > 1 && s.b[first] == '0' {
		return nil, false
	}
	if !integer {
		if s.i < len(s.b) && s.b[s.i] == '.' {
			s.i++
			if digits() == 0 {
				return nil, false
			}
		}
		if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
			s.i++
			if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
				s.i++
			}
			if digits() == 0 {
				return nil, false
			}
		}
	}
	// A number must end where a value ends: "1x" is not one.
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r', ',', '}', ']':
		default:
			return nil, false
		}
	}
	return s.b[start:s.i], true
}

func (s *scanner) float(p *float64) bool {
	t, ok := s.number(false)
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(string(t), 64)
	if err != nil {
		return false
	}
	*p = v
	return true
}

func (s *scanner) int(p *int64) bool {
	t, ok := s.number(true)
	if !ok {
		return false
	}
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		return false
	}
	*p = v
	return true
}

func (s *scanner) uint(p *uint64) bool {
	t, ok := s.number(true)
	if !ok || t[0] == '-' {
		return false
	}
	v, err := strconv.ParseUint(string(t), 10, 64)
	if err != nil {
		return false
	}
	*p = v
	return true
}

func (s *scanner) bool(p *bool) bool {
	s.space()
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		*p, s.i = true, s.i+4
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		*p, s.i = false, s.i+5
	default:
		return false
	}
	return true
}

// runs reads a list of runs.
func (s *scanner) runs(p *[]AgentRun) bool {
	if !s.next('[') {
		return false
	}
	out := []AgentRun{}
	if !s.next(']') {
		for {
			var r AgentRun
			var seen uint8
			if !s.object(func(key string) bool {
				var bit uint8
				var ok bool
				switch key {
				case "job":
					bit, ok = 1<<0, s.int(&r.Job)
				case "start":
					bit, ok = 1<<1, s.float(&r.Start)
				case "post":
					bit, ok = 1<<2, s.bool(&r.Post)
				}
				if bit == 0 || seen&bit != 0 {
					return false
				}
				seen |= bit
				return ok
			}) {
				return false
			}
			out = append(out, r)
			if s.next(']') {
				break
			}
			if !s.next(',') {
				return false
			}
		}
	}
	*p = out
	return true
}

// dirs reads the directories of runs, by job.
func (s *scanner) dirs(p *map[int64]string) bool {
	out := map[int64]string{}
	ok := s.object(func(key string) bool {
		// The key is an integer, exactly: no sign but a minus, no white
		// space, no leading zero.
		if key == "" || key[0] != '-' && (key[0] < '0' || key[0] > '9') {
			return false
		}
		k := scanner{b: []byte(key)}
		var id int64
		if !k.int(&id) || k.i != len(k.b) {
			return false
		}
		if _, dup := out[id]; dup {
			return false
		}
		var dir string
		if !s.str(&dir) {
			return false
		}
		out[id] = dir
		return true
	})
	if ok {
		*p = out
	}
	return ok
}
