package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// jobFields names every field of Job by its JSON name, with a pointer to
// it: the fields a listing may ask for (JobQuery.Fields, JobFieldMask)
// and what the list's reader fills without reflection.
// TestJobFieldsTable checks that it holds every field of Job.
var jobFields = map[string]func(*Job) any{
	"id":              func(j *Job) any { return &j.ID },
	"index":           func(j *Job) any { return &j.Index },
	"array":           func(j *Job) any { return &j.Array },
	"user":            func(j *Job) any { return &j.User },
	"queue":           func(j *Job) any { return &j.Queue },
	"state":           func(j *Job) any { return &j.State },
	"name":            func(j *Job) any { return &j.Name },
	"command":         func(j *Job) any { return &j.Command },
	"slots":           func(j *Job) any { return &j.Slots },
	"fromHost":        func(j *Job) any { return &j.FromHost },
	"execHosts":       func(j *Job) any { return &j.ExecHosts },
	"submitTime":      func(j *Job) any { return &j.Submit },
	"startTime":       func(j *Job) any { return &j.Start },
	"endTime":         func(j *Job) any { return &j.End },
	"exitCode":        func(j *Job) any { return &j.ExitCode },
	"term":            func(j *Job) any { return &j.Term },
	"preExecCmd":      func(j *Job) any { return &j.PreExecCmd },
	"postExecCmd":     func(j *Job) any { return &j.PostExecCmd },
	"preExecFailures": func(j *Job) any { return &j.PreExecFailures },
	"postExec":        func(j *Job) any { return &j.PostExec },
	"beginTime":       func(j *Job) any { return &j.BeginTime },
	"termTime":        func(j *Job) any { return &j.TermTime },
	"cpuLimit":        func(j *Job) any { return &j.CPULimit },
	"procLimits":      func(j *Job) any { return &j.ProcLimits },
	"input":           func(j *Job) any { return &j.Input },
	"loginShell":      func(j *Job) any { return &j.LoginShell },
	"outDir":          func(j *Job) any { return &j.OutDir },
	"exceptions":      func(j *Job) any { return &j.Exceptions },
	"cpuTime":         func(j *Job) any { return &j.CPUTime },
	"maxMem":          func(j *Job) any { return &j.MaxMem },
	"reason":          func(j *Job) any { return &j.Reason },
	"hostReasons":     func(j *Job) any { return &j.HostReasons },
	"resReq":          func(j *Job) any { return &j.ResReq },
	"cwd":             func(j *Job) any { return &j.Cwd },
	"stdout":          func(j *Job) any { return &j.Stdout },
	"stderr":          func(j *Job) any { return &j.Stderr },
	"depend":          func(j *Job) any { return &j.Depend },
	"runLimit":        func(j *Job) any { return &j.RunLimit },
	"memLimit":        func(j *Job) any { return &j.MemLimit },
	"priority":        func(j *Job) any { return &j.Priority },
	"estimate":        func(j *Job) any { return &j.Estimate },
	"reserved":        func(j *Job) any { return &j.Reserved },
	"preempted":       func(j *Job) any { return &j.Preempted },
	"rerunnable":      func(j *Job) any { return &j.Rerunnable },
	"notify":          func(j *Job) any { return &j.Notify },
	"project":         func(j *Job) any { return &j.Project },
	"userGroup":       func(j *Job) any { return &j.UserGroup },
	"description":     func(j *Job) any { return &j.Description },
	"jobGroup":        func(j *Job) any { return &j.JobGroup },
	"reservation":     func(j *Job) any { return &j.Reservation },
	"app":             func(j *Job) any { return &j.App },
	"sla":             func(j *Job) any { return &j.Sla },
	"execCwd":         func(j *Job) any { return &j.ExecCwd },
	"aps":             func(j *Job) any { return &j.APS },
	"forward":         func(j *Job) any { return &j.Forward },
	"home":            func(j *Job) any { return &j.Home },
	"gpuReq":          func(j *Job) any { return &j.GPUReq },
	"gpuAlloc":        func(j *Job) any { return &j.GPUAlloc },
	"resize":          func(j *Job) any { return &j.Resize },
}

// listKeeps are the fields a listing always carries, whatever it asks
// for: what identifies a job and an array's element.
var listKeeps = []string{"id", "index", "array", "name"}

// A JobFieldMask keeps the fields of a job a listing asked for and
// clears the others; the zero mask keeps every field.
type JobFieldMask struct {
	clear []func(*Job) any
	names map[string]bool // the fields kept; nil: every field
}

// ParseJobFieldMask reads the fields parameter of a listing: JSON names
// of Job's fields, separated by commas ("" for all). An unknown name is
// an error.
func ParseJobFieldMask(s string) (JobFieldMask, error) {
	if s == "" {
		return JobFieldMask{}, nil
	}
	keep := map[string]bool{}
	for _, k := range listKeeps {
		keep[k] = true
	}
	for f := range strings.SplitSeq(s, ",") {
		if _, ok := jobFields[f]; !ok {
			return JobFieldMask{}, errors.New("bad field " + strconv.Quote(truncate(f)))
		}
		keep[f] = true
	}
	m := JobFieldMask{names: keep}
	for name, at := range jobFields {
		if !keep[name] {
			m.clear = append(m.clear, at)
		}
	}
	return m, nil
}

// Has reports whether the mask keeps the field of that JSON name: a
// listing makes only the fields it sends.
func (m JobFieldMask) Has(name string) bool { return m.names == nil || m.names[name] }

// Apply clears the fields of j the mask does not keep, in place.
func (m JobFieldMask) Apply(j *Job) {
	for _, at := range m.clear {
		switch p := at(j).(type) {
		case *string:
			*p = ""
		case *int:
			*p = 0
		case *int64:
			*p = 0
		case *float64:
			*p = 0
		case *bool:
			*p = false
		case *[]string:
			*p = nil
		case *[]HostReason:
			*p = nil
		case **JobReservation:
			*p = nil
		case **JobAPS:
			*p = nil
		case **JobForward:
			*p = nil
		case **JobHome:
			*p = nil
		case *[]JobGPUs:
			*p = nil
		default:
			reflect.ValueOf(p).Elem().SetZero()
		}
	}
}

// errSlowPath says that a list holds what the fast reader leaves to
// encoding/json: the caller reads the whole list with it.
var errSlowPath = errors.New("not for the fast reader")

// decodeJobList reads a compact list (JobList) as encoding/json reads it,
// the jobs' fields without reflection. A list the fast reader does not
// take whole (names in another case, numbers or strings it leaves to
// encoding/json at every turn) is read by encoding/json.
func decodeJobList(data []byte) (JobList, error) {
	var l JobList
	if err := fastJobList(data, &l); err == nil {
		return l, nil
	}
	l = JobList{}
	err := json.Unmarshal(data, &l)
	return l, err
}

// fastJobList reads a compact list; any failure is errSlowPath or a
// syntax error, after which the caller reads it with encoding/json.
func fastJobList(data []byte, l *JobList) error {
	f, err := fastEntries(data)
	if err != nil {
		return err
	}
	if f.jobs != nil {
		l.Entries = make([]JobEntry, len(f.jobs))
		for i := range f.jobs {
			l.Entries[i].Job = f.jobs[i]
		}
		for _, r := range f.rows {
			l.Entries[r.at].Rows = r.rows
		}
	}
	l.Strings = f.strings
	return nil
}

// fastJobs returns the jobs of a compact list that holds no array's
// rows, read straight into the slice returned; ok is false for any other
// list, which the caller reads with decodeJobList.
func fastJobs(data []byte) (jobs []Job, ok bool) {
	f, err := fastEntries(data)
	if err != nil || len(f.rows) > 0 {
		return nil, false
	}
	if f.jobs == nil {
		f.jobs = []Job{}
	}
	return f.jobs, true
}

// entries are a compact list as fastEntries reads it: the entries' jobs
// (nil for entries null), the rows of those that have any, by place, and
// the strings.
type entries struct {
	jobs    []Job
	rows    []entryRows
	strings []string
}

// entryRows are the rows of the entry at.
type entryRows struct {
	at   int
	rows *ElementRows
}

// fastEntries reads a compact list; any failure is errSlowPath or a
// syntax error, after which the caller reads it with encoding/json.
func fastEntries(data []byte) (entries, error) {
	var f entries
	s := &jscan{b: data}
	seen := false
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "entries":
			if seen {
				// encoding/json reads the second list into the first's
				// elements.
				return errSlowPath
			}
			seen = true
			if s.null() {
				return nil
			}
			// Room for every entry at once: a job is large to copy.
			f.jobs = make([]Job, 0, bytes.Count(s.b[s.i:], []byte(`"job"`)))
			return s.array(func() error {
				f.jobs = append(f.jobs, Job{})
				at := len(f.jobs) - 1
				var rows *ElementRows
				return s.object(func(key []byte) error {
					switch string(key) {
					case "job":
						return s.job(&f.jobs[at])
					case "rows":
						raw, err := s.skip()
						if err != nil {
							return err
						}
						had := rows != nil
						if err := json.Unmarshal(raw, &rows); err != nil {
							return err
						}
						switch {
						case rows != nil && !had:
							f.rows = append(f.rows, entryRows{at, rows})
						case rows == nil && had:
							// rows null after rows: none.
							f.rows = f.rows[:len(f.rows)-1]
						}
						return nil
					}
					return errSlowPath
				})
			})
		case "strings":
			raw, err := s.skip()
			if err != nil {
				return err
			}
			return json.Unmarshal(raw, &f.strings)
		}
		return errSlowPath
	})
	if err != nil {
		return entries{}, err
	}
	s.ws()
	if s.i != len(s.b) {
		return entries{}, errSlowPath
	}
	return f, nil
}

// A jscan reads JSON from b, at i.
type jscan struct {
	b []byte
	i int
	// seen holds the short strings read so far: a list repeats its
	// users, queues and states, which are then made once.
	seen map[string]string
	// keys are the keys of the last job read, in order, with their
	// fields.
	keys []keyAt
	// scratch takes the fields of a job that a row does not hold.
	scratch *Job
}

// A keyAt is a job's key and its field.
type keyAt struct {
	name string
	at   func(*Job) any
}

// ws skips white space.
func (s *jscan) ws() {
	for s.i < len(s.b) && s.b[s.i] <= ' ' {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// null reads a null, if one is next.
func (s *jscan) null() bool {
	s.ws()
	if strings.HasPrefix(string(s.b[s.i:min(len(s.b), s.i+4)]), "null") {
		s.i += 4
		return true
	}
	return false
}

// expect reads the byte c.
func (s *jscan) expect(c byte) error {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != c {
		return errSlowPath
	}
	s.i++
	return nil
}

// object reads an object, calling member with each key (valid until the
// next read); member reads the value.
func (s *jscan) object(member func(key []byte) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		key, _, err := s.strBytes()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) {
			return errSlowPath
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return errSlowPath
		}
	}
}

// array reads an array, calling elem to read each element.
func (s *jscan) array(elem func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) {
			return errSlowPath
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return errSlowPath
		}
	}
}

// str reads a string: printable ASCII without escapes itself, any other
// with encoding/json. A short one is made once for the whole list.
func (s *jscan) str() (string, error) {
	return s.strAs("")
}

// strAs is str, returning last itself when the string read is the same:
// a list's rows repeat the row before them in most fields.
func (s *jscan) strAs(last string) (string, error) {
	raw, plain, err := s.strBytes()
	if err != nil || !plain {
		return string(raw), err
	}
	if len(last) > 0 && string(raw) == last {
		return last, nil
	}
	if len(raw) > 64 {
		return string(raw), nil
	}
	if v, ok := s.seen[string(raw)]; ok {
		return v, nil
	}
	v := string(raw)
	if s.seen == nil {
		s.seen = map[string]string{}
	}
	if len(s.seen) < 4096 {
		s.seen[v] = v
	}
	return v, nil
}

// strBytes reads a string: plain says it is printable ASCII without
// escapes, raw then being its bytes in the list; any other is read by
// encoding/json.
func (s *jscan) strBytes() (raw []byte, plain bool, err error) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, errSlowPath
	}
	start := s.i + 1
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return s.b[start:i], true, nil
		case c == '\\' || c < ' ' || c >= utf8.RuneSelf:
			v, err := s.slowStr()
			return []byte(v), false, err
		}
	}
	return nil, false, errSlowPath
}

// slowStr reads a string with escapes or beyond ASCII with encoding/json.
func (s *jscan) slowStr() (string, error) {
	raw, err := s.skip()
	if err != nil {
		return "", err
	}
	var out string
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", errSlowPath
	}
	return out, nil
}

// skip reads a value of any kind and returns it as it is, for
// encoding/json to read (and check).
func (s *jscan) skip() ([]byte, error) {
	s.ws()
	start := s.i
	depth := 0
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			for s.i++; s.i < len(s.b) && s.b[s.i] != '"'; s.i++ {
				if s.b[s.i] == '\\' {
					s.i++
				}
			}
			if s.i >= len(s.b) {
				return nil, errSlowPath
			}
			s.i++
		case c == '{' || c == '[':
			depth++
			s.i++
		case c == '}' || c == ']':
			if depth == 0 {
				return s.end(start)
			}
			depth--
			s.i++
		case depth == 0 && (c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return s.end(start)
		default:
			s.i++
		}
		if depth == 0 && (c == '"' || c == '}' || c == ']') {
			return s.end(start)
		}
	}
	return s.end(start)
}

// end returns the value skip read from start, none being an error.
func (s *jscan) end(start int) ([]byte, error) {
	if s.i == start {
		return nil, errSlowPath
	}
	return s.b[start:s.i], nil
}

// number reads the text of a number.
func (s *jscan) number() (string, error) {
	n, err := s.numberBytes()
	return string(n), err
}

// integer reads a number that is a JSON integer of at most 18 digits
// (which any int64 holds) without making its text; ok is false, and
// nothing read, for any other number.
func (s *jscan) integer() (v int64, ok bool) {
	start := s.i
	n, err := s.numberBytes()
	if err != nil {
		s.i = start
		return 0, false
	}
	d := n
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || len(d) > 1 && d[0] == '0' {
		s.i = start
		return 0, false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			s.i = start
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if len(d) < len(n) {
		v = -v
	}
	return v, true
}

// numberBytes reads the text of a number, valid until the next read.
func (s *jscan) numberBytes() ([]byte, error) {
	s.ws()
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			s.i++
			continue
		}
		break
	}
	if s.i == start {
		return nil, errSlowPath
	}
	return s.b[start:s.i], nil
}

// job reads a Job's object. A field of a kind the scanner does not read
// itself is read by encoding/json; a key that is not a field's name as
// sent (encoding/json matches names in any case) sends the whole list to
// encoding/json.
func (s *jscan) job(j *Job) error {
	k := 0
	return s.object(func(key []byte) error {
		// The jobs of a list have their keys in the same order: each is
		// looked up once.
		var f func(*Job) any
		if k < len(s.keys) && string(key) == s.keys[k].name {
			f = s.keys[k].at
		} else {
			var ok bool
			if f, ok = jobFields[string(key)]; !ok {
				return errSlowPath
			}
			ka := keyAt{string(key), f}
			switch {
			case k < len(s.keys):
				s.keys[k] = ka
			case k == len(s.keys):
				s.keys = append(s.keys, ka)
			}
		}
		k++
		return s.field(f(j))
	})
}

// field reads the value of a field of Job, p pointing to it, as
// encoding/json reads it.
func (s *jscan) field(p any) error {
	if s.null() {
		// encoding/json leaves a field it reads null as it was, but a
		// pointer or slice, which it clears.
		raw := []byte("null")
		return json.Unmarshal(raw, p)
	}
	switch p := p.(type) {
	case *string:
		v, err := s.str()
		*p = v
		return err
	case *int64:
		if v, ok := s.integer(); ok {
			*p = v
			return nil
		}
		v, err := parsedNumber(s, func(n string) (int64, error) { return strconv.ParseInt(n, 10, 64) })
		if err != nil {
			return err
		}
		*p = v
	case *int:
		if v, ok := s.integer(); ok && int64(int(v)) == v {
			*p = int(v)
			return nil
		}
		v, err := parsedNumber(s, func(n string) (int64, error) { return strconv.ParseInt(n, 10, strconv.IntSize) })
		if err != nil {
			return err
		}
		*p = int(v)
	case *uint64:
		v, err := parsedNumber(s, func(n string) (uint64, error) { return strconv.ParseUint(n, 10, 64) })
		if err != nil {
			return err
		}
		*p = v
	case *float64:
		v, err := parsedNumber(s, func(n string) (float64, error) { return strconv.ParseFloat(n, 64) })
		if err != nil {
			return err
		}
		*p = v
	case *bool:
		switch {
		case strings.HasPrefix(string(s.b[s.i:min(len(s.b), s.i+4)]), "true"):
			*p = true
			s.i += 4
		case strings.HasPrefix(string(s.b[s.i:min(len(s.b), s.i+5)]), "false"):
			*p = false
			s.i += 5
		default:
			return errSlowPath
		}
	case *[]string:
		// As encoding/json: an empty array is an empty slice.
		*p = []string{}
		return s.array(func() error {
			v, err := s.str()
			*p = append(*p, v)
			return err
		})
	default:
		raw, err := s.skip()
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, p)
	}
	return nil
}

// parsedNumber reads a number and parses its text with parse, as
// encoding/json reads it into a field: a text JSON does not write a
// number as, or one parse refuses, is left to encoding/json.
func parsedNumber[T any](s *jscan, parse func(string) (T, error)) (T, error) {
	var zero T
	n, err := s.number()
	if err != nil {
		return zero, err
	}
	v, err := parse(n)
	if err != nil || !validJSONNumber(n) {
		return zero, errSlowPath
	}
	return v, nil
}

// validJSONNumber reports whether n is a number as JSON writes one
// (strconv takes more: "+1", ".5", "1.", hex).
func validJSONNumber(n string) bool {
	i := 0
	if i < len(n) && n[i] == '-' {
		i++
	}
	digits := func() int {
		k := i
		for i < len(n) && n[i] >= '0' && n[i] <= '9' {
			i++
		}
		return i - k
	}
	d := digits()
	if d == 0 || d > 1 && n[i-d] == '0' {
		return false
	}
	if i < len(n) && n[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(n) && (n[i] == 'e' || n[i] == 'E') {
		i++
		if i < len(n) && (n[i] == '+' || n[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(n)
}

// A jobField is a field of Job as encoding/json writes it: its name, in
// quotes with the colon after it, whether an empty value is left out,
// and where it is.
type jobField struct {
	name      string
	key       string
	omitEmpty bool
	at        func(*Job) any
}

// jobFieldOrder returns Job's fields in the order encoding/json writes
// them, read once from the type's tags.
var jobFieldOrder = sync.OnceValue(func() []jobField {
	t := reflect.TypeFor[Job]()
	out := make([]jobField, 0, t.NumField())
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, jobField{name: name, key: strconv.Quote(name) + ":", omitEmpty: opts == "omitempty", at: jobFields[name]})
	}
	return out
})

// AppendJSON appends the list as encoding/json writes it (with HTML's
// characters escaped, as an Encoder does by default), without
// reflection over each job. A value encoding/json refuses (a float that
// is not a number) is an error. The list of a listing that sends some
// fields (JobListBuilder.Keep) has its jobs' other fields left out,
// rather than written empty: it reads the same, and is smaller.
func (l JobList) AppendJSON(b []byte) ([]byte, error) {
	var err error
	fields := l.fieldsWritten()
	// Room for a short job each: the list is written in few copies.
	b = slices.Grow(b, 64+160*len(l.Entries))
	b = append(b, `{"entries":`...)
	if l.Entries == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Entries {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendEntry(b, &l.Entries[i], fields); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if b, err = appendStrings(b, l.Strings); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// fieldsWritten returns the fields of its jobs the list writes.
func (l JobList) fieldsWritten() []jobField {
	fields := jobFieldOrder()
	if l.kept != nil {
		fields = slices.DeleteFunc(slices.Clone(fields), func(f jobField) bool { return !l.kept[f.name] })
	}
	return fields
}

// appendEntry appends an entry of a list, its job's fields alone.
func appendEntry(b []byte, e *JobEntry, fields []jobField) ([]byte, error) {
	var err error
	b = append(b, `{"job":`...)
	if b, err = appendJob(b, &e.Job, fields); err != nil {
		return nil, err
	}
	if e.Rows != nil {
		b = append(b, `,"rows":`...)
		if b, err = appendMarshal(b, e.Rows); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendStrings appends the strings of a list, if any, after its
// entries.
func appendStrings(b []byte, strs []string) ([]byte, error) {
	if len(strs) == 0 {
		return b, nil
	}
	b = append(b, `,"strings":`...)
	return appendMarshal(b, strs)
}

// appendMarshal appends v as encoding/json writes it.
func appendMarshal(b []byte, v any) ([]byte, error) {
	m, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, m...), nil
}

// appendJob appends a job as encoding/json writes it, its fields
// (jobFieldOrder, or some of them) alone.
func appendJob(b []byte, j *Job, fields []jobField) ([]byte, error) {
	b = append(b, '{')
	first := true
	for _, f := range fields {
		if f.at == nil {
			// A field jobFields does not name (TestJobFieldsTable).
			return nil, errors.New("api: a field of Job that the list's writer does not know")
		}
		start := len(b)
		if !first {
			b = append(b, ',')
		}
		b = append(b, f.key...)
		empty := false
		switch p := f.at(j).(type) {
		case *string:
			empty = *p == ""
			b = appendJSONString(b, *p)
		case *int:
			empty = *p == 0
			b = strconv.AppendInt(b, int64(*p), 10)
		case *int64:
			empty = *p == 0
			b = strconv.AppendInt(b, *p, 10)
		case *float64:
			empty = *p == 0
			if math.IsNaN(*p) || math.IsInf(*p, 0) {
				return nil, fmt.Errorf("json: unsupported value: %v", *p)
			}
			b = appendJSONFloat(b, *p)
		case *bool:
			empty = !*p
			b = strconv.AppendBool(b, *p)
		case *[]string:
			empty = len(*p) == 0
			if *p == nil {
				b = append(b, "null"...)
				break
			}
			b = append(b, '[')
			for i, s := range *p {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, s)
			}
			b = append(b, ']')
		default:
			v := reflect.ValueOf(p).Elem()
			empty = v.Kind() == reflect.Pointer && v.IsNil() || (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0
			if !(empty && f.omitEmpty) {
				var err error
				if b, err = appendMarshal(b, v.Interface()); err != nil {
					return nil, err
				}
			}
		}
		if empty && f.omitEmpty {
			b = b[:start]
			continue
		}
		first = false
	}
	return append(b, '}'), nil
}

// appendJSONString appends s quoted as encoding/json quotes it: text
// with nothing to escape directly, the rest by encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			m, _ := json.Marshal(s) // a string always encodes
			return append(b, m...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat appends a float as encoding/json writes it: the
// shortest decimal that reads back, in exponent form below 1e-6 and from
// 1e21.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
