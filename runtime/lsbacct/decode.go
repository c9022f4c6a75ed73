package lsbacct

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Record types of lsb.acct that are LSF's but not JOB_FINISH: counted and
// skipped.
var otherTypes = map[string]bool{"JOB_RESIZE": true, "EVENT_ADRSV_FINISH": true}

// decode reads the line s into r and returns its record type.
func (d *decoder) decode(s string, r *Record) (string, *ParseError) {
	*d = decoder{s: s, strArena: d.strArena, extArena: d.extArena, kvArena: d.kvArena}
	typ := d.str("type")
	if d.err != nil {
		return "", d.err
	}
	if typ != "JOB_FINISH" {
		if otherTypes[typ] {
			return typ, nil
		}
		return "", &ParseError{Field: "type", Msg: fmt.Sprintf("unknown record type %q", clip(typ))}
	}
	r.Version = d.str("version")
	if d.err != nil {
		return "", d.err
	}
	major, ok := versionMajor(r.Version)
	if !ok {
		return "", &ParseError{Field: "version", Msg: fmt.Sprintf("unknown version %q", clip(r.Version))}
	}
	d.head(r)
	if d.err == nil {
		d.tail(r, major)
	}
	if d.err != nil {
		return "", d.err
	}
	for d.more() {
		v, quoted := d.token("extra")
		if quoted {
			v = quote(v)
		}
		r.Extra = append(r.Extra, v)
	}
	r.Fields = d.n
	return typ, d.err
}

// versionMajor reads a version such as "10.108" or "7.06": LSF's own
// versions run from 3 to 10.
func versionMajor(v string) (int, bool) {
	head, rest, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(head)
	if err != nil || n < 3 || n > 10 || strings.HasPrefix(head, "+") {
		return 0, false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	return n, true
}

// head reads the fields every version holds, up to the rusage.
func (d *decoder) head(r *Record) {
	r.EventTime = d.int("eventTime")
	r.JobID = d.int("jobId")
	r.UserID = d.int("userId")
	r.Options = d.int("options")
	r.NumProcessors = d.int("numProcessors")
	r.SubmitTime = d.int("submitTime")
	r.BeginTime = d.int("beginTime")
	r.TermTime = d.int("termTime")
	r.StartTime = d.int("startTime")
	r.UserName = d.str("userName")
	r.Queue = d.str("queue")
	r.ResReq = d.str("resReq")
	r.DependCond = d.str("dependCond")
	r.PreExecCmd = d.str("preExecCmd")
	r.FromHost = d.str("fromHost")
	r.Cwd = d.str("cwd")
	r.InFile = d.str("inFile")
	r.OutFile = d.str("outFile")
	r.ErrFile = d.str("errFile")
	r.JobFile = d.str("jobFile")
	r.AskedHosts = d.strs("numAskedHosts", "askedHosts")
	r.ExecHosts = d.strs("numExHosts", "execHosts")
	r.JStatus = d.int("jStatus")
	r.HostFactor = d.float("hostFactor")
	r.JobName = d.str("jobName")
	r.Command = d.str("command")
	u := &r.Rusage
	for i, p := range u.fields() {
		*p = d.float(rusageNames[i])
	}
}

var rusageNames = [...]string{"ru_utime", "ru_stime", "ru_maxrss", "ru_ixrss", "ru_ismrss", "ru_idrss",
	"ru_isrss", "ru_minflt", "ru_majflt", "ru_nswap", "ru_inblock", "ru_oublock", "ru_ioch", "ru_msgsnd",
	"ru_msgrcv", "ru_nsignals", "ru_nvcsw", "ru_nivcsw", "ru_exutime"}

func (u *Rusage) fields() [19]*float64 {
	return [19]*float64{&u.Utime, &u.Stime, &u.Maxrss, &u.Ixrss, &u.Ismrss, &u.Idrss, &u.Isrss, &u.Minflt,
		&u.Majflt, &u.Nswap, &u.Inblock, &u.Oublock, &u.Ioch, &u.Msgsnd, &u.Msgrcv, &u.Nsignals, &u.Nvcsw,
		&u.Nivcsw, &u.Exutime}
}

// tail reads the fields after the rusage. Each step is one field or one
// counted list; a record may end between steps once the steps its
// version requires are read.
func (d *decoder) tail(r *Record, major int) {
	required := 0 // steps the record must hold
	if major >= 10 {
		required = requiredV10
	}
	for i, st := range tailSteps {
		if i >= required && !d.more() {
			return
		}
		st.read(d, r)
		if d.err != nil {
			return
		}
	}
}

// requiredV10 is the number of steps a record of version 10 or later
// must hold: up to requeueTime.
var requiredV10 = slices.IndexFunc(tailSteps, func(s step) bool { return s.name == "requeueTime" }) + 1

type step struct {
	name string
	read func(*decoder, *Record)
}

// tailSteps are the fields after the rusage, in the file's order.
var tailSteps = []step{
	{"mailUser", func(d *decoder, r *Record) { r.MailUser = d.str("mailUser") }},
	{"projectName", func(d *decoder, r *Record) { r.ProjectName = d.str("projectName") }},
	{"exitStatus", func(d *decoder, r *Record) { r.ExitStatus = d.int("exitStatus") }},
	{"maxNumProcessors", func(d *decoder, r *Record) { r.MaxNumProcessors = d.int("maxNumProcessors") }},
	{"loginShell", func(d *decoder, r *Record) { r.LoginShell = d.str("loginShell") }},
	{"timeEvent", func(d *decoder, r *Record) { r.TimeEvent = d.str("timeEvent") }},
	{"idx", func(d *decoder, r *Record) { r.Idx = d.int("idx") }},
	{"maxRMem", func(d *decoder, r *Record) { r.MaxRMem = d.int("maxRMem") }},
	{"maxRSwap", func(d *decoder, r *Record) { r.MaxRSwap = d.int("maxRSwap") }},
	{"inFileSpool", func(d *decoder, r *Record) { r.InFileSpool = d.str("inFileSpool") }},
	{"commandSpool", func(d *decoder, r *Record) { r.CommandSpool = d.str("commandSpool") }},
	{"rsvId", func(d *decoder, r *Record) { r.RsvID = d.str("rsvId") }},
	{"sla", func(d *decoder, r *Record) { r.SLA = d.str("sla") }},
	{"exceptMask", func(d *decoder, r *Record) { r.ExceptMask = d.int("exceptMask") }},
	{"additionalInfo", func(d *decoder, r *Record) { r.AdditionalInfo = d.str("additionalInfo") }},
	{"exitInfo", func(d *decoder, r *Record) { r.ExitInfo = d.int("exitInfo") }},
	{"warningAction", func(d *decoder, r *Record) { r.WarningAction = d.str("warningAction") }},
	{"warningTimePeriod", func(d *decoder, r *Record) { r.WarningTimePeriod = d.int("warningTimePeriod") }},
	{"chargedSAAP", func(d *decoder, r *Record) { r.ChargedSAAP = d.str("chargedSAAP") }},
	{"licenseProject", func(d *decoder, r *Record) { r.LicenseProject = d.str("licenseProject") }},
	{"app", func(d *decoder, r *Record) { r.App = d.str("app") }},
	{"postExecCmd", func(d *decoder, r *Record) { r.PostExecCmd = d.str("postExecCmd") }},
	{"runtimeEstimation", func(d *decoder, r *Record) { r.RuntimeEstimation = d.int("runtimeEstimation") }},
	{"jgroup", func(d *decoder, r *Record) { r.JobGroup = d.str("jgroup") }},
	{"requeueEValues", func(d *decoder, r *Record) { r.RequeueEValues = d.str("requeueEValues") }},
	{"options2", func(d *decoder, r *Record) { r.Options2 = d.int("options2") }},
	{"resizeNotifyCmd", func(d *decoder, r *Record) { r.ResizeNotifyCmd = d.str("resizeNotifyCmd") }},
	{"lastResizeTime", func(d *decoder, r *Record) { r.LastResizeTime = d.int("lastResizeTime") }},
	{"rsvId", func(d *decoder, r *Record) { r.RsvIDLong = d.str("rsvId") }},
	{"jobDescription", func(d *decoder, r *Record) { r.JobDescription = d.str("jobDescription") }},
	{"submitEXT", func(d *decoder, r *Record) {
		n := d.count("submitEXT", 2)
		if n > 0 {
			r.SubmitExt = d.extArena.take(n)
		}
		for i := 0; i < n && d.err == nil; i++ {
			r.SubmitExt[i].Key = d.int("submitEXT key")
			r.SubmitExt[i].Value = d.str("submitEXT value")
		}
	}},
	{"numHostRusage", func(d *decoder, r *Record) {
		n := d.count("numHostRusage", 5)
		if n > 0 {
			r.HostRusage = make([]HostRusage, 0, n)
		}
		for i := 0; i < n && d.err == nil; i++ {
			h := HostRusage{Host: d.str("hostRusage hostname")}
			h.Mem, h.Swap = d.int("hostRusage mem"), d.int("hostRusage swap")
			h.Utime, h.Stime = d.int("hostRusage utime"), d.int("hostRusage stime")
			r.HostRusage = append(r.HostRusage, h)
		}
	}},
	// IBM's page lists options3 before runLimit; LSF writes runLimit
	// first (-1 when unset, 2419200 for a 28-day limit, followed by
	// option bits such as 0x400040), and so does Append.
	{"runLimit", func(d *decoder, r *Record) { r.RunLimit = d.int("runLimit") }},
	{"options3", func(d *decoder, r *Record) { r.Options3 = d.int("options3") }},
	{"avgMem", func(d *decoder, r *Record) { r.AvgMem = d.int("avgMem") }},
	{"effectiveResReq", func(d *decoder, r *Record) { r.EffectiveResReq = d.str("effectiveResReq") }},
	{"srcCluster", func(d *decoder, r *Record) { r.SrcCluster = d.str("srcCluster") }},
	{"srcJobId", func(d *decoder, r *Record) { r.SrcJobID = d.int("srcJobId") }},
	{"dstCluster", func(d *decoder, r *Record) { r.DstCluster = d.str("dstCluster") }},
	{"dstJobId", func(d *decoder, r *Record) { r.DstJobID = d.int("dstJobId") }},
	{"forwardTime", func(d *decoder, r *Record) { r.ForwardTime = d.int("forwardTime") }},
	{"flow_id", func(d *decoder, r *Record) { r.FlowID = d.str("flow_id") }},
	{"acJobWaitTime", func(d *decoder, r *Record) { r.AcJobWaitTime = d.int("acJobWaitTime") }},
	{"totalProvisionTime", func(d *decoder, r *Record) { r.TotalProvisionTime = d.int("totalProvisionTime") }},
	{"outdir", func(d *decoder, r *Record) { r.Outdir = d.str("outdir") }},
	{"runTime", func(d *decoder, r *Record) { r.RunTime = d.int("runTime") }},
	{"subcwd", func(d *decoder, r *Record) { r.Subcwd = d.str("subcwd") }},
	{"num_network", func(d *decoder, r *Record) {
		n := d.count("num_network", 2)
		for i := 0; i < n && d.err == nil; i++ {
			id := d.str("networkID")
			r.Networks = append(r.Networks, Network{id, d.int("num_window")})
		}
	}},
	{"affinity", func(d *decoder, r *Record) { r.Affinity = d.str("affinity") }},
	{"serial_job_energy", func(d *decoder, r *Record) { r.SerialJobEnergy = d.float("serial_job_energy") }},
	{"cpi", func(d *decoder, r *Record) { r.CPI = d.float("cpi") }},
	{"gips", func(d *decoder, r *Record) { r.GIPS = d.float("gips") }},
	{"gbs", func(d *decoder, r *Record) { r.GBS = d.float("gbs") }},
	{"gflops", func(d *decoder, r *Record) { r.GFLOPS = d.float("gflops") }},
	{"numAllocSlots", func(d *decoder, r *Record) { r.AllocSlots = d.strs("numAllocSlots", "allocSlots") }},
	{"ineligiblePendTime", func(d *decoder, r *Record) { r.IneligiblePendTime = d.int("ineligiblePendTime") }},
	{"indexRangeCnt", func(d *decoder, r *Record) {
		n := d.count("indexRangeCnt", 6)
		if n > 0 {
			r.IndexRanges = make([]IndexRange, 0, n)
		}
		for i := 0; i < n && d.err == nil; i++ {
			var x IndexRange
			x.Start, x.End, x.Step = d.int("indexRangeStart"), d.int("indexRangeEnd"), d.int("indexRangeStep")
			r.IndexRanges = append(r.IndexRanges, x)
		}
	}},
	{"requeueTime", func(d *decoder, r *Record) { r.RequeueTime = d.int("requeueTime") }},
	{"numGPURusages", func(d *decoder, r *Record) {
		n := d.count("numGPURusages", 4)
		for i := 0; i < n && d.err == nil; i++ {
			g := GPURusage{Host: d.str("gRusage hostname")}
			g.Values = d.keyValues("gRusage numKVP")
			r.GPURusage = append(r.GPURusage, g)
		}
	}},
	{"storageInfoC", func(d *decoder, r *Record) { r.StorageInfo = d.strs("storageInfoC", "storageInfoV") }},
	{"numKVP", func(d *decoder, r *Record) { r.KeyValues = d.keyValues("numKVP") }},
}

func (d *decoder) keyValues(field string) []KeyValue {
	n := d.count(field, 4)
	if n == 0 {
		return nil
	}
	out := d.kvArena.take(n)
	for i := 0; i < n && d.err == nil; i++ {
		out[i].Key = d.str("key")
		out[i].Value = d.str("value")
	}
	return out
}
