package api

// The agents' requests without reflection.
//
// A master of thousands of hosts decodes thousands of load reports and
// exchanges a second, nearly all of them in the plain form this
// package's client writes: object keys as the struct tags spell them,
// each once. DecodeFast reads that form with the scanner of job lists
// (jscan); any other input (a key in another case, a field it does not
// read, a duplicate key, bad JSON) it leaves to encoding/json, which
// reads it as it always did. What it accepts it decodes exactly as
// encoding/json would (FuzzAgentDecodeFast checks).

// DecodeFast decodes data, a whole request body, into l, which must be
// zero, and reports whether it could; when it could not, l is zero again.
func (l *AgentLoad) DecodeFast(data []byte) bool {
	s := jscan{b: data}
	var seen uint16
	err := s.object(func(key []byte) error {
		bit, f := loadFields(l, string(key))
		if bit == 0 || seen&bit != 0 {
			return errSlowPath
		}
		seen |= bit
		return f(&s)
	})
	if err != nil || !s.atEnd() {
		*l = AgentLoad{}
		return false
	}
	return true
}

// loadFields returns the bit of a load report's key and the reader of
// its value, 0 for a key the fast path does not read.
func loadFields(l *AgentLoad, key string) (uint16, func(*jscan) error) {
	num := func(p *float64) func(*jscan) error { return func(s *jscan) error { return s.field(p) } }
	str := func(p *string) func(*jscan) error { return func(s *jscan) error { return s.text(p) } }
	switch key {
	case "host":
		return 1 << 0, str(&l.Host)
	case "interval":
		return 1 << 1, num(&l.Interval)
	case "type":
		return 1 << 2, str(&l.Type)
	case "model":
		return 1 << 3, str(&l.Model)
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
		return 1 << 11, func(s *jscan) error {
			if s.null() {
				return errSlowPath
			}
			l.Load = map[string]float64{}
			return s.object(func(k []byte) error {
				if _, dup := l.Load[string(k)]; dup {
					return errSlowPath
				}
				var v float64
				if err := s.number64(&v); err != nil {
					return err
				}
				l.Load[string(k)] = v
				return nil
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
	s := jscan{b: data}
	var seen uint8
	err := s.object(func(key []byte) error {
		var bit uint8
		var f func() error
		switch string(key) {
		case "host":
			bit, f = 1<<0, func() error { return s.text(&x.Host) }
		case "interval":
			bit, f = 1<<1, func() error { return s.field(&x.Interval) }
		case "session":
			bit, f = 1<<2, func() error { return s.text(&x.Session) }
		case "ack":
			bit, f = 1<<3, func() error { return s.field(&x.Ack) }
		case "wait":
			bit, f = 1<<4, func() error { return s.field(&x.Wait) }
		case "known":
			bit, f = 1<<5, func() error { return s.runs(&x.Known) }
		case "dirs":
			bit, f = 1<<6, func() error { return s.dirs(&x.Dirs) }
		}
		if bit == 0 || seen&bit != 0 {
			return errSlowPath
		}
		seen |= bit
		return f()
	})
	if err != nil || !s.atEnd() {
		*x = AgentSync{}
		return false
	}
	return true
}

// atEnd reports whether only white space is left.
func (s *jscan) atEnd() bool {
	s.ws()
	return s.i == len(s.b)
}

// text reads a string (not null) into p, as encoding/json does, without
// keeping it for the strings read after it (a request is one object).
func (s *jscan) text(p *string) error {
	if s.null() {
		return errSlowPath
	}
	raw, _, err := s.strBytes()
	if err != nil {
		return err
	}
	*p = string(raw)
	return nil
}

// number64 reads a number (not null) into p as encoding/json does.
func (s *jscan) number64(p *float64) error {
	if s.null() {
		return errSlowPath
	}
	return s.field(p)
}

// runs reads a list of runs (not null).
func (s *jscan) runs(p *[]AgentRun) error {
	if s.null() {
		return errSlowPath
	}
	out := []AgentRun{}
	err := s.array(func() error {
		var r AgentRun
		var seen uint8
		err := s.object(func(key []byte) error {
			var bit uint8
			var p any
			switch string(key) {
			case "job":
				bit, p = 1<<0, &r.Job
			case "start":
				bit, p = 1<<1, &r.Start
			case "post":
				bit, p = 1<<2, &r.Post
			}
			if bit == 0 || seen&bit != 0 || s.null() {
				return errSlowPath
			}
			seen |= bit
			return s.field(p)
		})
		out = append(out, r)
		return err
	})
	if err == nil {
		*p = out
	}
	return err
}

// dirs reads the directories of runs, by job (not null).
func (s *jscan) dirs(p *map[int64]string) error {
	if s.null() {
		return errSlowPath
	}
	out := map[int64]string{}
	err := s.object(func(key []byte) error {
		// The key is an integer, exactly: no sign but a minus, no white
		// space, no leading zero.
		if len(key) == 0 || key[0] != '-' && (key[0] < '0' || key[0] > '9') {
			return errSlowPath
		}
		k := jscan{b: key}
		id, ok := k.integer()
		if !ok || k.i != len(key) {
			return errSlowPath
		}
		if _, dup := out[id]; dup {
			return errSlowPath
		}
		var dir string
		if err := s.text(&dir); err != nil {
			return err
		}
		out[id] = dir
		return nil
	})
	if err == nil {
		*p = out
	}
	return err
}
