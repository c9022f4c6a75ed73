package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A JobRow is what a listing's table shows of a job (bjobs's default
// layout): a few fields of Job, small to read, sort and copy for a list
// of thousands of jobs.
type JobRow struct {
	ID        int64
	Index     int
	Submit    int64
	User      string
	State     string
	Queue     string
	FromHost  string
	Name      string
	Command   string
	ExecHosts []string
}

// JobRowFields are the JSON names of the fields of Job a JobRow holds
// that a listing sends only when asked for (JobQuery.Fields); it always
// sends the others (id, index, name).
var JobRowFields = []string{"user", "state", "queue", "fromHost", "execHosts", "command", "submitTime"}

// RowOf returns a job's row.
func RowOf(j *Job) JobRow {
	return JobRow{ID: j.ID, Index: j.Index, Submit: j.Submit, User: j.User, State: j.State, Queue: j.Queue,
		FromHost: j.FromHost, Name: j.Name, Command: j.Command, ExecHosts: j.ExecHosts}
}

// rowsOf returns the rows of jobs.
func rowsOf(jobs []Job) []JobRow {
	out := make([]JobRow, len(jobs))
	for i := range jobs {
		out[i] = RowOf(&jobs[i])
	}
	return out
}

// JobRows lists jobs as Jobs does, but asks the daemon for the fields of
// a JobRow alone (q.Fields is set to JobRowFields) and reads the answer
// straight into rows. A daemon that refuses the fields (one older than
// some of them) is asked again for whole jobs.
func (c *Client) JobRows(ctx context.Context, q JobQuery) ([]JobRow, error) {
	q.Fields = JobRowFields
	raw, err := c.jobList(ctx, q)
	if err != nil {
		return nil, err
	}
	if rows, ok := fastRows(raw); ok {
		return rows, nil
	}
	jobs, err := readJobs(raw)
	if err != nil {
		return nil, err
	}
	return rowsOf(jobs), nil
}

// jobList returns the answer to GET /v1/jobs for q, in the compact form
// when the daemon knows it. A daemon that refuses a field of q.Fields is
// asked again for every field.
func (c *Client) jobList(ctx context.Context, q JobQuery) (rawAnswer, error) {
	v := q.Values()
	v.Set("compact", "1")
	var raw rawAnswer
	err := c.do(ctx, "GET", "/v1/jobs", v, nil, &raw)
	if ae, ok := errors.AsType[*APIError](err); ok && len(q.Fields) > 0 && ae.Status == StatusBadRequest &&
		strings.HasPrefix(ae.Message, "bad field") {
		v.Del("fields")
		raw = nil
		err = c.do(ctx, "GET", "/v1/jobs", v, nil, &raw)
	}
	return raw, err
}

// readJobs reads the answer to GET /v1/jobs: a compact list, or the plain
// list of a daemon that does not know the compact form.
func readJobs(raw []byte) ([]Job, error) {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		var jobs []Job
		if err := json.Unmarshal(raw, &jobs); err != nil {
			return nil, fmt.Errorf("lsfc serve: bad answer to GET /v1/jobs: %w", err)
		}
		return jobs, nil
	}
	if jobs, ok := fastJobs(raw); ok {
		// No array's rows to expand: the jobs as read.
		return jobs, nil
	}
	out, err := decodeJobList(raw)
	if err != nil {
		return nil, fmt.Errorf("lsfc serve: bad answer to GET /v1/jobs: %w", err)
	}
	return out.Expand(), nil
}

// fastRows reads a compact list (JobList) into the rows of its jobs, an
// array's rows expanded as Expand expands them, without reflection over
// the jobs. ok is false for a list it does not take whole (one that
// encoding/json would read otherwise, or not at all): the caller reads
// that one as Jobs does.
func fastRows(data []byte) (rows []JobRow, ok bool) {
	s := &jscan{b: data}
	var elems []entryRows // the entries with rows, at their row
	var strs []string
	seen := false
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "entries":
			if seen {
				return errSlowPath // encoding/json merges the two
			}
			seen = true
			if s.null() {
				return nil
			}
			// Room for every row at once: each has two braces (quick
			// to count), in ten bytes at least.
			rest := s.b[s.i:]
			rows = make([]JobRow, 0, min(bytes.Count(rest, []byte{'{'})/2, len(rest)/10)+1)
			// An entry's members, read by one function for all.
			var at int
			var none JobRow
			var er *ElementRows
			member := func(key []byte) error {
				switch string(key) {
				case "job":
					last := &none
					if at > 0 {
						last = &rows[at-1]
					}
					return s.row(&rows[at], last)
				case "rows":
					raw, err := s.skip()
					if err != nil {
						return err
					}
					had := er != nil
					if err := json.Unmarshal(raw, &er); err != nil {
						return err
					}
					switch {
					case er != nil && !had:
						elems = append(elems, entryRows{at, er})
					case er == nil && had:
						elems = elems[:len(elems)-1]
					}
					return nil
				}
				return errSlowPath
			}
			return s.array(func() error {
				rows = append(rows, JobRow{})
				at, er = len(rows)-1, nil
				return s.object(member)
			})
		case "strings":
			raw, err := s.skip()
			if err != nil {
				return err
			}
			return json.Unmarshal(raw, &strs)
		}
		return errSlowPath
	})
	if err != nil {
		return nil, false
	}
	if s.ws(); s.i != len(s.b) {
		return nil, false
	}
	if rows == nil {
		return []JobRow{}, true
	}
	if len(elems) > 0 {
		rows = expandRows(rows, elems, strs)
	}
	return rows, true
}

// row reads a Job's object into a row: the row's fields into it, the
// other fields of Job into a scratch job (read, so that a list is taken
// or left whole as Jobs takes or leaves it, and dropped). A key that is
// not a field's name as sent sends the list to the caller's reader.
func (s *jscan) row(r, last *JobRow) error {
	// A text field: as field reads it, the same as the row before made
	// once.
	text := func(p *string, last string) error {
		if s.null() {
			return nil // encoding/json leaves it as it was
		}
		v, err := s.strAs(last)
		*p = v
		return err
	}
	return s.object(func(key []byte) error {
		switch string(key) {
		case "id":
			return s.field(&r.ID)
		case "index":
			return s.field(&r.Index)
		case "submitTime":
			return s.field(&r.Submit)
		case "user":
			return text(&r.User, last.User)
		case "state":
			return text(&r.State, last.State)
		case "queue":
			return text(&r.Queue, last.Queue)
		case "fromHost":
			return text(&r.FromHost, last.FromHost)
		case "name":
			return s.field(&r.Name)
		case "command":
			return text(&r.Command, last.Command)
		case "execHosts":
			return s.field(&r.ExecHosts)
		}
		f, ok := jobFields[string(key)]
		if !ok {
			return errSlowPath
		}
		if s.scratch == nil {
			s.scratch = &Job{}
		}
		return s.field(f(s.scratch))
	})
}

// expandRows returns rows with the elements of each entry that has rows
// after the entry's own, made as Expand makes them.
func expandRows(rows []JobRow, elems []entryRows, strs []string) []JobRow {
	n := len(rows)
	for _, e := range elems {
		n += min(max(e.rows.Count, 0), maxRows)
	}
	str := func(k int) string {
		if k > 0 && k <= len(strs) {
			return strs[k-1]
		}
		return ""
	}
	// The counts are the daemon's word: the slice grows with the rows
	// actually read, all the list's arrays together at most maxRows.
	out := make([]JobRow, 0, min(n, len(rows)+presizeRows))
	budget := maxRows
	next := 0
	for at := range rows {
		out = append(out, rows[at])
		if next >= len(elems) || elems[next].at != at {
			continue
		}
		r := elems[next].rows
		next++
		tmpl := rows[at]
		base := tmpl.Name
		if i := strings.LastIndexByte(base, '['); i >= 0 {
			base = base[:i]
		}
		job := SplitIDJob(tmpl.ID)
		first := len(out)
		tmpl.ExecHosts = nil
		out = expandElements(out, tmpl, r, job, base, str, budget, func(j *JobRow, id int64, idx int, name, state, _ string) {
			j.ID, j.Index, j.Name, j.State = id, idx, name, state
		})
		budget -= len(out) - first
		for _, x := range r.Ran {
			if x.Row < 0 || first+x.Row >= len(out) {
				continue
			}
			out[first+x.Row].ExecHosts = x.ExecHosts
		}
	}
	return out
}
