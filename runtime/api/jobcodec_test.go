package api

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// fullJob returns a job with every field set, its strings holding what
// JSON escapes.
func fullJob(id int64, text string) Job {
	var j Job
	fill(reflect.ValueOf(&j).Elem(), text)
	j.ID = id
	return j
}

// fill sets every field of v, recursively, to something not zero.
func fill(v reflect.Value, text string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(text + v.Type().Name())
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(2.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), text)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), text)
		}
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), text)
		v.Set(p)
	}
}

// TestJobFieldsTable checks that jobFields names every field of Job by
// its JSON name and points at it, and that a mask clears each kind.
func TestJobFieldsTable(t *testing.T) {
	typ := reflect.TypeFor[Job]()
	if len(jobFields) != typ.NumField() {
		t.Errorf("jobFields has %d fields, Job %d", len(jobFields), typ.NumField())
	}
	var j Job
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p, ok := jobFields[name]
		if !ok {
			t.Errorf("jobFields does not name Job.%s (%q)", f.Name, name)
			continue
		}
		if got := reflect.ValueOf(p(&j)).Pointer(); got != reflect.ValueOf(&j).Elem().Field(i).Addr().Pointer() {
			t.Errorf("jobFields[%q] does not point at Job.%s", name, f.Name)
		}
	}
	full := fullJob(3, "x")
	m, err := ParseJobFieldMask("user")
	if err != nil {
		t.Fatal(err)
	}
	m.Apply(&full)
	want := Job{ID: 3, Index: 7, Array: "xstring", Name: "xstring", User: "xstring"}
	if !reflect.DeepEqual(full, want) {
		t.Errorf("masked to user: %+v, want %+v", full, want)
	}
	// Every field kept, each of its kind.
	var names []string
	for name := range jobFields {
		names = append(names, name)
	}
	all, err := ParseJobFieldMask(strings.Join(names, ","))
	if err != nil {
		t.Fatal(err)
	}
	full = fullJob(4, "y")
	kept := full
	all.Apply(&kept)
	if !reflect.DeepEqual(kept, full) {
		t.Errorf("masked to every field: %+v, want %+v", kept, full)
	}
	if _, err := ParseJobFieldMask("user,bogus"); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("a mask naming no field: %v", err)
	}
}

// sameAsJSON checks that decodeJobList reads data as encoding/json does.
func sameAsJSON(t *testing.T, data []byte) {
	t.Helper()
	var want JobList
	werr := json.Unmarshal(data, &want)
	got, gerr := decodeJobList(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", data, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nread      %+v\nencoding/json %+v", data, got, want)
	}
	// The jobs of a list without rows, read straight.
	if jobs, ok := fastJobs(data); ok {
		if werr != nil || !reflect.DeepEqual(jobs, want.Expand()) {
			t.Fatalf("%q: fastJobs read %+v, encoding/json %+v (%v)", data, jobs, want.Expand(), werr)
		}
	}
	// The rows of the jobs, read straight.
	if rows, ok := fastRows(data); ok {
		if werr != nil || !reflect.DeepEqual(rows, rowsOf(want.Expand())) {
			t.Fatalf("%q: fastRows read %+v, encoding/json %+v (%v)", data, rows, rowsOf(want.Expand()), werr)
		}
	}
}

// TestDecodeJobList reads lists as encoding/json reads them: every field
// filled, text JSON escapes, arrays' rows, nulls, empty lists, and what
// the fast reader leaves to encoding/json.
func TestDecodeJobList(t *testing.T) {
	var b JobListBuilder
	for i, text := range []string{"plain", "tab\there \"quoted\" \\ é ✓ \u2028 \x01"} {
		j := fullJob(int64(i+1), text)
		j.Index = 0
		b.Add(&j)
	}
	for idx := 1; idx <= 5; idx++ {
		j := Job{ID: ElementID(9, idx), Index: idx, Array: "[1-5]", Name: "a[" + string(rune('0'+idx)) + "]",
			User: "u", Queue: "q", State: "PEND", Command: "c", Slots: 1}
		if idx == 3 {
			j.State, j.Start, j.ExecHosts = "RUN", 100, []string{"h1", "h2"}
		}
		b.Add(&j)
	}
	list := b.List()
	data, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	sameAsJSON(t, data)
	var plain JobList
	if err := fastJobList(data, &plain); err != nil {
		t.Errorf("the fast reader left a list the daemon writes to encoding/json: %v", err)
	}
	for _, text := range []string{
		`{"entries":[]}`,
		`{"entries":null}`,
		` { "entries" : [ { "job" : { "id" : 1 , "user" : "a" , "execHosts" : [ ] } } ] } `,
		`{"entries":[{"job":{"id":1,"user":null,"reserved":null,"execHosts":null,"rerunnable":false}}]}`,
		`{"entries":[{"job":{"ID":1,"User":"a"}}]}`,
		`{"entries":[{"job":{"id":1,"unknown":{"a":[1,2]}}}],"other":1}`,
		`{"entries":[{"job":{"id":1.5}}]}`,
		`{"entries":[{"job":{"id":01}}]}`,
		`{"entries":[{"job":{"id":1e3}}]}`,
		`{"entries":[{"job":{"id":-0,"index":123456789012345678,"submitTime":1234567890123456789,"slots":-12}}]}`,
		`{"entries":[{"job":{"id":99999999999999999999}}]}`,
		`{"entries":[{"job":{"index":9223372036854775807,"submitTime":-9223372036854775808}}]}`,
		`{"entries":[{"job":{"id":1,"user":"a","queue":"q"}},{"job":{"id":2,"user":"a","queue":null,"state":"RUN"}}]}`,
		`{"entries":[{"job":{"cpuTime":1e3,"maxMem":-0.5}}]}`,
		`{"entries":[{"job":{"cpuTime":.5}}]}`,
		`{"entries":[{"job":{"id":1,}}]}`,
		`{"entries":[{"job":{"id":1}}]} x`,
		`{"entries":[{"job":{"id":"1"}}]}`,
		`{"entries":[{"job":{"rerunnable":truex}}]}`,
		`{"entries":[{"job":{"user":"a\u0041\ud83d\ude00"}}]}`,
		`{"entries":[{"job":{"user":"` + "\xff" + `"}}]}`,
		`{"entries":[{"job":{"id":1},"rows":{"n":2,"i":[1,1,2],"s":[1,2],"r":[0,2]}}],"strings":["PEND"]}`,
		`{"entries":[{"job":{"id":1},"rows":{"n":`,
		``,
		`[]`,
	} {
		sameAsJSON(t, []byte(text))
	}
}

// FuzzDecodeJobList reads any bytes as a list: the same jobs, or a
// failure, as encoding/json.
func FuzzDecodeJobList(f *testing.F) {
	j := fullJob(1, "a\"b")
	data, _ := json.Marshal(CompactJobs([]Job{j, {ID: 2, User: "u"}}))
	f.Add(data)
	f.Add([]byte(`{"entries":[{"job":{"id":1,"execHosts":["a","b"],"cpuTime":1.5e2}}],"strings":["x"]}`))
	f.Add([]byte(`{"entries":[{"job":{"id":1},"rows":{"n":2,"i":[1,1,2],"s":[1,2],"r":[0,2]}}]}`))
	f.Add([]byte(`{"entries":[{"job":{"id":1},"rows":{"n":10000000,"i":[],"s":[],"r":[]}},{"job":{"id":2},"rows":{"n":10000000}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsJSON(t, data)
	})
}

// sameAsEncoder checks that AppendJSON writes what an Encoder writes.
func sameAsEncoder(t *testing.T, l JobList) {
	t.Helper()
	var want bytes.Buffer
	werr := json.NewEncoder(&want).Encode(l)
	got, gerr := l.AppendJSON(nil)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("AppendJSON error %v, encoding/json's %v", gerr, werr)
	}
	if werr == nil && string(got)+"\n" != want.String() {
		t.Fatalf("AppendJSON wrote\n%s\nencoding/json\n%s", got, want.String())
	}
}

// TestAppendJSON writes lists as an Encoder writes them: every field
// filled, none, text to escape, floats of every form, arrays' rows.
func TestAppendJSON(t *testing.T) {
	sameAsEncoder(t, JobList{})
	sameAsEncoder(t, JobList{Entries: []JobEntry{}})
	var b JobListBuilder
	for i, text := range []string{"plain", "tab\there \"quoted\" \\ <b>&amp; é ✓ \u2028 \x01 \x7f \xff"} {
		j := fullJob(int64(i+1), text)
		j.Index = 0
		b.Add(&j)
	}
	for k, f := range []float64{0.5, 1e-7, 1e21, 123456789, -2.5e-9, 1e20, 3} {
		j := Job{ID: int64(10 + k), CPUTime: f, MaxMem: -f, ExecHosts: []string{}, HostReasons: []HostReason{}}
		b.Add(&j)
	}
	for idx := 1; idx <= 4; idx++ {
		j := Job{ID: ElementID(9, idx), Index: idx, Name: "a[" + strconv.Itoa(idx) + "]", State: "PEND"}
		if idx == 2 {
			j.State, j.ExecHosts = "RUN", []string{"h"}
		}
		b.Add(&j)
	}
	sameAsEncoder(t, b.List())
	if _, err := (JobList{Entries: []JobEntry{{Job: Job{CPUTime: math.NaN()}}}}).AppendJSON(nil); err == nil {
		t.Error("AppendJSON wrote a NaN")
	}
	jobs := b.List().Expand()
	sameStreamed(t, jobs, JobFieldMask{})
	sameStreamed(t, nil, JobFieldMask{})
	mask, _ := ParseJobFieldMask("user,state,execHosts,cpuTime")
	sameStreamed(t, jobs, mask)
	var s JobListBuilder
	s.Stream(3)
	s.Add(&Job{ID: 1})
	s.Add(&Job{ID: 2, MaxMem: math.Inf(1)})
	s.Add(&Job{ID: 3})
	if _, err := s.JSON(); err == nil {
		t.Error("a streamed list wrote an infinity")
	}
}

// sameStreamed checks that a list of jobs streamed (Stream), which
// writes the fields mask keeps, is written as the list of the jobs
// masked made whole is. (The elements of an array in jobs must differ
// only in what a row carries.)
func sameStreamed(t *testing.T, jobs []Job, mask JobFieldMask) {
	t.Helper()
	var whole, streamed JobListBuilder
	whole.Keep(mask)
	streamed.Keep(mask)
	streamed.Stream(len(jobs))
	for i := range jobs {
		j := jobs[i]
		streamed.Add(&j)
		mask.Apply(&j)
		whole.Add(&j)
	}
	want, werr := whole.List().AppendJSON(nil)
	got, gerr := streamed.JSON()
	if (werr == nil) != (gerr == nil) || string(got) != string(want) {
		t.Fatalf("streamed (%v)\n%s\nwhole (%v)\n%s", gerr, got, werr, want)
	}
}

// FuzzAppendJSON writes jobs whose text and numbers come from the fuzzer
// as an Encoder writes them.
func FuzzAppendJSON(f *testing.F) {
	f.Add("plain", "<&>\"\\", int64(1), 0.5, 1e-7)
	f.Add("\xff\x00\u2029", "", int64(-1), 1e21, 0.0)
	f.Fuzz(func(t *testing.T, s1, s2 string, n int64, f1, f2 float64) {
		j := fullJob(n, s1)
		j.Command, j.ExecHosts, j.CPUTime, j.MaxMem = s2, []string{s1, s2}, f1, f2
		sameAsEncoder(t, JobList{Entries: []JobEntry{{Job: j}, {Job: Job{ID: n, User: s2, RunLimit: f2}}}, Strings: []string{s1}})
		e := Job{ID: ElementID(n&jobIDMask, 1), Index: 1, Name: "a[1]", State: s1, ExecHosts: []string{s2}, CPUTime: f1}
		e2 := e
		e2.ID, e2.Index, e2.Name, e2.State = ElementID(n&jobIDMask, 2), 2, "a[2]", s2
		sameStreamed(t, []Job{j, e, e2, {ID: n, User: s2, RunLimit: f2}}, JobFieldMask{})
	})
}

// TestAppendJSONKept writes the list of a listing that sends some fields
// with those alone: it reads back as the jobs masked, and leaves out the
// fields encoding/json writes even empty.
func TestAppendJSONKept(t *testing.T) {
	mask, err := ParseJobFieldMask("user,state,execHosts,submitTime")
	if err != nil {
		t.Fatal(err)
	}
	var b JobListBuilder
	b.Keep(mask)
	var want []Job
	for i, text := range []string{"plain", "<b>\"q\" é"} {
		j := fullJob(int64(i+1), text)
		j.Index = 0
		mask.Apply(&j)
		want = append(want, j)
		b.Add(&j)
	}
	data, err := b.List().AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"slots"`, `"exitCode"`, `"command"`, `"queue"`} {
		if bytes.Contains(data, []byte(key)) {
			t.Errorf("%s written: %s", key, data)
		}
	}
	var back JobList
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Expand(); !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
	if rows, ok := fastRows(data); !ok || !reflect.DeepEqual(rows, rowsOf(want)) {
		t.Errorf("fastRows (read %v) %+v, want %+v", ok, rows, rowsOf(want))
	}
}
