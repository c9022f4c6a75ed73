package runtime

import (
	"slices"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestJobOrder checks the cluster's list of jobs in the order they came
// (order): JobsWhere gives them in ID order whatever order they came in,
// each once, without the jobs dropped, and the list lets go of dropped
// jobs once they are half of it even when no one walks it.
func TestJobOrder(t *testing.T) {
	c := &Cluster{jobs: map[int64]*Job{}}
	ids := func(jobs []*Job) []int64 {
		var out []int64
		for _, j := range jobs {
			out = append(out, j.ID)
		}
		return out
	}
	all := func(*Job) bool { return true }
	put := func(id int64) *Job {
		j := &Job{ID: id}
		c.putJob(j)
		return j
	}
	// Out of ID order (a restart's restore, IDs that wrapped), and the
	// elements of an array by index.
	for _, id := range []int64{5, 1, api.ElementID(3, 7), api.ElementID(3, 2), 4} {
		put(id)
	}
	want := []int64{1, api.ElementID(3, 2), api.ElementID(3, 7), 4, 5}
	if got := ids(c.JobsWhere(all)); !slices.Equal(got, want) {
		t.Fatalf("JobsWhere = %v, want %v", got, want)
	}
	// A job held under a new ID (an array's first job becoming its
	// first element) is listed once, under it.
	j := put(6)
	delete(c.jobs, 6)
	j.ID = api.ElementID(6, 1)
	c.putJob(j)
	// A job dropped and held again before a walk is listed once.
	k := put(7)
	c.dropJob(k)
	c.putJob(k)
	want = append(want, api.ElementID(6, 1), 7)
	if got := ids(c.JobsWhere(all)); !slices.Equal(got, want) {
		t.Fatalf("JobsWhere = %v, want %v", got, want)
	}
	if got := ids(c.JobsWhere(func(j *Job) bool { return j.ID < 100 && j.ID%2 == 1 })); !slices.Equal(got, []int64{1, 5, 7}) {
		t.Errorf("JobsWhere(odd) = %v, want [1 5 7]", got)
	}
	// Dropped, most of them, with no walk: the list keeps at most twice
	// the jobs held.
	c = &Cluster{jobs: map[int64]*Job{}}
	var jobs []*Job
	for id := range int64(1000) {
		jobs = append(jobs, put(id+1))
	}
	for _, j := range jobs[:900] {
		c.dropJob(j)
		if len(c.order) > 2*len(c.jobs)+1 {
			t.Fatalf("the list holds %d jobs for %d held", len(c.order), len(c.jobs))
		}
	}
	if got := c.JobsWhere(all); len(got) != 100 || got[0].ID != 901 || got[99].ID != 1000 {
		t.Errorf("JobsWhere gives %d jobs, %v, want 901 to 1000", len(got), ids(got))
	}
	if c.JobsWhere(func(*Job) bool { return false }) != nil {
		t.Error("JobsWhere(none) is not nil")
	}
}
