package api

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
)

// A JobList is the compact answer to a list of jobs (GET /v1/jobs with
// compact=1), which Client.Jobs asks for and expands: the elements of a
// job array that differ from the one before them only in what an element
// has of its own are sent as rows after that one, column by column, so
// that a list of a large array is small to send and quick to read.
type JobList struct {
	Entries []JobEntry `json:"entries"`
	// Strings are the states and reasons the rows name by their place
	// (from 1; 0 is none).
	Strings []string `json:"strings,omitempty"`
	// kept, when not nil, are the fields of Job AppendJSON writes: those
	// a listing's field mask keeps, the others being empty.
	kept map[string]bool
}

// A JobEntry is a job, followed by rows: jobs that are the same but for
// the fields of a row.
type JobEntry struct {
	Job  Job          `json:"job"`
	Rows *ElementRows `json:"rows,omitempty"`
}

// ElementRows are what elements of an array have of their own, one
// column per field, each run-length coded: Index holds (first index,
// step, count) triplets, State and Reason (value, count) pairs, the
// values numbers of JobList.Strings. Ran holds, for an element that
// started, its times, hosts and end. Count is the number of rows.
type ElementRows struct {
	Count  int          `json:"n"`
	Index  []int        `json:"i"`
	State  []int        `json:"s"`
	Reason []int        `json:"r"`
	Ran    []ElementRan `json:"ran,omitempty"`
}

// addIndex appends an index to the Index column.
func (r *ElementRows) addIndex(idx int) {
	n := len(r.Index)
	if n >= 3 {
		first, step, count := r.Index[n-3], r.Index[n-2], r.Index[n-1]
		switch {
		case count == 1 && idx > first:
			r.Index[n-2], r.Index[n-1] = idx-first, 2
			return
		case count > 1 && idx == first+step*count:
			r.Index[n-1]++
			return
		}
	}
	r.Index = append(r.Index, idx, 1, 1)
}

// addValue appends a value to a (value, count) column.
func addValue(col *[]int, v int) {
	c := *col
	if n := len(c); n >= 2 && c[n-2] == v {
		c[n-1]++
		return
	}
	*col = append(c, v, 1)
}

// expand returns a run-length coded column's values, at most max of
// them; a column that does not hold together gives what it holds.
func expandRuns(col []int, triplets bool, max int) []int {
	var out []int
	width := 2
	if triplets {
		width = 3
	}
	for i := 0; i+width <= len(col) && len(out) < max; i += width {
		v, step, count := col[i], 0, col[i+width-1]
		if triplets {
			step = col[i+1]
		}
		for k := 0; k < count && len(out) < max; k++ {
			out = append(out, v+k*step)
		}
	}
	return out
}

// ElementRan is what an element that started has of its own: Row is its
// place among the entry's rows.
type ElementRan struct {
	Row        int      `json:"row"`
	Start      int64    `json:"start,omitempty"`
	End        int64    `json:"end,omitempty"`
	ExitCode   int      `json:"exitCode,omitempty"`
	Term       string   `json:"term,omitempty"`
	ExecHosts  []string `json:"execHosts,omitempty"`
	CPUTime    float64  `json:"cpuTime,omitempty"`
	MaxMem     float64  `json:"maxMem,omitempty"`
	ExecCwd    string   `json:"execCwd,omitempty"`
	Exceptions string   `json:"exceptions,omitempty"`
}

// ran returns what of a job's own belongs in ElementRan, and whether it
// has any.
func ran(j *Job, row int) (ElementRan, bool) {
	r := ElementRan{Row: row, Start: j.Start, End: j.End, ExitCode: j.ExitCode, Term: j.Term, ExecHosts: j.ExecHosts,
		CPUTime: j.CPUTime, MaxMem: j.MaxMem, ExecCwd: j.ExecCwd, Exceptions: j.Exceptions}
	return r, r.Start != 0 || r.End != 0 || r.ExitCode != 0 || r.Term != "" || len(r.ExecHosts) > 0 ||
		r.CPUTime != 0 || r.MaxMem != 0 || r.ExecCwd != "" || r.Exceptions != ""
}

// sameShared reports whether two elements of one array are the same in
// every field a row does not carry. TestJobListFields checks that every
// field of Job is one or the other.
func sameShared(a, b *Job) bool {
	return SplitIDJob(a.ID) == SplitIDJob(b.ID) && a.Array == b.Array && a.User == b.User && a.Queue == b.Queue &&
		a.Command == b.Command && a.Slots == b.Slots && a.FromHost == b.FromHost && a.Submit == b.Submit &&
		a.ResReq == b.ResReq && a.Cwd == b.Cwd && a.Stdout == b.Stdout && a.Stderr == b.Stderr &&
		a.Depend == b.Depend && a.RunLimit == b.RunLimit && a.MemLimit == b.MemLimit && a.Priority == b.Priority &&
		a.Preempted == b.Preempted && a.Rerunnable == b.Rerunnable && a.Project == b.Project &&
		a.UserGroup == b.UserGroup && a.JobGroup == b.JobGroup && a.Reservation == b.Reservation && a.App == b.App && a.Sla == b.Sla && a.Description == b.Description &&
		len(a.HostReasons) == 0 && len(b.HostReasons) == 0 &&
		a.Estimate == b.Estimate && a.Reserved == nil && b.Reserved == nil &&
		a.GPUReq == b.GPUReq && len(a.GPUAlloc) == 0 && len(b.GPUAlloc) == 0 &&
		a.APS == nil && b.APS == nil && a.Forward == nil && b.Forward == nil && a.Home == nil && b.Home == nil &&
		a.Resize == nil && b.Resize == nil &&
		a.PreExecCmd == b.PreExecCmd && a.PostExecCmd == b.PostExecCmd && a.PreExecFailures == b.PreExecFailures &&
		a.PostExec == b.PostExec && a.BeginTime == b.BeginTime && a.TermTime == b.TermTime && a.CPULimit == b.CPULimit && maps.Equal(a.ProcLimits, b.ProcLimits) &&
		a.Input == b.Input && a.LoginShell == b.LoginShell && a.OutDir == b.OutDir &&
		sameNotify(a.Notify, b.Notify) && nameOf(a) == nameOf(b)
}

// sameNotify reports whether two jobs have the same mail options.
func sameNotify(a, b *JobNotify) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// SplitIDJob returns the job ID of an ID made by ElementID.
func SplitIDJob(id int64) int64 { return id & jobIDMask }

// nameOf returns an element's name without its index.
func nameOf(j *Job) string {
	for i := len(j.Name) - 1; i >= 0; i-- {
		if j.Name[i] == '[' {
			return j.Name[:i]
		}
	}
	return j.Name
}

// CompactJobs returns the list of jobs in its compact form: each element
// of an array that is the same as the entry's job but for a row's fields
// becomes a row of it.
func CompactJobs(jobs []Job) JobList {
	var b JobListBuilder
	for i := range jobs {
		b.Add(&jobs[i])
	}
	return b.List()
}

// A JobListBuilder makes a compact list of jobs added one by one; a job
// added is copied only when it starts an entry.
type JobListBuilder struct {
	l     JobList
	index map[string]int
	mask  JobFieldMask // Keep's
	// stream is set by Stream: out holds the list written so far, its
	// entries but the last, n of them.
	stream bool
	room   int
	out    []byte
	n      int
	fields []jobField
	err    error // the first entry that could not be written
}

// Add adds a job to the list.
func (b *JobListBuilder) Add(j *Job) {
	if n := len(b.l.Entries); n > 0 {
		e := &b.l.Entries[n-1]
		if j.Index > 0 && e.Job.Index > 0 && sameShared(&e.Job, j) {
			if b.l.kept != nil {
				// A row carries what the mask keeps alone.
				m := *j
				b.mask.Apply(&m)
				j = &m
			}
			if e.Rows == nil {
				e.Rows = &ElementRows{}
			}
			r := e.Rows
			if x, ok := ran(j, r.Count); ok {
				r.Ran = append(r.Ran, x)
			}
			r.Count++
			r.addIndex(j.Index)
			addValue(&r.State, b.str(j.State))
			addValue(&r.Reason, b.str(j.Reason))
			return
		}
	}
	if b.stream && len(b.l.Entries) > 0 {
		// The last entry is complete: written, and its place taken.
		b.flush()
		b.l.Entries[0] = JobEntry{Job: *j}
		return
	}
	b.l.Entries = append(b.l.Entries, JobEntry{Job: *j})
}

// Stream has the list written as it is made, rather than kept: each
// entry once complete, so that a long list takes the room of one entry
// beside its text. JSON then returns the list; List and Grow are not
// used. n is how many jobs are to be added, for the text's room.
func (b *JobListBuilder) Stream(n int) {
	b.stream = true
	b.room = 64 + 160*min(max(n, 0), 1<<13)
}

// flush writes the entry kept in a streamed list.
func (b *JobListBuilder) flush() {
	if b.out == nil {
		b.out = append(make([]byte, 0, b.room), `{"entries":[`...)
		b.fields = b.l.fieldsWritten()
	}
	if b.n > 0 {
		b.out = append(b.out, ',')
	}
	out, err := appendEntry(b.out, &b.l.Entries[0], b.fields)
	if err != nil {
		b.err = cmp.Or(b.err, err)
		return
	}
	b.out = out
	b.n++
}

// JSON returns a streamed list (Stream) as AppendJSON writes it. A job
// that could not be written (a float that is not a number) is an error.
func (b *JobListBuilder) JSON() (JobListJSON, error) {
	if len(b.l.Entries) > 0 {
		b.flush()
	}
	if b.err != nil {
		return nil, b.err
	}
	if b.out == nil {
		b.out = append(b.out, `{"entries":[`...)
	}
	out := append(b.out, ']')
	var err error
	if out, err = appendStrings(out, b.l.Strings); err != nil {
		return nil, err
	}
	return append(out, '}'), nil
}

// A JobListJSON is a list (JobList) as AppendJSON writes it.
type JobListJSON []byte

// MarshalJSON returns the list's text as it is, so that a JobListJSON
// encoded with encoding/json is the list, not its bytes in base64 (null
// when there is none).
func (j JobListJSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// Keep has the list write the fields of its jobs that m keeps alone:
// the jobs added need not be masked (an array's element that becomes a
// row is masked here).
func (b *JobListBuilder) Keep(m JobFieldMask) {
	b.l.kept, b.mask = m.names, m
}

// Grow makes room for n more entries, so that adding them copies none
// (a job is large to copy).
func (b *JobListBuilder) Grow(n int) {
	b.l.Entries = slices.Grow(b.l.Entries, n)
}

// str returns the number of a string in the list's table, 0 for "".
func (b *JobListBuilder) str(s string) int {
	if s == "" {
		return 0
	}
	n, ok := b.index[s]
	if !ok {
		if b.index == nil {
			b.index = map[string]int{}
		}
		b.l.Strings = append(b.l.Strings, s)
		n = len(b.l.Strings)
		b.index[s] = n
	}
	return n
}

// List returns the list made, with an empty Entries (not nil) when no
// job was added.
func (b *JobListBuilder) List() JobList {
	if b.l.Entries == nil {
		b.l.Entries = []JobEntry{}
	}
	return b.l
}

// Expand returns the jobs of a compact list, in its order. Rows that do
// not hold together (columns of different lengths, numbers past the
// tables) are read as far as they do.
func (l JobList) Expand() []Job {
	n := 0
	for _, e := range l.Entries {
		n++
		if e.Rows != nil {
			n += min(max(e.Rows.Count, 0), maxRows)
		}
	}
	str := func(k int) string {
		if k > 0 && k <= len(l.Strings) {
			return l.Strings[k-1]
		}
		return ""
	}
	// A list's counts are the daemon's word: the slice grows with the
	// rows actually read rather than to what the counts claim.
	out := make([]Job, 0, min(n, len(l.Entries)+presizeRows))
	budget := maxRows
	for _, e := range l.Entries {
		out = append(out, e.Job)
		r := e.Rows
		if r == nil {
			continue
		}
		base := nameOf(&e.Job)
		job := SplitIDJob(e.Job.ID)
		first := len(out)
		tmpl := e.Job
		tmpl.Start, tmpl.End, tmpl.ExitCode, tmpl.Term, tmpl.ExecHosts = 0, 0, 0, "", nil
		tmpl.CPUTime, tmpl.MaxMem, tmpl.ExecCwd, tmpl.Exceptions = 0, 0, "", ""
		out = expandElements(out, tmpl, r, job, base, str, budget, func(j *Job, id int64, idx int, name, state, reason string) {
			j.ID, j.Index, j.Name, j.State, j.Reason = id, idx, name, state, reason
		})
		budget -= len(out) - first
		for _, x := range r.Ran {
			if x.Row < 0 || first+x.Row >= len(out) {
				continue
			}
			j := &out[first+x.Row]
			j.Start, j.End, j.ExitCode, j.Term, j.ExecHosts = x.Start, x.End, x.ExitCode, x.Term, x.ExecHosts
			j.CPUTime, j.MaxMem, j.ExecCwd, j.Exceptions = x.CPUTime, x.MaxMem, x.ExecCwd, x.Exceptions
		}
	}
	return out
}

// expandElements appends to out the elements of an array whose rows are
// r (job its job number, base its name without indices), each made from
// tmpl by set, at most budget of them: rows that do not hold together
// (columns of different lengths, indices out of range) are read as far
// as they do.
func expandElements[T any](out []T, tmpl T, r *ElementRows, job int64, base string, str func(int) string, budget int,
	set func(j *T, id int64, idx int, name, state, reason string)) []T {
	count := min(max(r.Count, 0), budget)
	states, reasons := expandRuns(r.State, false, count), expandRuns(r.Reason, false, count)
	for i, idx := range expandRuns(r.Index, true, count) {
		if idx <= 0 || idx > MaxArrayIndex || i >= len(states) || i >= len(reasons) {
			break
		}
		j := tmpl
		set(&j, ElementID(job, idx), idx, base+"["+strconv.Itoa(idx)+"]", str(states[i]), str(reasons[i]))
		out = append(out, j)
	}
	return out
}

// maxRows is the most rows Expand reads of a whole list, all its arrays'
// elements together (a variable for the tests); presizeRows the most
// rows it makes room for before it reads them.
var maxRows = 10_000_000

const presizeRows = 4096
