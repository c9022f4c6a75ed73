package api

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestHostileRowCounts reads an answer whose entries claim ten million
// rows each but hold none, and one whose rows together pass maxRows: the
// readers make room for the rows they read, not for the counts, and
// read at most maxRows of a list.
func TestHostileRowCounts(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"entries":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"job":{"id":%d,"name":"a[1-9]"},"rows":{"n":10000000,"i":[],"s":[],"r":[]}}`, i+1)
	}
	b.WriteString(`],"strings":[]}`)
	empty := []byte(b.String())
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	if n := allocated(func() {
		rows, ok := fastRows(empty)
		if !ok || len(rows) != 10 {
			t.Errorf("fastRows: %d rows, ok %v; want the 10 entries", len(rows), ok)
		}
	}); n > 1<<24 {
		t.Errorf("fastRows allocated %d bytes for a list of 10 rows", n)
	}
	l, err := decodeJobList(empty)
	if err != nil {
		t.Fatal(err)
	}
	if n := allocated(func() {
		if jobs := l.Expand(); len(jobs) != 10 {
			t.Errorf("Expand: %d jobs, want 10", len(jobs))
		}
	}); n > 1<<24 {
		t.Errorf("Expand allocated %d bytes for a list of 10 jobs", n)
	}

	// Two arrays of 600 elements each, with a budget of 1,000 rows: the
	// list stops at 1,000 elements.
	defer func(m int) { maxRows = m }(maxRows)
	maxRows = 1000
	big := []byte(`{"entries":[` +
		`{"job":{"id":1,"name":"a"},"rows":{"n":600,"i":[1,1,600],"s":[1,600],"r":[1,600]}},` +
		`{"job":{"id":2,"name":"b"},"rows":{"n":600,"i":[1,1,600],"s":[1,600],"r":[1,600]}}` +
		`],"strings":["PEND"]}`)
	rows, ok := fastRows(big)
	if !ok || len(rows) != 2+1000 {
		t.Errorf("fastRows: %d rows, ok %v; want %d", len(rows), ok, 2+1000)
	}
	l, err = decodeJobList(big)
	if err != nil {
		t.Fatal(err)
	}
	if jobs := l.Expand(); len(jobs) != 2+1000 {
		t.Errorf("Expand: %d jobs, want %d", len(jobs), 2+1000)
	}
}

// TestJobListJSONMarshal encodes a streamed list with encoding/json: the
// list itself, not its bytes.
func TestJobListJSONMarshal(t *testing.T) {
	var b JobListBuilder
	b.Stream(1)
	b.Add(&Job{ID: 7, User: "u"})
	text, err := b.JSON()
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(struct {
		L JobListJSON `json:"l"`
	}{text})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"l":` + string(text) + `}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
	if out, _ := json.Marshal(JobListJSON(nil)); string(out) != "null" {
		t.Errorf("an empty list: got %s, want null", out)
	}
}
