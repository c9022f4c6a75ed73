// Package simstats computes the metrics of a simulation run of lsfc
// simulate — counts, makespan, utilisation, wait times, bounded
// slowdowns and preemptions overall, per queue and per user, a
// utilisation timeline, and for each slot pool the share of its slots
// each queue held against its SLOT_SHARE — and writes them as a text
// report, JSON, a side-by-side comparison of two runs, or one
// self-contained HTML page with charts.
//
// Times are seconds from the start of the trace. The metrics are the
// usual ones of the scheduling literature (Feitelson, "Metrics for
// parallel job scheduling"): wait = start − submit; run = end − start;
// bounded slowdown = max((wait + run) / max(run, Tau), 1), where the
// floor Tau keeps a job of a few seconds that waited a minute from
// dominating the mean. Only jobs that ran (DONE or EXIT) have a wait and
// a slowdown: a job still pending at the end of a run has no start, and
// counting its wait so far would understate it.
//
// Every output is deterministic: groups are sorted, floats are summed in
// sorted order (so that the same records in another order give the same
// bytes), and no map is iterated unsorted.
package simstats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Tau is the runtime floor, in seconds, of the bounded slowdown.
const Tau = 10.0

// MaxTimelinePoints bounds the number of points of Summary.Timeline.
const MaxTimelinePoints = 500

// Record states. A job that never ran is PEND (still waiting when the run
// ended) or SKIPPED (the simulator could not place it, e.g. it asks for
// more slots than the cluster has). A job PEND or PSUSP (held: its
// MAX_JOB_REQUEUE reached, or a bstop) at the end may have run before
// (EarlierRuns).
const (
	StateDone    = "DONE"
	StateExit    = "EXIT"
	StatePend    = "PEND"
	StateHeld    = "PSUSP"
	StateSkipped = "SKIPPED"
)

// A Record is the outcome of one job of a simulation run. Start and End
// matter only for DONE and EXIT jobs. Hosts is carried for the
// simulator's own use; no metric here depends on it.
type Record struct {
	ID          int
	Queue, User string
	Submit      float64
	Start, End  float64
	Slots       int
	Hosts       []string
	State       string
	Preempted   int  // times the job was preempted
	Forwarded   bool // the job ran on another cluster
	// Requeued counts the times the job went back to pending on its exit
	// values; EarlierRuns are its runs that ended so (or held it): for a
	// DONE or EXIT job the runs before the last (Start and End are the
	// last's), for a PEND or PSUSP one all its runs. Their slots count in
	// the utilisation whatever the job's state.
	Requeued    int
	EarlierRuns []Span
	// Exceptions are the job exceptions the job raised, blank-separated
	// (overrun, underrun, idle).
	Exceptions string
}

// A Span is a run of a job, from Start to End.
type Span struct{ Start, End float64 }

// Exceptions count the exceptions of a run: jobs that raised each job
// exception, and hosts closed for their job exit rate (which Summarize
// leaves zero: the records are of jobs; the simulator sets it).
type Exceptions struct {
	Overrun     int `json:"overrun"`
	Underrun    int `json:"underrun"`
	Idle        int `json:"idle"`
	HostsClosed int `json:"hosts_closed"`
}

// any reports whether there is some exception.
func (x Exceptions) any() bool { return x != Exceptions{} }

// A Dist summarises a distribution. Percentiles interpolate linearly
// between the two nearest values of the sorted sample (the "R-7" method of
// most statistics packages), so the P50 of 1, 2, 3, 4 is 2.5. All fields
// are zero when N is.
type Dist struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P95  float64 `json:"p95"`
	Max  float64 `json:"max"`
}

// A Histogram counts values in bins. Edges are the upper bounds of every
// bin but the last, ascending: bin i holds Edges[i-1] <= v < Edges[i],
// and the last bin holds v >= Edges[len(Edges)-1].
type Histogram struct {
	Edges  []float64 `json:"edges"`
	Counts []int     `json:"counts"`
}

// WaitEdges returns the bin edges of the wait histograms, in seconds: 1,
// 5 and 15 minutes, 1, 4 and 12 hours, 1, 3 and 7 days. The edges are
// fixed rather than fitted to the data so that the histograms of two runs
// can be compared bin by bin.
func WaitEdges() []float64 {
	return []float64{60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400}
}

// A Group holds the metrics of the jobs of one queue or one user.
type Group struct {
	Name        string     `json:"name"`
	Jobs        int        `json:"jobs"`
	Finished    int        `json:"finished"`
	Exited      int        `json:"exited"`
	Pending     int        `json:"pending"`
	Held        int        `json:"held,omitempty"` // PSUSP
	Skipped     int        `json:"skipped"`
	SlotSeconds float64    `json:"slot_seconds"`
	Wait        Dist       `json:"wait"`
	Slowdown    Dist       `json:"slowdown"`
	Preemptions int        `json:"preemptions"`
	Forwards    int        `json:"forwards"`
	Requeues    int        `json:"requeues,omitempty"`
	WaitHist    *Histogram `json:"wait_histogram,omitempty"` // queues only
}

// A Timeline is the fraction of the cluster's slots busy over time:
// Busy[i] is the average over [Start + i·Step, Start + (i+1)·Step), an
// average rather than a sample so that no short burst falls between
// points and the mean of Busy is the utilisation.
type Timeline struct {
	Start float64   `json:"start"`
	Step  float64   `json:"step"`
	Busy  []float64 `json:"busy"`
}

// A Summary holds the metrics of one simulation run. Its JSON form (the
// field tags) is what WriteJSON writes; durations are in seconds and
// utilisation is a fraction.
type Summary struct {
	Jobs     int `json:"jobs"`
	Finished int `json:"finished"`       // DONE
	Exited   int `json:"exited"`         // EXIT
	Pending  int `json:"pending"`        // PEND
	Held     int `json:"held,omitempty"` // PSUSP
	Skipped  int `json:"skipped"`        // SKIPPED
	// Other counts records of any other state; they are counted, and
	// their preemptions and forwards too, but they have no times.
	Other int `json:"other"`
	// Invalid counts DONE and EXIT records whose times cannot be right
	// (not finite or beyond 10^12 s, start before submit, end before
	// start, negative slots); they are left out of every time metric.
	Invalid int `json:"invalid"`

	TotalSlots  int     `json:"total_slots"`
	FirstSubmit float64 `json:"first_submit"`
	LastEnd     float64 `json:"last_end"`
	Makespan    float64 `json:"makespan"` // LastEnd − FirstSubmit
	SlotSeconds float64 `json:"slot_seconds"`
	// Utilisation is SlotSeconds / (TotalSlots × Makespan). It is not
	// clamped: above 1 means the simulator overcommitted slots.
	Utilisation   float64 `json:"utilisation"`
	PeakBusySlots int     `json:"peak_busy_slots"`

	Wait     Dist `json:"wait"`
	Slowdown Dist `json:"slowdown"`

	Preemptions int `json:"preemptions"`
	Forwards    int `json:"forwards"`
	// Requeues count the times jobs went back to pending on their exit
	// values.
	Requeues int `json:"requeues,omitempty"`
	// Exceptions count the job and host exceptions.
	Exceptions Exceptions `json:"exceptions"`

	Queues   []Group  `json:"queues"` // sorted by name
	Users    []Group  `json:"users"`  // sorted by name
	Timeline Timeline `json:"timeline"`
	// Pools are the run's slot pools: Summarize leaves them empty, and
	// SummarizePools works them out from the simulation's samples.
	Pools []Pool `json:"pools"`
	// ServiceClasses are the goal attainment of the time-based service
	// classes: Summarize leaves them empty, SummarizeClasses fills them.
	ServiceClasses []ServiceClass `json:"service_classes,omitempty"`
	// Warnings name the queues whose jobs the cluster could not run at
	// all: Summarize leaves them empty, the caller fills them.
	Warnings []Warning `json:"warnings"`
}

// A Warning says that the simulated cluster could not run some jobs of a
// queue at all: they still pended at the end, with nothing left to run.
type Warning struct {
	Queue string `json:"queue"`
	// Jobs counts the queue's jobs that still pended; Job is the first
	// of them (its trace ID), whom Reason explains. Requeued counts those
	// of them that ran before, were requeued by an exit value, and never
	// ran again.
	Jobs     int    `json:"jobs"`
	Requeued int    `json:"requeued,omitempty"`
	Job      int    `json:"job"`
	Reason   string `json:"reason"`
}

// String writes the warning as one line: queue, counts and reason.
func (w Warning) String() string {
	count := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return strconv.Itoa(n) + " " + what + "s"
	}
	var what string
	switch fresh := w.Jobs - w.Requeued; {
	case w.Requeued == 0:
		what = count(w.Jobs, "job") + " never ran"
	case fresh == 0:
		what = count(w.Requeued, "requeued job") + " never ran again"
	default:
		what = count(fresh, "job") + " never ran, " + count(w.Requeued, "requeued job") + " never ran again"
	}
	return fmt.Sprintf("queue %q: %s; job %d: %s", w.Queue, what, w.Job, w.Reason)
}

// Summarize computes the metrics of a run on a cluster of totalSlots
// slots. With totalSlots <= 0 the utilisation and the timeline are left
// zero, as they have no denominator.
func Summarize(recs []Record, totalSlots int) *Summary {
	s := &Summary{Jobs: len(recs), TotalSlots: totalSlots, Queues: []Group{}, Users: []Group{}, Pools: []Pool{}, Warnings: []Warning{}}
	all := newAcc()
	queues := map[string]*acc{}
	users := map[string]*acc{}
	group := func(m map[string]*acc, name string) *acc {
		a := m[name]
		if a == nil {
			a = newAcc()
			m[name] = a
		}
		return a
	}
	var runs []interval
	first, last := math.Inf(1), math.Inf(-1)
	for i := range recs {
		r := &recs[i]
		q, u := group(queues, r.Queue), group(users, r.User)
		if math.Abs(r.Submit) <= maxTime {
			first = min(first, r.Submit)
		}
		ran := r.State == StateDone || r.State == StateExit
		if ran && !valid(r) {
			s.Invalid++
			ran = false
		}
		for _, e := range strings.Fields(r.Exceptions) {
			switch e {
			case "overrun":
				s.Exceptions.Overrun++
			case "underrun":
				s.Exceptions.Underrun++
			case "idle":
				s.Exceptions.Idle++
			}
		}
		all.add(r, ran)
		q.add(r, ran)
		u.add(r, ran)
		for _, e := range r.EarlierRuns {
			if validRun(r, e, ran) {
				last = max(last, e.End)
				if r.Slots > 0 && e.End > e.Start {
					runs = append(runs, interval{e.Start, e.End, r.Slots})
				}
			}
		}
		if ran {
			last = max(last, r.End)
			if r.Slots > 0 && r.End > r.Start {
				runs = append(runs, interval{r.Start, r.End, r.Slots})
			}
		}
	}
	g := all.group("")
	s.Finished, s.Exited, s.Pending, s.Held, s.Skipped, s.Other = g.Finished, g.Exited, g.Pending, g.Held, g.Skipped, all.other
	s.SlotSeconds, s.Wait, s.Slowdown, s.Preemptions, s.Forwards = g.SlotSeconds, g.Wait, g.Slowdown, g.Preemptions, g.Forwards
	s.Requeues = g.Requeues
	if !math.IsInf(first, 0) {
		s.FirstSubmit, s.LastEnd = first, first
		if last > first {
			s.LastEnd = last
		}
		s.Makespan = s.LastEnd - s.FirstSubmit
	}
	if totalSlots > 0 && s.Makespan > 0 {
		s.Utilisation = s.SlotSeconds / (float64(totalSlots) * s.Makespan)
	}
	s.PeakBusySlots, s.Timeline = sweep(runs, s.FirstSubmit, s.Makespan, totalSlots)
	for _, name := range sortedKeys(queues) {
		g := queues[name].group(name)
		h := queues[name].hist()
		g.WaitHist = &h
		s.Queues = append(s.Queues, g)
	}
	for _, name := range sortedKeys(users) {
		s.Users = append(s.Users, users[name].group(name))
	}
	return s
}

// WriteJSON writes the summary as an indented JSON object, its keys in
// the order of the Summary's fields.
func (s *Summary) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxTime bounds the times of a valid record: 10^12 s is 31,700 years,
// beyond any trace, and far enough from the largest float64 that no sum
// of slot-seconds overflows to an infinity that JSON cannot encode.
const maxTime = 1e12

// valid reports whether a record that ran has times that can be right.
func valid(r *Record) bool {
	in := func(t float64) bool { return t >= -maxTime && t <= maxTime } // false for NaN
	return in(r.Submit) && in(r.Start) && in(r.End) &&
		r.Start >= r.Submit && r.End >= r.Start && r.Slots >= 0
}

// acc accumulates the records of a group.
type acc struct {
	g                          Group
	other                      int
	waits, slowdowns, slotSecs []float64
}

func newAcc() *acc { return &acc{} }

func (a *acc) add(r *Record, ran bool) {
	a.g.Jobs++
	a.g.Preemptions += r.Preempted
	a.g.Requeues += r.Requeued
	if r.Forwarded {
		a.g.Forwards++
	}
	switch r.State {
	case StateDone:
		a.g.Finished++
	case StateExit:
		a.g.Exited++
	case StatePend:
		a.g.Pending++
	case StateHeld:
		a.g.Held++
	case StateSkipped:
		a.g.Skipped++
	default:
		a.other++
	}
	// Every run's slots count, the job's last state whatever it is.
	for _, e := range r.EarlierRuns {
		if validRun(r, e, ran) {
			a.slotSecs = append(a.slotSecs, float64(r.Slots)*(e.End-e.Start))
		}
	}
	if !ran {
		return
	}
	wait, run := r.Start-r.Submit, r.End-r.Start
	a.waits = append(a.waits, wait)
	a.slowdowns = append(a.slowdowns, Slowdown(wait, run))
	a.slotSecs = append(a.slotSecs, float64(r.Slots)*run)
}

// validRun reports whether an earlier run of a record has times that can
// be right: finite, after the submission, and, for a record that ran
// (ran), before its last start.
func validRun(r *Record, e Span, ran bool) bool {
	in := func(t float64) bool { return t >= -maxTime && t <= maxTime } // false for NaN
	return in(r.Submit) && in(e.Start) && in(e.End) && r.Slots >= 0 &&
		e.Start >= r.Submit && e.End >= e.Start && (!ran || e.End <= r.Start)
}

// group finishes the group's metrics. It sorts the accumulated values.
func (a *acc) group(name string) Group {
	g := a.g
	g.Name = name
	g.Wait = distOf(a.waits)
	g.Slowdown = distOf(a.slowdowns)
	slices.Sort(a.slotSecs)
	for _, v := range a.slotSecs {
		g.SlotSeconds += v
	}
	return g
}

func (a *acc) hist() Histogram {
	h := Histogram{Edges: WaitEdges()}
	h.Counts = make([]int, len(h.Edges)+1)
	for _, w := range a.waits {
		i, _ := slices.BinarySearch(h.Edges, w)
		if i < len(h.Edges) && h.Edges[i] == w {
			i++ // an edge value belongs to the bin it opens
		}
		h.Counts[i]++
	}
	return h
}

// Slowdown returns the bounded slowdown of a job that waited wait seconds
// and ran run seconds: max((wait+run) / max(run, Tau), 1).
func Slowdown(wait, run float64) float64 {
	return max((wait+run)/max(run, Tau), 1)
}

// Percentile returns the p-quantile (0 <= p <= 1) of sorted values,
// interpolating linearly between the nearest two; 0 for no values.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	p = min(max(p, 0), 1)
	h := p * float64(n-1)
	i := int(h)
	if i >= n-1 {
		return sorted[n-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// distOf summarises the values, sorting them in place.
func distOf(v []float64) Dist {
	if len(v) == 0 {
		return Dist{}
	}
	slices.Sort(v)
	var sum float64
	for _, x := range v {
		sum += x
	}
	return Dist{
		N:    len(v),
		Mean: sum / float64(len(v)),
		Min:  v[0],
		P25:  Percentile(v, 0.25),
		P50:  Percentile(v, 0.50),
		P75:  Percentile(v, 0.75),
		P95:  Percentile(v, 0.95),
		Max:  v[len(v)-1],
	}
}

func sortedKeys(m map[string]*acc) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// interval is the run of a job that held slots.
type interval struct {
	start, end float64
	slots      int
}

// sweep walks the start and end events of the runs in time order,
// O(n log n) for the sort, to find the peak of busy slots and to
// integrate busy slots over the buckets of the timeline. At equal times
// ends come before starts, so that a job starting as another ends does
// not count as overlapping it.
func sweep(runs []interval, start, span float64, totalSlots int) (peak int, tl Timeline) {
	type event struct {
		t     float64
		delta int
	}
	events := make([]event, 0, 2*len(runs))
	for _, r := range runs {
		events = append(events, event{r.start, r.slots}, event{r.end, -r.slots})
	}
	slices.SortFunc(events, func(a, b event) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	tl = Timeline{Start: start, Busy: []float64{}}
	n := 0
	if totalSlots > 0 && span > 0 {
		// At most one point a second: finer buckets would only show the
		// granularity of the trace.
		n = int(min(MaxTimelinePoints, math.Ceil(span)))
		tl.Step = span / float64(n)
		tl.Busy = make([]float64, n)
	}
	busy, prev := 0, start
	for _, e := range events {
		if n > 0 && busy > 0 && e.t > prev {
			tl.addSegment(prev, e.t, float64(busy))
		}
		busy += e.delta
		peak = max(peak, busy)
		prev = e.t
	}
	for i := range tl.Busy {
		tl.Busy[i] /= tl.Step * float64(totalSlots)
	}
	return peak, tl
}

// addSegment adds v busy slots over [t0, t1) to the buckets it overlaps,
// as slot-seconds.
func (tl *Timeline) addSegment(t0, t1, v float64) {
	n := len(tl.Busy)
	bucket := func(t float64) int {
		return min(max(int((t-tl.Start)/tl.Step), 0), n-1)
	}
	b0, b1 := bucket(t0), bucket(t1)
	if b0 == b1 {
		tl.Busy[b0] += v * (t1 - t0)
		return
	}
	edge := func(i int) float64 { return tl.Start + float64(i)*tl.Step }
	tl.Busy[b0] += v * (edge(b0+1) - t0)
	for i := b0 + 1; i < b1; i++ {
		tl.Busy[i] += v * tl.Step
	}
	tl.Busy[b1] += v * (t1 - edge(b1))
}
