package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// Exception handling, as LSF documents it. A queue may name thresholds
// for three job exceptions: JOB_OVERRUN (a job that has run longer than
// so many minutes), JOB_IDLE (a running job whose idle factor, CPU time
// over run time, is under the threshold once it has run
// DETECT_IDLE_JOB_AFTER minutes) and JOB_UNDERRUN (a job that exits
// abnormally, in EXIT, before it has run so many minutes). A host may
// have a job exit rate threshold (EXIT_RATE in lsb.hosts, else
// lsb.params GLOBAL_EXIT_RATE), in exited jobs per minute measured over
// JOB_EXIT_RATE_DURATION minutes; EXIT_RATE_TYPE says which exits count.
// LSF's default actions are kept: a job exception is a notice to the
// administrator (an event of the log, a line of the daemon's log) and the
// job goes on; a host over its exit rate is closed (closed_Adm, with
// LSF's comment "JOB EXIT THRESHOLD EXCEEDED") until an administrator
// opens it again.

// Exception is a set of job exceptions.
type Exception uint8

// The job exceptions.
const (
	ExcOverrun Exception = 1 << iota
	ExcUnderrun
	ExcIdle
)

var exceptionNames = [...]struct {
	e    Exception
	name string
}{{ExcOverrun, "overrun"}, {ExcUnderrun, "underrun"}, {ExcIdle, "idle"}}

// String returns the exceptions as bjobs -l lists them ("overrun idle");
// "" for none.
func (e Exception) String() string {
	var parts []string
	for _, n := range exceptionNames {
		if e&n.e != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, " ")
}

// MarshalText writes the exceptions as String does.
func (e Exception) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads exceptions written by MarshalText.
func (e *Exception) UnmarshalText(b []byte) error {
	x, ok := ParseException(string(b))
	if !ok {
		return fmt.Errorf("unknown job exception in %q", b)
	}
	*e = x
	return nil
}

// ParseException reads exceptions separated by blanks ("overrun idle").
func ParseException(s string) (Exception, bool) {
	var out Exception
	for _, f := range strings.Fields(s) {
		found := false
		for _, n := range exceptionNames {
			if n.name == f {
				out, found = out|n.e, true
			}
		}
		if !found {
			return 0, false
		}
	}
	return out, true
}

// ExitRateComment is the comment LSF attaches to a host it closes for
// its job exit rate.
const ExitRateComment = "JOB EXIT THRESHOLD EXCEEDED"

// An ExceptionEvent is one exception detected: a job's (Job set, Kind
// one exception) or a host's exit rate (Host set).
type ExceptionEvent struct {
	Job  *Job
	Kind Exception
	Host *Host
	// Value is what was measured and Threshold what it was held against:
	// run minutes for overrun and underrun, the idle factor for idle,
	// exited jobs per minute for a host.
	Value, Threshold float64
}

// String says what happened, for the daemon's log.
func (ev ExceptionEvent) String() string {
	if ev.Host != nil {
		return fmt.Sprintf("host %s: job exit rate %.2f per minute is above EXIT_RATE %g: host closed (%s)",
			ev.Host.Name, ev.Value, ev.Threshold, ExitRateComment)
	}
	switch ev.Kind {
	case ExcOverrun:
		return fmt.Sprintf("job %d: overrun: it has run %.1f minutes, longer than JOB_OVERRUN %s", ev.Job.ID, ev.Value, minutesText(ev.Threshold))
	case ExcUnderrun:
		return fmt.Sprintf("job %d: underrun: it exited after %.1f minutes, sooner than JOB_UNDERRUN %s", ev.Job.ID, ev.Value, minutesText(ev.Threshold))
	}
	return fmt.Sprintf("job %d: idle: its idle factor %.2f is under JOB_IDLE %g", ev.Job.ID, ev.Value, ev.Threshold)
}

// minutesText writes a threshold in minutes as lsb.queues does: whole
// minutes as a number, others in seconds ("90s").
func minutesText(m float64) string {
	if m == math.Trunc(m) {
		return strconv.FormatFloat(m, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(m*60*1000)/1000, 'f', -1, 64) + "s"
}

// ExceptionParams are the lsb.params settings of exception handling.
type ExceptionParams struct {
	// ExitRateWindow is JOB_EXIT_RATE_DURATION in seconds (5 minutes by
	// default); DetectIdleAfter is DETECT_IDLE_JOB_AFTER in seconds (20
	// minutes); CheckEvery is EADMIN_TRIGGER_DURATION in seconds (1
	// minute), how often a running job's idle factor is looked at.
	ExitRateWindow, DetectIdleAfter, CheckEvery float64
	// GlobalExitRate is GLOBAL_EXIT_RATE, the exit rate threshold of
	// hosts without EXIT_RATE; 0 for none.
	GlobalExitRate float64
	// The exits that count (EXIT_RATE_TYPE): JobExit all exits of started
	// jobs, else (JOBEXIT_NONLSF, the default) those not caused by a
	// user or by LSF's policies (bkill, run limits, preemption); JobInit
	// the jobs that could not be started; HPCInit those of parallel jobs.
	JobExit, JobInit, HPCInit bool
}

// readExceptions reads the thresholds of exception handling: lsb.params,
// the queues' JOB_OVERRUN, JOB_UNDERRUN and JOB_IDLE, the hosts'
// EXIT_RATE.
func (c *Cluster) readExceptions() {
	p := &c.Policy.Parameters
	x := ExceptionParams{ExitRateWindow: p.JobExitRateDuration.Seconds(),
		DetectIdleAfter: p.DetectIdleJobAfter.Seconds(), CheckEvery: p.EadminTriggerDuration.Seconds(),
		GlobalExitRate: float64(p.GlobalExitRate)}
	for _, t := range p.ExitRateType {
		switch strings.ToUpper(t) {
		case "JOBEXIT":
			x.JobExit = true
		case "JOBINIT":
			x.JobInit = true
		case "HPCINIT":
			x.HPCInit = true
		}
	}
	c.Exceptions = x
	for _, q := range c.Queues {
		if q.Def == nil {
			continue
		}
		if st := q.Def.Settings["JOB_OVERRUN"]; st != nil {
			if d, ok := st.Value.(compile.Duration); ok && d > 0 {
				q.Overrun = float64(d)
			}
		}
		if st := q.Def.Settings["JOB_UNDERRUN"]; st != nil {
			if d, ok := st.Value.(compile.Duration); ok && d > 0 {
				q.Underrun = float64(d)
			}
		}
		if st := q.Def.Settings["JOB_IDLE"]; st != nil {
			if v, ok := st.Value.(float64); ok && v > 0 {
				q.IdleFactor = v
			}
		}
		c.jobExceptions = c.jobExceptions || q.Overrun > 0 || q.IdleFactor > 0
	}
	for _, h := range c.Hosts {
		h.ExitRate = x.GlobalExitRate
		if row := c.hostRow(h); row != nil {
			if st := row.Settings["EXIT_RATE"]; st != nil {
				if v, ok := st.Value.(float64); ok && v > 0 {
					h.ExitRate = v
				}
			}
		}
	}
}

// runTime returns how long a started or finished job has run, its
// suspensions left out.
func (j *Job) runTime(now Time) float64 {
	if j.State == Run {
		return j.Ran + float64(now-j.RunSince)
	}
	return j.Ran
}

// IdleFactor returns a running job's CPU time over its run time as of
// now, and whether it is known: in simulation from the CPU time the
// workload gives (spread evenly over the job's run), otherwise from the
// CPU time its execution last reported (SetCPUTime).
func (j *Job) IdleFactor(now Time) (float64, bool) {
	if j.Sub.CPUTime > 0 && j.Runtime > 0 {
		return j.Sub.CPUTime / j.Runtime, true
	}
	run := j.runTime(now)
	if !j.cpuKnown || run <= 0 {
		return 0, false
	}
	return j.CPUTime / run, true
}

// RecordUsage records what a job's processes used in all, as its
// execution reports it at its end: CPU seconds and the most memory held,
// in MB (0 for what it does not know).
func (c *Cluster) RecordUsage(j *Job, cpuSeconds, maxMemMB float64) {
	if cpuSeconds > 0 {
		j.CPUTime, j.cpuKnown = cpuSeconds, true
	}
	if maxMemMB > 0 {
		j.MaxMem = maxMemMB
	}
}

// SetCPUTime records the CPU seconds a started job's processes have used,
// as its execution reports them.
func (c *Cluster) SetCPUTime(j *Job, seconds float64) {
	j.CPUTime, j.cpuKnown = seconds, true
}

// watchExceptions keeps a started job among those the job exception
// check looks at, when some queue has JOB_OVERRUN or JOB_IDLE.
func (c *Cluster) watchExceptions(j *Job) {
	if c.jobExceptions {
		c.excJobs = append(c.excJobs, j)
	}
}

// exceptionJobs returns the started jobs the job exception check looks
// at, in start order, forgetting those that ended.
func (c *Cluster) exceptionJobs() []*Job {
	out := c.excJobs[:0]
	for _, j := range c.excJobs {
		if j.State.Started() {
			out = append(out, j)
		}
	}
	clear(c.excJobs[len(out):])
	c.excJobs = out
	return out
}

// countExit notes, when a started job ends, an exit that counts towards
// its hosts' exit rates (EXIT_RATE_TYPE), and whether the job ended as
// an underrun.
func (c *Cluster) countExit(j *Job, state JobState, now Time) {
	if state != Exit {
		return
	}
	run := j.runTime(now)
	if q := j.Queue; q.Underrun > 0 && run < q.Underrun {
		j.Exceptions |= ExcUnderrun
	}
	x := c.Exceptions
	initFailure := j.ExitCode == 127 && run == 0
	var counts bool
	switch {
	case initFailure:
		counts = x.JobInit || x.HPCInit && j.Slots > 1
	case x.JobExit:
		counts = true
	default:
		counts = j.Term == ""
	}
	if !counts {
		return
	}
	for _, a := range j.Allocs {
		h := a.Host
		if h.ExitRate <= 0 {
			continue
		}
		if !h.exitListed {
			c.exitHosts, h.exitListed = append(c.exitHosts, h), true
		}
		h.exits = append(h.exits, now)
	}
}

// ExitRateLoad returns a host's job exit rate as of now: the counted
// exits of the last JOB_EXIT_RATE_DURATION, per minute.
func (c *Cluster) ExitRateLoad(h *Host, now Time) float64 {
	w := c.Exceptions.ExitRateWindow
	n := 0
	for _, t := range h.exits {
		if float64(now-t) < w {
			n++
		}
	}
	return float64(n) / (w / 60)
}

// RaiseJobException records a job exception.
func (c *Cluster) RaiseJobException(j *Job, e Exception) { j.Exceptions |= e }

// CloseForExitRate closes a host whose job exit rate is over its
// threshold; opening it again (SetHostStatus) starts its count afresh.
func (c *Cluster) CloseForExitRate(h *Host) {
	c.SetHostStatus(h, HostClosedAdm)
	if h.Status == HostClosedAdm {
		h.ExitClosed = true
	}
	h.exits = nil
}

// applyExceptions records the exceptions a cycle found and forgets the
// exits too old to count.
func (c *Cluster) applyExceptions(evs []ExceptionEvent, now Time) {
	for _, ev := range evs {
		if ev.Host != nil {
			c.CloseForExitRate(ev.Host)
		} else {
			c.RaiseJobException(ev.Job, ev.Kind)
		}
	}
	if len(c.exitHosts) == 0 {
		return
	}
	keep := c.exitHosts[:0]
	for _, h := range c.exitHosts {
		i := 0
		for i < len(h.exits) && float64(now-h.exits[i]) >= c.Exceptions.ExitRateWindow {
			i++
		}
		h.exits = h.exits[i:]
		if len(h.exits) > 0 {
			keep = append(keep, h)
		} else {
			h.exitListed = false
		}
	}
	clear(c.exitHosts[len(keep):])
	c.exitHosts = keep
}

// An ExceptionCheck looks, once a cycle, for exceptional conditions of
// started jobs or of hosts and adds what it finds to the plan, with
// CycleState's ReportJobException and ReportHostException.
type ExceptionCheck interface {
	Name() string
	Detect(s CycleState)
}

// detectExceptions runs the exception checks.
func (c *cycle) detectExceptions() {
	for _, x := range c.s.Plugins.ExceptionChecks {
		x.Detect(CycleState{c})
	}
}

// jobExceptionCheck finds running jobs past their queue's JOB_OVERRUN,
// and running jobs whose idle factor is under their queue's JOB_IDLE
// once they have run DETECT_IDLE_JOB_AFTER; it wakes the engine when the
// next may be due.
type jobExceptionCheck struct{}

func (jobExceptionCheck) Name() string { return "job exceptions" }
func (jobExceptionCheck) Detect(s CycleState) {
	c := s.c
	cl := c.cluster
	if !cl.jobExceptions {
		return
	}
	for _, j := range cl.exceptionJobs() {
		q := j.Queue
		if j.State != Run || q.Overrun == 0 && q.IdleFactor == 0 {
			continue
		}
		run := j.runTime(c.now)
		if q.Overrun > 0 && j.Exceptions&ExcOverrun == 0 {
			if run >= q.Overrun {
				s.ReportJobException(JobInfo{j}, ExcOverrun, run/60, q.Overrun/60)
			} else {
				c.wakeAt(c.now.Add(q.Overrun - run))
			}
		}
		if q.IdleFactor > 0 && j.Exceptions&ExcIdle == 0 {
			after := cl.Exceptions.DetectIdleAfter
			if run < after {
				c.wakeAt(c.now.Add(after - run))
				continue
			}
			f, known := j.IdleFactor(c.now)
			switch {
			case known && f < q.IdleFactor:
				s.ReportJobException(JobInfo{j}, ExcIdle, f, q.IdleFactor)
			case j.Sub.CPUTime > 0 && j.Runtime > 0:
				// Its factor does not change: once is enough.
			default:
				c.wakeAt(c.now.Add(cl.Exceptions.CheckEvery))
			}
		}
	}
}

// wakeForExceptions wakes the engine when a job the cycle dispatches may
// first be found overrun or idle: the job exception check looks only at
// jobs already started, so the cycle that starts one sets its first wake.
func (c *cycle) wakeForExceptions(j *Job) {
	q := j.Queue
	if q.Overrun > 0 {
		c.wakeAt(c.now.Add(q.Overrun))
	}
	if q.IdleFactor > 0 {
		c.wakeAt(c.now.Add(c.cluster.Exceptions.DetectIdleAfter))
	}
}

// exitRateCheck finds the open hosts whose job exit rate is above their
// threshold (EXIT_RATE, GLOBAL_EXIT_RATE); only hosts with recent exits
// are looked at.
type exitRateCheck struct{}

func (exitRateCheck) Name() string { return "exit rate" }
func (exitRateCheck) Detect(s CycleState) {
	c := s.c
	cl := c.cluster
	for _, h := range cl.exitHosts {
		if h.State() != HostOK || h.ExitRate <= 0 {
			continue
		}
		// The rate only falls as time passes: there is nothing to wake for.
		if rate := cl.ExitRateLoad(h, c.now); rate > h.ExitRate {
			s.ReportHostException(HostInfo{h}, rate, h.ExitRate)
		}
	}
}
