package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// element returns element idx of array 7 as the daemon lists it.
func element(idx int, state, reason string) Job {
	return Job{ID: ElementID(7, idx), Index: idx, Array: "a[1-20]%2", Name: "a[" + strconv.Itoa(idx) + "]", User: "ann",
		Queue: "normal", State: state, Reason: reason, Command: "run", Slots: 1, Submit: 100, Project: "default"}
}

func TestJobListRoundTrip(t *testing.T) {
	jobs := []Job{{ID: 3, User: "ann", Queue: "normal", State: "RUN", Name: "plain", ExecHosts: []string{"h1"}, Start: 50}}
	for i := 1; i <= 9; i++ {
		jobs = append(jobs, element(i, "PEND", "Job dependency condition not satisfied"))
	}
	jobs[2].State, jobs[2].Reason, jobs[2].Start, jobs[2].ExecHosts, jobs[2].ExecCwd = "RUN", "", 120, []string{"h2"}, "/tmp"
	jobs[3].State, jobs[3].Reason, jobs[3].Start, jobs[3].End, jobs[3].ExitCode, jobs[3].Term = "EXIT", "", 120, 130, 3, "TERM_OWNER"
	jobs[5].Priority = 9 // bmod changed this element: it starts an entry of its own
	jobs = append(jobs, element(12, "PSUSP", "held"), element(15, "PSUSP", "held"), element(20, "PEND", ""))
	l := CompactJobs(jobs)
	if len(l.Entries) >= len(jobs) {
		t.Errorf("%d entries for %d jobs: nothing was made rows", len(l.Entries), len(jobs))
	}
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back JobList
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	got := back.Expand()
	if !reflect.DeepEqual(got, jobs) {
		t.Errorf("Expand(CompactJobs(jobs)) differs:\n got %+v\nwant %+v", got, jobs)
	}
	// A listing's rows, read straight from the list, arrays expanded.
	if rows, ok := fastRows(data); !ok || !reflect.DeepEqual(rows, rowsOf(jobs)) {
		t.Errorf("fastRows (read %v) differs:\n got %+v\nwant %+v", ok, rows, rowsOf(jobs))
	}
	if empty := (&JobListBuilder{}).List(); empty.Entries == nil || len(empty.Expand()) != 0 {
		t.Errorf("an empty list: %+v", empty)
	}
}

// TestJobListFields checks that every field of Job is either carried by
// a row or compared by sameShared: a field added to Job and forgotten
// here would be lost for every element but an entry's first.
func TestJobListFields(t *testing.T) {
	rowFields := []string{"ID", "Index", "Name", "State", "Reason", "Start", "End", "ExitCode", "Term", "ExecHosts",
		"CPUTime", "MaxMem", "ExecCwd", "Exceptions"}
	base := element(1, "PEND", "r")
	typ := reflect.TypeFor[Job]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if slices.Contains(rowFields, f.Name) {
			continue
		}
		other := element(2, "PEND", "r")
		v := reflect.ValueOf(&other).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			m.SetMapIndex(reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem())
			v.Set(m)
		default:
			t.Fatalf("field %s of kind %s: extend this test", f.Name, v.Kind())
		}
		if sameShared(&base, &other) {
			t.Errorf("Job.%s is neither a row's field nor compared by sameShared", f.Name)
		}
	}
}
