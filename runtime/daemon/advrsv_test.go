package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/user"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	testclock "k8s.io/utils/clock/testing"
)

// reservations returns the daemon's advance reservations by ID.
func (c *client) reservations(t *testing.T) map[string]api.Rsv {
	t.Helper()
	var rs []api.Rsv
	if code, err := c.call("GET", "/v1/reservations", nil, &rs); err != nil || code != 200 {
		t.Fatalf("reservations: %d %v", code, err)
	}
	out := map[string]api.Rsv{}
	for _, r := range rs {
		out[r.ID] = r
	}
	return out
}

// TestAdvanceReservations checks brsvadd's checks and permissions, that
// bsub -U is refused for an unknown reservation or one not the user's,
// that a reservation's jobs run on its slots and other jobs keep off
// them, and that reservations survive restarts that replay the log and
// that read a snapshot.
func TestAdvanceReservations(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	for _, every := range []int{0, 2} {
		t.Run(fmt.Sprintf("compact=%d", every), func(t *testing.T) {
			p, err := compileTree(writeConf(t))
			if err != nil {
				t.Fatal(err)
			}
			state := t.TempDir()
			start := func() *daemon.Daemon {
				d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
					WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
					CompactEvery: every, Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			d := start()
			c := unixClient(state)
			alice := tcpClient(d.Addr(), "s3cret", "alice")
			change := func(c *client, req api.RsvRequest, want int) {
				t.Helper()
				var out api.ActionResponse
				if code, err := c.call("POST", "/v1/reservations", req, &out); err != nil || code != want {
					t.Fatalf("%+v: %d %v, want %d", req, code, err, want)
				}
			}
			h := time.Now().UTC().Hour()
			window := fmt.Sprintf("%d:0-%d:0", h, (h+2)%24)
			later := time.Now().Add(3 * time.Hour).Unix()
			mine := api.RsvRequest{Op: "add", Slots: 8, Hosts: []string{"hostA"}, Users: []string{me.Username}, Window: window}
			change(alice, mine, http.StatusForbidden)
			change(c, mine, 200)
			// The same slots again, in part or in another window that
			// overlaps: refused; on hostB, or later, they are free.
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostA"}, Users: []string{"boss"}, Window: window}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostA"}, Users: []string{"boss"},
				Begin: time.Now().Add(time.Hour).Unix(), End: later + 86400}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "add", Name: "boss1", Slots: 2, Hosts: []string{"hostB"}, Users: []string{"boss"},
				Begin: later, End: later + 3600}, 200)
			// Bad input: nothing is made.
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"nohost"}, Users: []string{"boss"}, Window: window}, http.StatusBadRequest)
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostB"}, Users: []string{"no such"}, Window: window}, http.StatusBadRequest)
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostB"}, Users: []string{"boss"}, Window: "8:0-8"}, http.StatusBadRequest)
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostB"}, Users: []string{"boss"}, Begin: later, End: later + 60}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "add", Slots: 1, Hosts: []string{"hostB"}, Users: []string{"boss"}, Begin: 1000, End: 5000}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "add", Name: "boss1", Slots: 1, Hosts: []string{"hostB"}, Users: []string{"boss"}, Window: "1:0-1:30"}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "add", Slots: 9, Hosts: []string{"hostB"}, Users: []string{"boss"}, Begin: later + 7200, End: later + 9000}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "frob"}, http.StatusBadRequest)
			id := me.Username + "#0"
			if rs := c.reservations(t); len(rs) != 2 || !rs[id].Active || rs["boss1"].Active {
				t.Fatalf("reservations %+v, want %s (active) and boss1", rs, id)
			}

			// bsub -U: refused for a reservation that is not there, or
			// not the user's.
			for _, rid := range []string{"nosuch#0", "boss1"} {
				var out api.SubmitResponse
				if code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Reservation: rid}, &out); err != nil || code != http.StatusBadRequest {
					t.Fatalf("bsub -U %s: %d %v, want 400", rid, code, err)
				}
			}
			in := c.submit(t, api.SubmitRequest{Command: "sleep 30", Reservation: id, Slots: 2, Stdout: "/dev/null"})
			if j := c.waitState(t, in.ID, "RUN"); j.ExecHosts[0] != "hostA" || j.Reservation != id {
				t.Fatalf("job %d runs on %v in %q, want hostA in %s", in.ID, j.ExecHosts, j.Reservation, id)
			}
			// Outside the reservation: 8 slots on hostB, with a run limit
			// ending before boss1 begins; hostA's 6 unused slots stay
			// free, and the next job waits.
			out := c.submit(t, api.SubmitRequest{Command: "sleep 30", Slots: 8, RunLimit: 600, Stdout: "/dev/null"})
			if j := c.waitState(t, out.ID, "RUN"); j.ExecHosts[0] != "hostB" {
				t.Fatalf("job %d runs on %v, want hostB", out.ID, j.ExecHosts)
			}
			waits := c.submit(t, api.SubmitRequest{Command: "true", RunLimit: 60})
			time.Sleep(50 * time.Millisecond)
			if j := c.job(t, waits.ID); j.State != "PEND" {
				t.Fatalf("job %d is %s, want PEND: hostA's slots are reserved", waits.ID, j.State)
			}

			check := func() {
				t.Helper()
				rs := c.reservations(t)
				r := rs[id]
				if len(rs) != 2 || r.Window != window || len(r.Hosts) != 1 || r.Hosts[0].Slots != 8 || r.Hosts[0].Used != 2 ||
					rs["boss1"].Begin != later {
					t.Fatalf("after a restart: %+v", rs)
				}
			}
			check()
			d.Close()
			<-d.Done()
			d = start()
			c = unixClient(state)
			alice = tcpClient(d.Addr(), "s3cret", "alice")
			check()
			change(alice, api.RsvRequest{Op: "del", IDs: []string{"boss1"}}, http.StatusForbidden)
			change(c, api.RsvRequest{Op: "mod", IDs: []string{"boss1"}, AddSlots: 9, Hosts: []string{"hostB"}}, http.StatusConflict)
			change(c, api.RsvRequest{Op: "mod", IDs: []string{"boss1"}, End: later + 7200}, 200)
			change(c, api.RsvRequest{Op: "del", IDs: []string{"boss1", "nosuch"}}, http.StatusBadRequest)
			if rs := c.reservations(t); rs["boss1"].End != later+7200 {
				t.Fatalf("boss1 after brsvmod -e and a refused brsvdel: %+v", rs["boss1"])
			}
			change(c, api.RsvRequest{Op: "del", IDs: []string{"boss1"}}, 200)
			d.Close()
			<-d.Done()
			d = start()
			c = unixClient(state)
			if rs := c.reservations(t); len(rs) != 1 {
				t.Fatalf("after brsvdel and a restart: %+v", rs)
			}
			// The jobs end before the test does, so that no wrapper still
			// writes in the state directory when it goes.
			for _, j := range []int64{in.ID, out.ID, waits.ID} {
				c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", j), api.ActionRequest{}, nil)
			}
			for _, j := range []int64{in.ID, out.ID, waits.ID} {
				c.waitState(t, j, "EXIT", "DONE")
			}
			d.Close()
			<-d.Done()
		})
	}
}

// TestReservationPolicy checks that a ResourceReservation policy of
// lsb.resources lets the users it names make reservations on its hosts
// within its time window, and change and delete their own only.
func TestReservationPolicy(t *testing.T) {
	conf := testkit.WriteArchive(t, testConf+`-- lsb.resources --
Begin ResourceReservation
NAME        = dayshift
USERS       = alice
HOSTS       = hostB
TIME_WINDOW = 8:00-18:00
End ResourceReservation
`)
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
		Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close(); <-d.Done() }()
	c := unixClient(state)
	alice := tcpClient(d.Addr(), "s3cret", "alice")
	bob := tcpClient(d.Addr(), "s3cret", "bob")
	change := func(c *client, req api.RsvRequest, want int) {
		t.Helper()
		var out api.ActionResponse
		if code, err := c.call("POST", "/v1/reservations", req, &out); err != nil || code != want {
			t.Fatalf("%+v: %d %v, want %d", req, code, err, want)
		}
	}
	change(alice, api.RsvRequest{Op: "add", Name: "day", Slots: 2, Hosts: []string{"hostB"}, Users: []string{"boss"}, Window: "9:0-17:0"}, 200)
	change(alice, api.RsvRequest{Op: "add", Name: "a", Slots: 2, Hosts: []string{"hostA"}, Users: []string{"boss"}, Window: "9:0-17:0"}, http.StatusForbidden)
	change(alice, api.RsvRequest{Op: "add", Name: "b", Slots: 2, Hosts: []string{"hostB"}, Users: []string{"boss"}, Window: "19:0-20:0"}, http.StatusForbidden)
	change(bob, api.RsvRequest{Op: "add", Name: "c", Slots: 2, Hosts: []string{"hostB"}, Users: []string{"boss"}, Window: "8:0-9:0"}, http.StatusForbidden)
	change(c, api.RsvRequest{Op: "add", Name: "admins", Slots: 2, Hosts: []string{"hostA"}, Users: []string{"boss"}, Window: "19:0-20:0"}, 200)
	change(bob, api.RsvRequest{Op: "del", IDs: []string{"day"}}, http.StatusForbidden)
	change(alice, api.RsvRequest{Op: "del", IDs: []string{"admins"}}, http.StatusForbidden)
	change(alice, api.RsvRequest{Op: "mod", IDs: []string{"day"}, Window: "10:0-17:0"}, 200)
	change(alice, api.RsvRequest{Op: "del", IDs: []string{"day"}}, 200)
	if rs := c.reservations(t); len(rs) != 1 || rs["admins"].ID == "" {
		t.Fatalf("reservations %+v, want admins alone", rs)
	}
}

// TestReservationEnd checks, on the daemon's clock, that the jobs of an
// advance reservation start when it begins, that a closed reservation
// kills its jobs still running when it ends (TERM_ADMIN), and that an
// open one lets them run on.
func TestReservationEnd(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	t0 := time.Unix(1_700_000_000, 0)
	clk := testclock.NewFakeClock(t0)
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond, Logf: t.Logf, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close(); <-d.Done() }()
	c := unixClient(state)
	begin, end := t0.Add(10*time.Minute).Unix(), t0.Add(30*time.Minute).Unix()
	for _, req := range []api.RsvRequest{
		{Op: "add", Name: "closed", Slots: 1, Hosts: []string{"hostA"}, Users: []string{me.Username}, Begin: begin, End: end},
		{Op: "add", Name: "open", Open: true, Slots: 1, Hosts: []string{"hostB"}, Users: []string{me.Username}, Begin: begin, End: end},
	} {
		if code, err := c.call("POST", "/v1/reservations", req, nil); err != nil || code != 200 {
			t.Fatalf("%+v: %d %v", req, code, err)
		}
	}
	closed := c.submit(t, api.SubmitRequest{Command: "sleep 3600", Reservation: "closed", Stdout: "/dev/null"}).ID
	open := c.submit(t, api.SubmitRequest{Command: "sleep 3600", Reservation: "open", Stdout: "/dev/null"}).ID
	stepUntil(t, clk, time.Second, "the job to wait for its reservation", func() bool {
		j := c.job(t, closed)
		return j.State == "PEND" && j.Reason == "The job's advance reservation is not active yet"
	})
	if now := clk.Now().Unix(); now >= begin {
		t.Fatalf("the clock reached the reservation's begin (%d) before the job was seen waiting for it", begin)
	}
	stepUntil(t, clk, 30*time.Second, "the jobs to start in their reservations", func() bool {
		return c.job(t, closed).State == "RUN" && c.job(t, open).State == "RUN"
	})
	if now := clk.Now().Unix(); now < begin {
		t.Fatalf("the jobs started at %d, before their reservations began at %d", now, begin)
	}
	stepUntil(t, clk, 30*time.Second, "the closed reservation's job to be killed", func() bool {
		return c.job(t, closed).State == "EXIT"
	})
	if j := c.job(t, closed); j.Term != "TERM_ADMIN" || clk.Now().Unix() < end {
		t.Errorf("job %d of the closed reservation ended %s at %d, want TERM_ADMIN at %d or later", closed, j.Term, clk.Now().Unix(), end)
	}
	if j := c.job(t, open); j.State != "RUN" {
		t.Errorf("job %d of the open reservation is %s after it ended, want RUN", open, j.State)
	}
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", open), api.ActionRequest{}, nil)
	stepUntil(t, clk, time.Second, "the open reservation's job to end", func() bool {
		return c.job(t, open).State == "EXIT"
	})
}
