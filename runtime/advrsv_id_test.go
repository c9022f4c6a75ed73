package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestRsvIDNotReused: the ID of a deleted reservation that a pending job
// still names is neither given to a new reservation nor taken by name,
// which would put the job in a reservation it was not submitted to.
func TestRsvIDNotReused(t *testing.T) {
	c := benchClusterFiles(t, 2, nil)
	rsv := runtime.AdvRsv{ID: "ann#0", Creator: "admin", Users: []string{"ann"}, Begin: 0, End: 7200,
		Hosts: []runtime.RsvSlots{{Host: c.Hosts[0].Name, Slots: 4}}}
	if w := c.PutAdvRsv(rsv); w != "" {
		t.Fatal(w)
	}
	if _, err := c.Submit(runtime.Submission{User: "ann", Slots: 1, Reservation: "ann#0", Hold: true}, 1); err != nil {
		t.Fatal(err)
	}
	if !c.DeleteAdvRsv("ann#0") {
		t.Fatal("ann#0 not deleted")
	}
	if id := c.NextRsvID("ann"); id == "ann#0" {
		t.Errorf("NextRsvID = %s, the ID a pending job names", id)
	}
	if !c.RsvIDTaken("ann#0") {
		t.Error("RsvIDTaken(ann#0) = false with a pending job naming it")
	}
	if c.RsvIDTaken("ann#1") {
		t.Error("RsvIDTaken(ann#1) = true")
	}
}
