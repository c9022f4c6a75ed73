package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestReservationOverReconfig checks that a reservation is made anew by
// every cycle, keeps its beginning over badmin reconfig, and is given
// up, for one session, MAX_RESERVE_TIME × MBD_SLEEP_TIME after it began:
// a 2-slot job waits behind a running 1-slot job on a host of 2 slots
// and reserves the free slot; a 1-slot job behind it does not get it
// until the reservation runs out.
func TestReservationOverReconfig(t *testing.T) {
	conf := `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default 2
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
MBD_SLEEP_TIME = 60
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
SLOT_RESERVE = MAX_RESERVE_TIME[3]
End Queue
`
	c, err := runtime.NewCluster(policyOf(t, conf), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	if _, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Slots: 1, RunLimit: 3600}); err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	wide, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", Slots: 2})
	narrow, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", Slots: 1})
	p := e.Schedule()
	if len(p.Dispatches) != 0 || len(p.Reservations) != 1 || p.Reservations[0].Job != wide {
		t.Fatalf("first cycle: %d dispatched, %d reservations; want the wide job's reservation alone", len(p.Dispatches), len(p.Reservations))
	}
	r := wide.Reservation
	if r == nil || r.Slots() != 1 || r.Since != 1000 || r.Start != 1000+3600 {
		t.Fatalf("reservation %+v: want 1 slot since 1000, predicted start 4600", r)
	}
	if n, _ := c.Host("hostA").Reserved(); n != 1 {
		t.Errorf("hostA reserves %d slots, want 1", n)
	}

	// badmin reconfig at 1100: the reservation goes on from 1000.
	clock.T = 1100
	n, _, err := c.Reconfigure(policyOf(t, conf), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e.Cluster = n
	p = e.Schedule()
	wide, narrow = n.Job(wide.ID), n.Job(narrow.ID)
	if len(p.Dispatches) != 0 || wide.Reservation == nil || wide.Reservation.Since != 1000 {
		t.Fatalf("after reconfig: %d dispatched, reservation %+v; want it still, since 1000", len(p.Dispatches), wide.Reservation)
	}

	// At 1000 + 3 × 60 it runs out: the slot goes to the narrow job.
	clock.T = 1180
	p = e.Schedule()
	if len(p.Released) != 1 || p.Released[0] != wide || len(p.Dispatches) != 1 || p.Dispatches[0].Job != narrow {
		t.Fatalf("at 1180: released %v, %d dispatched; want the wide job's reservation given up and the narrow job started", p.Released, len(p.Dispatches))
	}
	if wide.Reservation != nil {
		t.Errorf("the wide job still shows a reservation after giving it up")
	}
}
