package api

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// JobQuery selects the jobs GET /v1/jobs lists. Its zero value asks for
// the caller's unfinished jobs.
type JobQuery struct {
	// IDs, when not empty, are the jobs asked for, finished or not, whoever
	// owns them; the other fields still filter.
	IDs []int64
	// User is whose jobs: "" for the caller's, "all" for everyone's.
	User string
	// Queue, when set, keeps the jobs of that queue.
	Queue string
	// All adds the finished jobs the daemon still holds (bjobs -a).
	All bool
	// Format names what the caller makes of the list: "json" for bjobs
	// -json, "" otherwise. It selects nothing; the daemon counts the
	// requests of each format apart (badmin perfmon view).
	Format string
	// Fields, when not empty, are the JSON names of the fields of Job the
	// caller reads: the daemon sends those (and what names a job and an
	// element: id, index, array, name) and leaves the others empty, so
	// that a listing is small to send and quick to read.
	Fields []string
}

// Values returns the query as URL parameters: id (repeated), user, queue,
// all=1, format and fields (comma-separated). Unset fields are left out.
func (q JobQuery) Values() url.Values {
	v := url.Values{}
	for _, id := range q.IDs {
		v.Add("id", strconv.FormatInt(id, 10))
	}
	if q.User != "" {
		v.Set("user", q.User)
	}
	if q.Queue != "" {
		v.Set("queue", q.Queue)
	}
	if q.All {
		v.Set("all", "1")
	}
	if q.Format != "" {
		v.Set("format", q.Format)
	}
	if len(q.Fields) > 0 {
		v.Set("fields", strings.Join(q.Fields, ","))
	}
	return v
}

// ParseJobQuery reads the URL parameters Values writes. A job id that is
// not a positive decimal number is an error, as is a format other than
// "json", or a field that Job does not have.
func ParseJobQuery(v url.Values) (JobQuery, error) {
	q := JobQuery{User: v.Get("user"), Queue: v.Get("queue"), All: v.Get("all") == "1", Format: v.Get("format")}
	if q.Format != "" && q.Format != "json" {
		return JobQuery{}, fmt.Errorf("bad format %q (want json)", q.Format)
	}
	if f := v.Get("fields"); f != "" {
		if _, err := ParseJobFieldMask(f); err != nil {
			return JobQuery{}, err
		}
		q.Fields = strings.Split(f, ",")
	}
	for _, s := range v["id"] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return JobQuery{}, fmt.Errorf("bad job id %q", s)
		}
		q.IDs = append(q.IDs, n)
	}
	return q, nil
}
