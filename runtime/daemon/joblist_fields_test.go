package daemon_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestJobListFields lists jobs with the fields the default layout of
// bjobs reads: those are as in the full list, the others are empty, and
// a field that jobs do not have is refused.
func TestJobListFields(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	c := api.Dial(state)
	ctx := context.Background()
	for _, req := range []*api.SubmitRequest{
		{Command: "sleep 1", Hold: true, Cwd: os.TempDir(), Name: "one"},
		{Command: "true", Hold: true, Cwd: os.TempDir(), Name: "arr[1-4]"},
	} {
		if _, err := c.Submit(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	full, err := c.Jobs(ctx, api.JobQuery{User: "all"})
	if err != nil {
		t.Fatal(err)
	}
	fields := []string{"user", "state", "submitTime"}
	few, err := c.Jobs(ctx, api.JobQuery{User: "all", Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != 5 || len(few) != len(full) {
		t.Fatalf("%d jobs in the full list, %d with few fields; want 5", len(full), len(few))
	}
	for i, j := range full {
		want := api.Job{ID: j.ID, Index: j.Index, Array: j.Array, Name: j.Name, User: j.User, State: j.State, Submit: j.Submit}
		if !reflect.DeepEqual(few[i], want) {
			t.Errorf("job %d with the fields %q: %+v, want %+v", j.ID, fields, few[i], want)
		}
		if j.Command == "" || j.Cwd == "" {
			t.Errorf("job %d in the full list has no command or cwd: %+v", j.ID, j)
		}
	}
	// The rows of a listing (bjobs's default layout), the array's
	// elements as rows of its entry.
	rows, err := c.JobRows(ctx, api.JobQuery{User: "all"})
	if err != nil || len(rows) != len(full) {
		t.Fatalf("%d rows (%v), want %d", len(rows), err, len(full))
	}
	for i := range full {
		if want := api.RowOf(&full[i]); !reflect.DeepEqual(rows[i], want) {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want)
		}
	}
	if code, err := unixClient(state).call("GET", "/v1/jobs?user=all&compact=1&fields=user,nofield", nil, nil); code != 400 {
		t.Errorf("a field jobs do not have: %d %v, want a refusal (400)", code, err)
	}
	// A client asking a daemon for a field it does not know asks again
	// for whole jobs.
	if again, err := c.Jobs(ctx, api.JobQuery{User: "all", Fields: []string{"user", "nofield"}}); err != nil || !reflect.DeepEqual(again, full) {
		t.Errorf("a field the daemon does not know: %v, want the whole jobs", err)
	}
}

// TestJobListEachField lists jobs with each field of a job alone: the
// field is as in the full list, though the daemon makes only the fields a
// listing asks for.
func TestJobListEachField(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	c := api.Dial(state)
	ctx := context.Background()
	for _, req := range []*api.SubmitRequest{
		{Command: "sleep 1", Hold: true, Cwd: os.TempDir(), Name: "one", Project: "p1", Description: "d"},
		{Command: "true", Hold: true, Cwd: os.TempDir(), Name: "arr[1-2]", JobGroup: "/g/h"},
	} {
		if _, err := c.Submit(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	full, err := c.Jobs(ctx, api.JobQuery{User: "all"})
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[api.Job]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		few, err := c.Jobs(ctx, api.JobQuery{User: "all", Fields: []string{name}})
		if err != nil {
			t.Fatalf("fields=%s: %v", name, err)
		}
		if len(few) != len(full) {
			t.Fatalf("fields=%s: %d jobs, want %d", name, len(few), len(full))
		}
		for k := range full {
			got, want := reflect.ValueOf(few[k]).Field(i).Interface(), reflect.ValueOf(full[k]).Field(i).Interface()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("job %d, fields=%s: %#v, want %#v", full[k].ID, name, got, want)
			}
		}
	}
}
