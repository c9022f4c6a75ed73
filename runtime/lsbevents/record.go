package lsbevents

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

// The job records read, by type.
var jobTypes = map[string]bool{
	"JOB_NEW": true, "JOB_START": true, "JOB_START_ACCEPT": true, "JOB_STATUS": true, "JOB_SWITCH": true,
	"JOB_MOVE": true, "JOB_SIGNAL": true, "JOB_MODIFY2": true, "JOB_FORWARD": true, "JOB_ACCEPT": true,
	"JOB_ACCEPTACK": true, "JOB_FORCE": true, "JOB_REQUEUE": true, "MIG": true,
}

func knownType(t string) bool { return jobTypes[t] }

// Bits of a job's submission options (JOB_NEW's and JOB_MODIFY2's
// options and delOptions), as LSF's lsbatch.h numbers them.
const (
	subQueue       = 0x02
	subExclusive   = 0x40
	subResReq      = 0x40000
	subInteractive = 0x4000000
)

// Bits of a job's status (JOB_STATUS's jStatus).
const (
	statPend  = 0x01
	statPSusp = 0x02
	statRun   = 0x04
	statSSusp = 0x08
	statUSusp = 0x10
	statExit  = 0x20
	statDone  = 0x40
	statPDone = 0x80
	statUnkwn = 0x10000
)

// The resource limits of rLimits, by their index.
const (
	nLimits  = 11
	limitMem = 5 // RSS, KB: -M
	limitRun = 9 // run time, seconds: -W
)

// The terminations of JOB_STATUS's exitInfo that bhist names.
var termReasons = map[int64]string{
	1: "TERM_PREEMPT", 2: "TERM_WINDOW", 3: "TERM_LOAD", 4: "TERM_OTHER", 5: "TERM_RUNLIMIT",
	6: "TERM_DEADLINE", 7: "TERM_PROCESSLIMIT", 8: "TERM_FORCE_OWNER", 9: "TERM_FORCE_ADMIN",
	10: "TERM_REQUEUE_OWNER", 11: "TERM_REQUEUE_ADMIN", 12: "TERM_CPULIMIT", 13: "TERM_CHKPNT",
	14: "TERM_OWNER", 15: "TERM_ADMIN", 16: "TERM_MEMLIMIT", 17: "TERM_EXTERNAL_SIGNAL",
	18: "TERM_RMS", 19: "TERM_ZOMBIE", 20: "TERM_SWAP", 21: "TERM_THREADLIMIT",
	22: "TERM_SLURM", 23: "TERM_BUCKET_KILL", 24: "TERM_CTRL_PID", 25: "TERM_CWD_NOTEXIST",
}

// apply reads the body of one job record, of the type given, logged at
// at.
func (l *Log) apply(typ string, at int64, c *cursor) error {
	switch typ {
	case "JOB_NEW":
		return l.jobNew(at, c)
	case "JOB_MODIFY2":
		return l.jobModify(at, c)
	}
	// The records whose job ID comes after the submitter's user ID.
	userFirst := typ == "JOB_SWITCH" || typ == "JOB_MOVE"
	var uid int64
	if userFirst {
		uid = c.int("userId")
	}
	id := c.int("jobId")
	if c.err != nil {
		return c.err
	}
	_ = uid
	var e api.HistoryEvent
	e.At = at
	idx := int64(0)
	var then func(j *Job)
	switch typ {
	case "JOB_START":
		c.skip("jStatus, jobPid, jobPGid, hostFactor", 4)
		n := c.count("numExHosts", 1)
		e.Hosts = c.strs("execHosts", n)
		e.Slots = n
		c.skip("queuePreCmd, queuePostCmd, jFlags", 3)
		if c.left() != 1 {
			// openlava's dialect has no user group here.
			c.skip("userGroup", 1)
		}
		idx = c.int("idx")
		// Later versions add fields: additionalInfo, preemptBackfill,
		// jFlags2, then the effective requirement.
		if c.left() >= 4 {
			c.skip("additionalInfo, preemptBackfill, jFlags2", 3)
			e.Text = c.str("effectiveResReq")
		}
		e.Kind = api.EventStart
		then = func(j *Job) {
			j.Start, j.End, j.State = at, 0, "RUN"
			if e.Text != "" {
				j.EffectiveResReq = e.Text
			}
		}
	case "JOB_START_ACCEPT":
		e.Pid = c.int("jobPid")
		c.skip("jobPGid", 1)
		idx = c.int("idx")
		e.Kind = api.EventRunning
	case "JOB_STATUS":
		status := c.int("jStatus")
		c.skip("reason, subreasons", 2)
		e.CPU = c.float("cpuTime")
		c.skip("endTime", 1)
		if c.int("ru") != 0 {
			c.skip("lsfRusage", 19)
		}
		exit := c.int("exitStatus")
		idx = c.int("idx")
		info := int64(0)
		if c.more() {
			info = c.int("exitInfo")
		}
		if c.err != nil {
			return c.err
		}
		then = func(j *Job) { l.status(j, at, status, exit, info, e.CPU) }
	case "JOB_SWITCH":
		e.Kind, e.Text = api.EventSwitch, c.str("queue")
		idx = c.int("idx")
		e.User = c.str("userName")
		then = func(j *Job) { j.Queue = e.Text }
	case "JOB_MOVE":
		c.skip("position", 1)
		base := c.int("base")
		idx = c.int("idx")
		e.User = c.str("userName")
		e.Kind, e.Text = api.EventMove, "top"
		if base == 2 {
			e.Text = "bottom"
		}
	case "JOB_SIGNAL":
		c.skip("userId, runCount", 2)
		e.Kind, e.Text = api.EventSignal, c.str("signalSymbol")
		idx = c.int("idx")
		e.User = c.str("userName")
	case "JOB_FORWARD":
		n := c.count("numReserHosts", 1)
		c.skip("reserHosts", n)
		e.Kind, e.Text = api.EventForward, c.str("cluster")
		if c.more() {
			idx = c.int("idx")
		}
	case "JOB_ACCEPT":
		e.Pid = c.int("remoteJid")
		e.Kind, e.Text = api.EventAccept, c.str("cluster")
		if c.more() {
			idx = c.int("idx")
		}
	case "JOB_ACCEPTACK":
		idx = c.int("idx")
		c.skip("jobRmtAttr, dstCluster, dstJobId", 3)
		e.Kind = api.EventAccept
		if c.more() {
			e.Text = c.str("cluster")
		}
		if c.more() {
			e.Pid = c.int("remoteJobId")
		}
	case "JOB_FORCE":
		c.skip("userId", 1)
		idx = c.int("idx")
		c.skip("options", 1)
		n := c.count("numExecHosts", 1)
		e.Hosts = c.strs("execHosts", n)
		e.User = c.str("userName")
		e.Kind = api.EventForce
	case "JOB_REQUEUE":
		idx = c.int("idx")
		e.Kind = api.EventRequeue
		then = func(j *Job) { j.State, j.End = "PEND", 0 }
	case "MIG":
		n := c.count("numAskedHosts", 1)
		e.Hosts = c.strs("askedHosts", n)
		c.skip("userId", 1)
		idx = c.int("idx")
		e.User = c.str("userName")
		e.Kind = api.EventMigrate
	default:
		return fmt.Errorf("no reader for the type")
	}
	if c.err != nil {
		return c.err
	}
	j := l.job(id, idx)
	if j == nil {
		return nil
	}
	if e.Kind != "" {
		j.add(e)
	}
	if then != nil {
		then(j)
	}
	return nil
}

// stateName names a job status as bjobs does.
func stateName(s int64) string {
	switch {
	case s&statDone != 0:
		return "DONE"
	case s&statExit != 0:
		return "EXIT"
	case s&statUnkwn != 0:
		return "UNKWN"
	case s&statUSusp != 0:
		return "USUSP"
	case s&statSSusp != 0:
		return "SSUSP"
	case s&statPSusp != 0:
		return "PSUSP"
	case s&statRun != 0:
		return "RUN"
	}
	return "PEND"
}

// status applies a JOB_STATUS record to its job.
func (l *Log) status(j *Job, at, status, exit, info int64, cpu float64) {
	now := stateName(status)
	was := j.State
	switch {
	case now == "DONE" && was == "DONE" && status&statPDone != 0:
		j.add(api.HistoryEvent{At: at, Kind: api.EventPostDone})
		return
	case now == "DONE":
		j.add(api.HistoryEvent{At: at, Kind: api.EventDone, CPU: cpu})
		j.End, j.ExitCode, j.Signal = at, 0, 0
		if status&statPDone != 0 {
			j.add(api.HistoryEvent{At: at, Kind: api.EventPostDone})
		}
	case now == "EXIT":
		e := api.HistoryEvent{At: at, Kind: api.EventExit, CPU: cpu, Text: termReasons[info]}
		j.ExitCode, j.Signal = 0, 0
		switch {
		case exit&0x7f != 0:
			j.Signal = int(exit & 0x7f)
			e.State = "signal"
			e.Code = j.Signal
		default:
			j.ExitCode = int(exit>>8) & 0xff
			e.Code = j.ExitCode
		}
		j.add(e)
		j.End = at
	case now == was:
		return
	case now == "UNKWN":
		j.add(api.HistoryEvent{At: at, Kind: api.EventUnknown})
	case now == "USUSP" || now == "SSUSP" || now == "PSUSP":
		j.add(api.HistoryEvent{At: at, Kind: api.EventSuspend, State: now})
	case now == "RUN" || (now == "PEND" && was == "PSUSP"):
		j.add(api.HistoryEvent{At: at, Kind: api.EventResume, State: now})
	case now == "PEND" && was != "PEND":
		j.add(api.HistoryEvent{At: at, Kind: api.EventRequeue})
		j.End = 0
	}
	j.State = now
}

// jobNew reads a JOB_NEW record. Its fields are read as far as the user
// group (-G); the rest is not used.
func (l *Log) jobNew(at int64, c *cursor) error {
	j := &Job{}
	j.ID = c.int("jobId")
	c.skip("userId", 1)
	opts := c.int("options")
	j.Slots = int(c.int("numProcessors"))
	j.Submit = c.int("submitTime")
	j.Begin = c.int("beginTime")
	c.skip("termTime, sigValue, chkpntPeriod, restartPid", 4)
	j.User = c.str("userName")
	lim := make([]int64, nLimits)
	for i := range lim {
		lim[i] = c.int("rLimits")
	}
	j.MemLimit, j.RunLimit = lim[limitMem], lim[limitRun]
	c.skip("hostSpec, hostFactor, umask", 3)
	j.Queue = c.str("queue")
	j.SubmitQueue = j.Queue
	j.ResReq = c.str("resReq")
	j.FromHost = c.str("fromHost")
	j.Cwd = c.str("cwd")
	c.skip("chkpntDir, inFile, outFile, errFile, subHomeDir, jobFile", 6)
	n := c.count("numAskedHosts", 1)
	c.skip("askedHosts, dependCond, timeEvent", n+2)
	j.Name = c.str("jobName")
	j.Command = c.str("command")
	nxf := c.count("nxf", 3)
	c.skip("xf, mailUser", 3*nxf+1)
	j.Project = c.str("projectName")
	if opts&subInteractive != 0 {
		c.skip("niosPort", 1)
	}
	j.MaxSlots = int(c.int("maxNumProcessors"))
	c.skip("schedHostType, loginShell", 2)
	if c.more() {
		j.UserGroup = c.str("userGroup")
	}
	if c.err != nil {
		return c.err
	}
	if j.ID <= 0 {
		return fmt.Errorf("job ID %d is not positive", j.ID)
	}
	if j.Slots < 1 {
		j.Slots = 1
	}
	if j.MaxSlots < j.Slots {
		j.MaxSlots = j.Slots
	}
	if j.Submit == 0 {
		j.Submit = at
	}
	j.Exclusive = opts&subExclusive != 0
	j.submitSlots, j.submitResReq = j.Slots, j.ResReq
	l.newJob(j)
	return nil
}

// jobModify reads a JOB_MODIFY2 record (bmod) as far as the resource
// limits, and applies what it changes: the queue, -n, -R, -x, -M, -W.
func (l *Log) jobModify(at int64, c *cursor) error {
	idStr := c.str("jobIdStr")
	opts := c.int("options")
	c.skip("options2", 1)
	del := c.int("delOptions")
	c.skip("delOptions2, userId", 2)
	user := c.str("userName")
	c.skip("submitTime, umask", 2)
	slots := c.int("numProcessors")
	c.skip("beginTime, termTime, sigValue, restartPid, jobName", 5)
	queue := c.str("queue")
	n := c.count("numAskedHosts", 1)
	c.skip("askedHosts", n)
	resReq := c.str("resReq")
	lim := make([]int64, nLimits)
	for i := range lim {
		lim[i] = c.int("rLimits")
	}
	if c.err != nil {
		return c.err
	}
	id, idx, err := parseJobIDStr(idStr)
	if err != nil {
		return err
	}
	var changes []string
	if opts&subQueue != 0 && queue != "" {
		changes = append(changes, "-q "+queue)
	}
	if slots > 0 {
		changes = append(changes, "-n "+strconv.FormatInt(slots, 10))
	}
	switch {
	case opts&subResReq != 0:
		changes = append(changes, "-R "+strconv.Quote(resReq))
	case del&subResReq != 0:
		changes = append(changes, "-Rn")
	}
	switch {
	case opts&subExclusive != 0:
		changes = append(changes, "-x")
	case del&subExclusive != 0:
		changes = append(changes, "-xn")
	}
	if lim[limitMem] > 0 {
		changes = append(changes, "-M "+strconv.FormatInt(lim[limitMem], 10)+"KB")
	}
	if lim[limitRun] > 0 {
		changes = append(changes, "-W "+strconv.FormatInt(lim[limitRun]/60, 10))
	}
	modify := func(j *Job) {
		j.add(api.HistoryEvent{At: at, Kind: api.EventModify, User: user, Text: strings.Join(changes, " ")})
		if j.State != "PEND" && j.State != "PSUSP" {
			return
		}
		if opts&subQueue != 0 && queue != "" {
			j.Queue = queue
		}
		if slots > 0 {
			j.Slots = int(slots)
			j.MaxSlots = max(j.MaxSlots, j.Slots)
		}
		switch {
		case opts&subResReq != 0:
			j.ResReq = resReq
		case del&subResReq != 0:
			j.ResReq = ""
		}
		switch {
		case opts&subExclusive != 0:
			j.Exclusive = true
		case del&subExclusive != 0:
			j.Exclusive = false
		}
		if lim[limitMem] > 0 {
			j.MemLimit = lim[limitMem]
		}
		if lim[limitRun] > 0 {
			j.RunLimit = lim[limitRun]
		}
	}
	if a := l.arrays[id]; a != nil && idx == 0 {
		// The whole array: the elements to come, and those made.
		modify(a)
		for k, j := range l.jobs {
			if k.id == id && j.seq > 0 {
				modify(j)
			}
		}
		return nil
	}
	if j := l.job(id, int64(idx)); j != nil {
		modify(j)
	}
	return nil
}

// parseJobIDStr reads a job ID as JOB_MODIFY2 writes it: "123" or
// "123[4]".
func parseJobIDStr(s string) (int64, int, error) {
	idx := 0
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		n, err := strconv.Atoi(s[i+1 : len(s)-1])
		if err != nil || n < 0 {
			return 0, 0, fmt.Errorf("bad array index in job ID %q", s)
		}
		idx, s = n, s[:i]
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, 0, fmt.Errorf("bad job ID %q", s)
	}
	return id, idx, nil
}
