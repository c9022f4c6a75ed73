package runtime

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime/api"
)

// Advance reservations (brsvadd, bsub -U).
//
// An advance reservation holds slots on hosts for some users over a time:
// once, from Begin to End, or again and again in a recurring window
// (brsvadd -t, daily or weekly, in the cluster's time). While it is
// active, the slots it holds are for the jobs submitted to it (bsub -U)
// alone: other jobs do not use those its jobs leave unused. Before it
// becomes active its slots are lent only to jobs whose run limit (or
// estimated run time) ends before it starts, so that nothing is in its
// way when it does. A job submitted to a reservation runs on its hosts
// only, and only while it is active; before that it pends. When a closed
// reservation (the default) ends, the jobs still running in it are
// killed; those of an open one (brsvadd -o) run on as ordinary jobs. A
// system reservation (brsvadd -s) is for no job: its hosts' slots are
// kept empty while it is active.
//
// The reservations are part of the cluster's state, as its jobs are (the
// daemon logs them); what a cycle makes of them is derived from them and
// the time alone.

// An AdvRsv is an advance reservation. Its stored fields are named by
// their JSON tags, which are part of the event log's format.
type AdvRsv struct {
	ID      string `json:"ID"`
	Creator string `json:"Creator"`
	// Users are the users and user groups whose jobs may use it; none
	// for a system reservation.
	Users  []string `json:"Users,omitempty"`
	System bool     `json:"System,omitempty"`
	Open   bool     `json:"Open,omitempty"`
	// Hosts are the slots it holds, host by host.
	Hosts []RsvSlots `json:"Hosts"`
	// Begin and End bound a one-time reservation; Window is a recurring
	// one's.
	Begin  Time            `json:"Begin,omitempty"`
	End    Time            `json:"End,omitempty"`
	Window *compile.Window `json:"Window,omitempty"`
	Desc   string          `json:"Desc,omitempty"`
}

// RsvSlots are the slots a reservation holds on one host.
type RsvSlots struct {
	Host  string `json:"Host"`
	Slots int    `json:"Slots"`
}

// RsvWindow returns the recurring window brsvadd -t gives, as
// api.ParseRsvWindow reads it.
func RsvWindow(from, to api.RsvClock) *compile.Window {
	return &compile.Window{From: compile.Clock{Day: from.Day, Hour: from.Hour, Minute: from.Minute},
		To: compile.Clock{Day: to.Day, Hour: to.Hour, Minute: to.Minute}}
}

// WindowText writes a recurring window as brsvs shows it.
func WindowText(w *compile.Window) string {
	c := func(k compile.Clock) api.RsvClock { return api.RsvClock{Day: k.Day, Hour: k.Hour, Minute: k.Minute} }
	return api.FormatRsvWindow(c(w.From), c(w.To))
}

// Slots returns the slots the reservation holds on all its hosts.
func (r *AdvRsv) Slots() int {
	n := 0
	for _, h := range r.Hosts {
		n += h.Slots
	}
	return n
}

// ActiveAt reports whether the reservation is active at t.
func (r *AdvRsv) ActiveAt(t Time) bool {
	if r.Window != nil {
		return windowOpen([]compile.Window{*r.Window}, t)
	}
	return t >= r.Begin && t < r.End
}

// Expired reports whether a one-time reservation has ended by t.
func (r *AdvRsv) Expired(t Time) bool { return r.Window == nil && t >= r.End }

// NextChange returns when the reservation next becomes active or ends
// after t; Never when it never changes again.
func (r *AdvRsv) NextChange(t Time) Time {
	if r.Window != nil {
		return nextWindowChange([]compile.Window{*r.Window}, t)
	}
	switch {
	case t < r.Begin:
		return r.Begin
	case t < r.End:
		return r.End
	}
	return Never
}

// nextStart returns when the reservation next becomes active after t,
// t itself when it is active, Never when it never will be.
func (r *AdvRsv) nextStart(t Time) Time {
	if r.ActiveAt(t) {
		return t
	}
	if r.Window != nil {
		return nextWindowChange([]compile.Window{*r.Window}, t)
	}
	if t < r.Begin {
		return r.Begin
	}
	return Never
}

// RsvAllows reports whether a user's jobs may use a reservation.
func (c *Cluster) RsvAllows(r *AdvRsv, user string) bool {
	if r.System {
		return false
	}
	items := make([]compile.UserItem, len(r.Users))
	for i, u := range r.Users {
		items[i] = compile.UserItem{Name: u}
	}
	return UsersInclude(items, c.Policy, user)
}

// AdvRsvs returns the advance reservations, by ID.
func (c *Cluster) AdvRsvs() []*AdvRsv { return c.advRsvs }

// AdvRsv returns the reservation of an ID, or nil.
func (c *Cluster) AdvRsv(id string) *AdvRsv {
	for _, r := range c.advRsvs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// PutAdvRsv adds a reservation, or replaces the one of its ID, as it is:
// its checks are CheckAdvRsv's. Hosts the cluster does not have (any
// more) are left out, and said so.
func (c *Cluster) PutAdvRsv(r AdvRsv) (warning string) {
	var kept []RsvSlots
	var gone []string
	for _, h := range r.Hosts {
		if c.hostByName[h.Host] == nil {
			gone = append(gone, h.Host)
			continue
		}
		kept = append(kept, h)
	}
	r.Hosts = kept
	if len(gone) > 0 {
		warning = fmt.Sprintf("advance reservation %s: host %s is gone", r.ID, strings.Join(gone, ", "))
	}
	nr := &r
	if i := slices.IndexFunc(c.advRsvs, func(o *AdvRsv) bool { return o.ID == r.ID }); i >= 0 {
		c.advRsvs[i] = nr
		return warning
	}
	c.advRsvs = append(c.advRsvs, nr)
	slices.SortFunc(c.advRsvs, func(a, b *AdvRsv) int { return compareRsvIDs(a.ID, b.ID) })
	return warning
}

// CheckRsvRecord checks what a reservation read back from the event log
// holds: slots on each host, clocks in range, one-time times in order.
func CheckRsvRecord(r *AdvRsv) error {
	for _, h := range r.Hosts {
		if h.Slots <= 0 {
			return fmt.Errorf("%d slots on host %s", h.Slots, h.Host)
		}
	}
	if w := r.Window; w != nil {
		for _, k := range []compile.Clock{w.From, w.To} {
			if k.Day < -1 || k.Day > 6 || k.Hour < 0 || k.Hour > 23 || k.Minute < 0 || k.Minute > 59 {
				return fmt.Errorf("window %s out of range", w)
			}
		}
		if (w.From.Day < 0) != (w.To.Day < 0) {
			return fmt.Errorf("window %s has days at one end only", w)
		}
		return nil
	}
	if r.End <= r.Begin {
		return fmt.Errorf("it ends (%v) before it begins (%v)", float64(r.End), float64(r.Begin))
	}
	return nil
}

// compareRsvIDs orders reservation IDs by name, then by number.
func compareRsvIDs(a, b string) int {
	an, ai, _ := strings.Cut(a, "#")
	bn, bi, _ := strings.Cut(b, "#")
	if d := cmp.Compare(an, bn); d != 0 {
		return d
	}
	x, _ := strconv.Atoi(ai)
	y, _ := strconv.Atoi(bi)
	if d := cmp.Compare(x, y); d != 0 {
		return d
	}
	return cmp.Compare(a, b)
}

// DeleteAdvRsv removes a reservation. Its jobs are detached from it: the
// pending ones wait as ordinary jobs, the started ones run on.
func (c *Cluster) DeleteAdvRsv(id string) bool {
	i := slices.IndexFunc(c.advRsvs, func(o *AdvRsv) bool { return o.ID == id })
	if i < 0 {
		return false
	}
	c.advRsvs = slices.Delete(c.advRsvs, i, i+1)
	return true
}

// DropEndedRsvs forgets the one-time reservations that ended and that no
// unfinished job names: nothing can use them any more, and a snapshot
// leaves them out.
func (c *Cluster) DropEndedRsvs(now Time) {
	if len(c.advRsvs) == 0 {
		return
	}
	named := c.rsvNamed()
	c.advRsvs = slices.DeleteFunc(c.advRsvs, func(r *AdvRsv) bool { return r.Expired(now) && !named[r.ID] })
}

// NextRsvID returns the ID a new reservation named name gets: name#N
// with the least N not in use.
func (c *Cluster) NextRsvID(name string) string {
	named := c.rsvNamed()
	for n := 0; ; n++ {
		id := name + "#" + strconv.Itoa(n)
		if c.AdvRsv(id) == nil && !named[id] {
			return id
		}
	}
}

// RsvIDTaken reports whether a new reservation may not take an ID: a
// reservation has it, or an unfinished job names it still (its
// reservation was deleted, and a new one of the ID would take the job
// in).
func (c *Cluster) RsvIDTaken(id string) bool {
	return c.AdvRsv(id) != nil || c.rsvNamed()[id]
}

// rsvNamed returns the reservation IDs unfinished jobs name.
func (c *Cluster) rsvNamed() map[string]bool {
	named := map[string]bool{}
	for _, j := range c.Jobs() {
		if j.Sub.Reservation != "" && !j.State.Finished() {
			named[j.Sub.Reservation] = true
		}
	}
	return named
}

// RsvJobs returns the unfinished jobs submitted to a reservation.
func (c *Cluster) RsvJobs(id string) []*Job {
	var out []*Job
	for _, j := range c.Jobs() {
		if j.Sub.Reservation == id && !j.State.Finished() {
			out = append(out, j)
		}
	}
	return out
}

// RsvUsed returns the slots a reservation's started jobs use on a host.
func (c *Cluster) RsvUsed(r *AdvRsv, host string) int {
	h := c.hostByName[host]
	if h == nil {
		return 0
	}
	n := 0
	for _, j := range h.jobs {
		if j.Sub.Reservation != r.ID || !j.State.Started() {
			continue
		}
		for _, a := range j.Allocs {
			if a.Host == h {
				n += a.Slots
			}
		}
	}
	return n
}

// rsvPeriod is LSF's grain of reservation times: a day is 144 periods
// of ten minutes, and a reservation holds every period it touches.
const rsvPeriod = 600

// periodsPerWeek is the number of ten-minute periods in a week.
const periodsPerWeek = 7 * 24 * 6

// weekPeriods marks the periods of the week a recurring window touches.
func weekPeriods(w compile.Window) []bool {
	out := make([]bool, periodsPerWeek)
	for m := range minutesPerWeek {
		if inWindow(w, m) {
			out[m/10] = true
		}
	}
	return out
}

// periodOfWeek returns the period of the week absolute period p falls in.
func periodOfWeek(p int64) int {
	st := Time(p * rsvPeriod).Std()
	return minuteOfWeek(int(st.Weekday()), st.Hour(), st.Minute()) / 10
}

// rsvOverlap reports whether two reservations hold some period in
// common.
func rsvOverlap(a, b *AdvRsv) bool {
	span := func(r *AdvRsv) (int64, int64) {
		return int64(math.Floor(float64(r.Begin) / rsvPeriod)), int64(math.Ceil(float64(r.End) / rsvPeriod))
	}
	switch {
	case a.Window == nil && b.Window == nil:
		a1, a2 := span(a)
		b1, b2 := span(b)
		return a1 < b2 && b1 < a2
	case a.Window != nil && b.Window != nil:
		aw, bw := weekPeriods(*a.Window), weekPeriods(*b.Window)
		for i := range aw {
			if aw[i] && bw[i] {
				return true
			}
		}
		return false
	case a.Window != nil:
		a, b = b, a
	}
	a1, a2 := span(a)
	bw := weekPeriods(*b.Window)
	for p := a1; p < a2 && p < a1+periodsPerWeek; p++ {
		if bw[periodOfWeek(p)] {
			return true
		}
	}
	return false
}

// TermRsvEnd is how a job of a closed advance reservation that ended is
// recorded: killed by the system, as an administrator's kill is.
const TermRsvEnd = "TERM_ADMIN"

// MinRsvLength is the shortest a reservation may be: ten minutes.
const MinRsvLength = 600

// An RsvError is why a reservation was refused, in LSF's words.
type RsvError struct{ Msg string }

func (e *RsvError) Error() string { return e.Msg }

// CheckAdvRsv checks a new or changed reservation against the cluster
// and the other reservations: its hosts exist, hold the slots it asks
// for, and no period of it asks, on a host, for more slots than the host
// has beside the other reservations of that period there. ignore is the
// ID of the reservation it replaces, "" for none.
func (c *Cluster) CheckAdvRsv(r *AdvRsv, now Time, ignore string) error {
	if err := CheckRsvTimes(r, now, ignore != ""); err != nil {
		return err
	}
	if len(r.Hosts) == 0 {
		return &RsvError{"Not enough processors to be reserved"}
	}
	for _, hs := range r.Hosts {
		h := c.hostByName[hs.Host]
		if h == nil {
			return &RsvError{fmt.Sprintf("%s: Bad host name", hs.Host)}
		}
		if hs.Slots <= 0 {
			return &RsvError{"Not enough processors to be reserved"}
		}
		if h.MaxSlots < 0 {
			continue
		}
		taken := 0
		for _, o := range c.advRsvs {
			if o.ID == ignore || o.ID == r.ID {
				continue
			}
			if o.Expired(now) || !rsvOverlap(r, o) {
				continue
			}
			for _, os := range o.Hosts {
				if os.Host == hs.Host {
					taken += os.Slots
				}
			}
		}
		if taken+hs.Slots > h.MaxSlots {
			return &RsvError{"Not enough processors to be reserved"}
		}
	}
	return nil
}

// CheckRsvTimes checks a one-time reservation's times: it begins later
// than now (unless changed, when it may have begun), ends after it
// begins, and lasts ten minutes at least.
func CheckRsvTimes(r *AdvRsv, now Time, changed bool) error {
	if r.Window != nil {
		return nil
	}
	switch {
	case r.Begin <= now && !changed:
		return &RsvError{"The begin time is not later than current time"}
	case r.End <= now:
		return &RsvError{"The end time is not later than current time"}
	case r.End <= r.Begin:
		return &RsvError{"The end time is not later than the begin time"}
	case r.End-r.Begin < MinRsvLength:
		return &RsvError{"An advance reservation must last at least 10 minutes"}
	}
	return nil
}

// RsvFreeSlots returns the slots of a host no other reservation holds
// over the periods r covers (r's own hosts aside), for placing a new
// reservation's slots; -1 for a host of unlimited slots.
func (c *Cluster) RsvFreeSlots(r *AdvRsv, host string, now Time, ignore string) int {
	h := c.hostByName[host]
	if h == nil {
		return 0
	}
	if h.MaxSlots < 0 {
		return -1
	}
	taken := 0
	for _, o := range c.advRsvs {
		if o.ID == ignore || o.Expired(now) || !rsvOverlap(r, o) {
			continue
		}
		for _, os := range o.Hosts {
			if os.Host == host {
				taken += os.Slots
			}
		}
	}
	return max(0, h.MaxSlots-taken)
}

// CheckRsvUse checks that a user's job may be submitted to reservation
// id (bsub -U), and says why not in LSF's words: one that ended is gone.
// now is when the job is submitted.
func (c *Cluster) CheckRsvUse(id, user string, now Time) error {
	r := c.AdvRsv(id)
	if r == nil || r.Expired(now) {
		return &RsvError{"Bad reservation ID"}
	}
	if !c.RsvAllows(r, user) {
		return &RsvError{"User has no permission to use the advance reservation"}
	}
	return nil
}

// advCycle is what a cycle makes of the reservations.
type advCycle struct {
	byID map[string]*advState
	// onHost holds, by host index, what the reservations hold on the
	// host.
	onHost [][]*advHost
}

// advState is one reservation in a cycle: whether it is active, when it
// next starts, and what it holds on each of its hosts.
type advState struct {
	r      *AdvRsv
	active bool
	start  Time
	hosts  map[int]*advHost
}

// advHost is what a reservation holds on one host in a cycle: its slots,
// and those its jobs use (the cycle's dispatches counted).
type advHost struct {
	s           *advState
	slots, used int
}

// planAdvRsv reads the reservations for the cycle: which are active,
// what their jobs use, and which started jobs a closed reservation that
// ended leaves behind (they are killed); the cycle wakes when one
// changes. Without reservations it does nothing.
func (c *cycle) planAdvRsv() {
	c.adv = nil
	cl := c.cluster
	if len(cl.advRsvs) == 0 {
		return
	}
	a := &advCycle{byID: map[string]*advState{}, onHost: make([][]*advHost, len(cl.Hosts))}
	for _, r := range cl.advRsvs {
		if r.Expired(c.now) && !c.rsvHasStarted(r) {
			continue
		}
		st := &advState{r: r, active: r.ActiveAt(c.now), start: r.nextStart(c.now), hosts: map[int]*advHost{}}
		a.byID[r.ID] = st
		c.wakeAt(r.NextChange(c.now))
		for _, hs := range r.Hosts {
			h := cl.hostByName[hs.Host]
			if h == nil {
				continue
			}
			ah := st.hosts[h.Index]
			if ah == nil {
				ah = &advHost{s: st}
				st.hosts[h.Index] = ah
				a.onHost[h.Index] = append(a.onHost[h.Index], ah)
			}
			ah.slots += hs.Slots
			for _, j := range h.jobs {
				if j.Sub.Reservation != r.ID || !j.State.Started() {
					continue
				}
				if !st.active && !r.Open && !slices.Contains(c.plan.RsvKills, j) {
					// A closed reservation ended: its jobs end with it,
					// and are no preemption's victims (nor grow) in this
					// cycle. Their slots stay taken until they end.
					c.plan.RsvKills = append(c.plan.RsvKills, j)
					if c.victims == nil {
						c.victims = map[*Job]bool{}
					}
					c.victims[j] = true
					continue
				}
				for _, al := range j.Allocs {
					if al.Host == h {
						ah.used += al.Slots
					}
				}
			}
		}
	}
	c.adv = a
}

// rsvHasStarted reports whether a reservation has started jobs.
func (c *cycle) rsvHasStarted(r *AdvRsv) bool {
	for _, hs := range r.Hosts {
		if h := c.cluster.hostByName[hs.Host]; h != nil {
			for _, j := range h.jobs {
				if j.Sub.Reservation == r.ID && j.State.Started() {
					return true
				}
			}
		}
	}
	return false
}

// advTook counts the slots a job the cycle dispatched takes of its
// reservation.
func (c *cycle) advTook(j *Job, allocs []Alloc) {
	if c.adv == nil || j.Sub.Reservation == "" {
		return
	}
	st := c.adv.byID[j.Sub.Reservation]
	if st == nil {
		return
	}
	for _, al := range allocs {
		if ah := st.hosts[al.Host.Index]; ah != nil {
			ah.used += al.Slots
		}
	}
}

// advRsvLimiter keeps reserved slots for their reservations' jobs, and
// those jobs to their reservations.
type advRsvLimiter struct{}

func (advRsvLimiter) Name() string { return "ADVANCE_RESERVATION" }
func (advRsvLimiter) Room(st CycleState, kv ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, k, j, h := st.c, kv.k, jv.j, hv.h
	if c.adv == nil {
		return math.MaxInt32, ReasonNone
	}
	if k.rsv != "" {
		if s := c.adv.byID[k.rsv]; s != nil {
			if !s.active {
				return 0, ReasonHostRsvInactive
			}
			for _, ah := range c.adv.onHost[h.Index] {
				if ah.s == s {
					return ah.slots - ah.used, ReasonHostRsvFull
				}
			}
			return 0, ReasonHostNotInRsv
		}
		if c.cluster.AdvRsv(k.rsv) != nil {
			// Expired without jobs: nothing more runs in it.
			return 0, ReasonHostRsvInactive
		}
		// A deleted reservation: its jobs wait as ordinary ones.
	}
	rs := c.adv.onHost[h.Index]
	if len(rs) == 0 || h.MaxSlots < 0 {
		return math.MaxInt32, ReasonNone
	}
	held := 0
	for _, ah := range rs {
		switch s := ah.s; {
		case s.active:
			held += max(0, ah.slots-ah.used)
		case j != nil && s.start < Never && !endsBefore(j, c.now, s.start):
			held += ah.slots
		}
	}
	if held == 0 {
		return math.MaxInt32, ReasonNone
	}
	room := c.mxjRoom(k.queue, h)
	if c.probe {
		room += c.preemptBonus(k.queue, h)
	}
	return room - held, ReasonHostAdvRsv
}

// endsBefore reports whether a job started now ends, by its run limit or
// estimated run time, no later than t.
func endsBefore(j *Job, now, t Time) bool {
	l := j.runEstimate()
	return l > 0 && now.Add(l) <= t
}

// rsvInactive tells, for a class of jobs submitted to a reservation that
// is not active, the reason its jobs wait; ReasonNone otherwise.
func (c *cycle) rsvInactive(k *jobClass) Reason {
	if k.rsv == "" || c.adv == nil {
		return ReasonNone
	}
	if s := c.adv.byID[k.rsv]; s != nil && s.active {
		return ReasonNone
	}
	if c.cluster.AdvRsv(k.rsv) == nil {
		return ReasonNone
	}
	return ReasonRsvInactive
}
