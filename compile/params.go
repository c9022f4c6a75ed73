package compile

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/lsfc/lsfc/lang"
)

// Params are the lsb.params values lsfc acts on, typed. Each field holds
// the value the file sets (outside any #if, or else in the first arm, as
// Setting.Value does) or, when the file does not set it, the key's
// documented default for the policy's dialect; its zero value stands for
// a default only where the field's comment says so, for keys whose
// default is not a value ("unlimited") or that have none. Durations are
// time.Duration whatever unit the key is written in.
//
// The lsf tag of a field names its key; a test checks that every key of
// the lsb.params schema is either a field here or a key lsfc only checks.
// Policy.Params keeps every key as written, with its position.
type Params struct {
	// MBDSleepTime is MBD_SLEEP_TIME, the period of mbatchd's scheduling
	// loop and the unit of several other keys.
	MBDSleepTime time.Duration `lsf:"MBD_SLEEP_TIME"`
	// SBDSleepTime is SBD_SLEEP_TIME, the period at which sbatchd checks
	// the load of its host against the load thresholds.
	SBDSleepTime time.Duration `lsf:"SBD_SLEEP_TIME"`
	// CleanPeriod is CLEAN_PERIOD, how long a finished job is kept.
	CleanPeriod time.Duration `lsf:"CLEAN_PERIOD"`
	// JobSchedulingInterval is JOB_SCHEDULING_INTERVAL, the least and the
	// most time between two scheduling sessions.
	JobSchedulingInterval SchedulingInterval `lsf:"JOB_SCHEDULING_INTERVAL"`
	// JobAcceptInterval is JOB_ACCEPT_INTERVAL, the pause before a host
	// that received a job gets another, of the queues that do not set
	// their own: a multiple of MBD_SLEEP_TIME or a time.
	JobAcceptInterval AcceptInterval `lsf:"JOB_ACCEPT_INTERVAL"`
	// ResourceReservePerTask is RESOURCE_RESERVE_PER_TASK: rusage is
	// reserved per task rather than per host.
	ResourceReservePerTask bool `lsf:"RESOURCE_RESERVE_PER_TASK"`
	// MaxUserPriority is MAX_USER_PRIORITY, the highest bsub -sp priority;
	// 0 when unset (the key has no default: user priorities are off).
	MaxUserPriority int `lsf:"MAX_USER_PRIORITY"`
	// JobDepLastSub is JOB_DEP_LAST_SUB (1: a dependency on a job name
	// means its last submitted job); 0 when unset.
	JobDepLastSub int `lsf:"JOB_DEP_LAST_SUB"`
	// MaxJobArraySize is MAX_JOB_ARRAY_SIZE, the largest index, and the
	// most elements, of a job array.
	MaxJobArraySize int `lsf:"MAX_JOB_ARRAY_SIZE"`
	// MaxPendJobs and MaxPendSlots are MAX_PEND_JOBS and MAX_PEND_SLOTS,
	// the pending jobs and the slots of pending jobs no user or user
	// group may pass; 0 for unlimited, the default.
	MaxPendJobs  int `lsf:"MAX_PEND_JOBS"`
	MaxPendSlots int `lsf:"MAX_PEND_SLOTS"`
	// SubTryInterval is SUB_TRY_INTERVAL, how long bsub waits before it
	// tries again a submission refused for a pending job threshold.
	SubTryInterval time.Duration `lsf:"SUB_TRY_INTERVAL"`
	// DefaultQueue is DEFAULT_QUEUE, the queues of jobs submitted without
	// one; nil when unset.
	DefaultQueue []string `lsf:"DEFAULT_QUEUE"`
	// DefaultProject is DEFAULT_PROJECT, the project of jobs submitted
	// without -P ("default" when unset, as in LSF).
	DefaultProject string `lsf:"DEFAULT_PROJECT"`
	// DefaultJobGroup is DEFAULT_JOBGROUP, the job group of jobs
	// submitted without -g, with its %u-like patterns; "" when unset.
	DefaultJobGroup string `lsf:"DEFAULT_JOBGROUP"`
	// DefaultJobCwd is DEFAULT_JOB_CWD, the working directory of jobs
	// submitted without -cwd (nor LSB_JOB_CWD, nor a profile's JOB_CWD),
	// with its %J-like patterns; relative to the submission directory;
	// "" when unset.
	DefaultJobCwd string `lsf:"DEFAULT_JOB_CWD"`
	// DefaultJobOutdir is DEFAULT_JOB_OUTDIR, the output directory of
	// jobs submitted without -outdir, with its patterns; "" when unset.
	DefaultJobOutdir string `lsf:"DEFAULT_JOB_OUTDIR"`
	// JobGroupClean is JOB_GROUP_CLEAN: implicit job groups are deleted
	// once empty.
	JobGroupClean bool `lsf:"JOB_GROUP_CLEAN"`
	// MCPluginScheduleEnhance is MC_PLUGIN_SCHEDULE_ENHANCE as written;
	// "" when unset.
	MCPluginScheduleEnhance string `lsf:"MC_PLUGIN_SCHEDULE_ENHANCE"`
	// MaxJobPreempt is MAX_JOB_PREEMPT, the most times a job may be
	// preempted; 0 for unlimited, the default, which the file cannot
	// write (the key takes numbers above 0).
	MaxJobPreempt int `lsf:"MAX_JOB_PREEMPT"`
	// MaxJobRequeue is MAX_JOB_REQUEUE, the most times one job may be
	// requeued automatically on its requeue exit values; -1 for
	// unlimited, the default.
	MaxJobRequeue int `lsf:"MAX_JOB_REQUEUE,nodefault"`
	// GPUReqMerge is GPU_REQ_MERGE: a job's -gpu is merged option by
	// option with the GPU requirements of its application profile, queue
	// and cluster; without it, -gpu replaces them whole.
	GPUReqMerge bool `lsf:"GPU_REQ_MERGE"`
	// PreemptFor is PREEMPT_FOR, as written; nil when unset.
	PreemptFor []string `lsf:"PREEMPT_FOR"`
	// PreemptJobType is PREEMPT_JOBTYPE, as written; nil when unset.
	PreemptJobType []string `lsf:"PREEMPT_JOBTYPE"`
	// JobExitRateDuration is JOB_EXIT_RATE_DURATION, the window over
	// which host exit rates are counted.
	JobExitRateDuration time.Duration `lsf:"JOB_EXIT_RATE_DURATION"`
	// DetectIdleJobAfter is DETECT_IDLE_JOB_AFTER, how long a job runs
	// before it may count as idle.
	DetectIdleJobAfter time.Duration `lsf:"DETECT_IDLE_JOB_AFTER"`
	// EadminTriggerDuration is EADMIN_TRIGGER_DURATION, the period of the
	// exception checks.
	EadminTriggerDuration time.Duration `lsf:"EADMIN_TRIGGER_DURATION"`
	// GlobalExitRate is GLOBAL_EXIT_RATE, the exit rate threshold of the
	// hosts without EXIT_RATE; 0 for unlimited, the default, which the
	// file cannot write (the key takes numbers above 0).
	GlobalExitRate int `lsf:"GLOBAL_EXIT_RATE"`
	// ExitRateType is EXIT_RATE_TYPE, the exits that count, as written.
	ExitRateType []string `lsf:"EXIT_RATE_TYPE"`
	// CPUTimeFactor, RunTimeFactor and RunJobFactor are CPU_TIME_FACTOR,
	// RUN_TIME_FACTOR and RUN_JOB_FACTOR, the weights of a user's CPU
	// time, run time and running jobs in the dynamic user priority.
	CPUTimeFactor float64 `lsf:"CPU_TIME_FACTOR"`
	RunTimeFactor float64 `lsf:"RUN_TIME_FACTOR"`
	RunJobFactor  float64 `lsf:"RUN_JOB_FACTOR"`
	// HistHours is HIST_HOURS, the decay time of fairshare use: after it,
	// an hour of use counts as a tenth of an hour; 0 keeps use undecayed.
	HistHours time.Duration `lsf:"HIST_HOURS"`
	// AbsRunLimit is ABS_RUNLIMIT: run limits are wall-clock time, not
	// normalised by the host's CPU factor.
	AbsRunLimit bool `lsf:"ABS_RUNLIMIT"`
	// AcctArchiveAge is ACCT_ARCHIVE_AGE: lsb.acct is archived once it is
	// this old; 0 when unset (no age limit).
	AcctArchiveAge time.Duration `lsf:"ACCT_ARCHIVE_AGE"`
	// AcctArchiveSize is ACCT_ARCHIVE_SIZE in MB: lsb.acct is archived
	// once it is larger; 0 when unset (no size limit).
	AcctArchiveSize float64 `lsf:"ACCT_ARCHIVE_SIZE"`
	// AcctArchiveTime is ACCT_ARCHIVE_TIME, the time of day ("hh:mm") at
	// which lsb.acct is archived every day; "" when unset.
	AcctArchiveTime string `lsf:"ACCT_ARCHIVE_TIME"`
	// MaxAcctArchiveFile is MAX_ACCT_ARCHIVE_FILE, the archived lsb.acct
	// files kept (the oldest beyond it are deleted); 0 when unset (all
	// are kept).
	MaxAcctArchiveFile int `lsf:"MAX_ACCT_ARCHIVE_FILE"`
	// LocalMaxPreexecRetry is LOCAL_MAX_PREEXEC_RETRY, the attempts of a
	// failing pre-execution command of a job of this cluster before
	// LocalMaxPreexecRetryAction applies; 0 for unlimited, the default,
	// which the file cannot write (the key takes numbers above 0).
	LocalMaxPreexecRetry int `lsf:"LOCAL_MAX_PREEXEC_RETRY"`
	// LocalMaxPreexecRetryAction is LOCAL_MAX_PREEXEC_RETRY_ACTION:
	// SUSPEND (the job goes PSUSP) or EXIT.
	LocalMaxPreexecRetryAction string `lsf:"LOCAL_MAX_PREEXEC_RETRY_ACTION"`
	// MaxPreexecRetry and RemoteMaxPreexecRetry are MAX_PREEXEC_RETRY
	// and REMOTE_MAX_PREEXEC_RETRY, the attempts of a job received from
	// another cluster (the latter wins when both are set).
	MaxPreexecRetry       int `lsf:"MAX_PREEXEC_RETRY"`
	RemoteMaxPreexecRetry int `lsf:"REMOTE_MAX_PREEXEC_RETRY"`
	// JobIncludePostproc is JOB_INCLUDE_POSTPROC: a job stays RUN, holding
	// its slots, until its post-execution commands end, which then end it;
	// unset (N, the default) the job is DONE or EXIT as soon as its
	// command ends, and they run after it.
	JobIncludePostproc bool `lsf:"JOB_INCLUDE_POSTPROC"`
	// JobPostprocTimeout is JOB_POSTPROC_TIMEOUT: post-execution
	// commands still running after it are killed and fail; 0 for none.
	JobPostprocTimeout time.Duration `lsf:"JOB_POSTPROC_TIMEOUT"`
	// JobSpoolDir is JOB_SPOOL_DIR, where a job's output is spooled until
	// it ends; "" when unset (the job user's $HOME/.lsbatch).
	JobSpoolDir string `lsf:"JOB_SPOOL_DIR,nodefault"`
}

// Conf are the lsf.conf values lsfc acts on, typed, as Params are for
// lsb.params. Policy.Conf keeps every key as written, with its position.
type Conf struct {
	// UnitForLimits is LSF_UNIT_FOR_LIMITS as the compiler applies it:
	// the unit of bare numbers in memory limits. Openlava does not read
	// the key: its limits are in KB.
	UnitForLimits Unit `lsf:"LSF_UNIT_FOR_LIMITS"`
	// StopIgnoreIt is LSB_STOP_IGNORE_IT: a host's only job may be
	// suspended by load even while no one uses the host.
	StopIgnoreIt bool `lsf:"LSB_STOP_IGNORE_IT"`
	// JobMemLimit is LSB_JOB_MEMLIMIT: memory limits apply to the sum of
	// a job's processes; false when unset.
	JobMemLimit bool `lsf:"LSB_JOB_MEMLIMIT"`
	// GPUReq is LSB_GPU_REQ, the cluster's default GPU requirement: the
	// widest level GPU requirements are merged with; zero when unset.
	GPUReq lang.GPUReq `lsf:"LSB_GPU_REQ"`
	// MemLimitEnforce is LSB_MEMLIMIT_ENFORCE: memory limits are enforced
	// by LSF itself; false when unset.
	MemLimitEnforce bool `lsf:"LSB_MEMLIMIT_ENFORCE"`
	// MaxJobDispatchPerSession is LSB_MAX_JOB_DISPATCH_PER_SESSION, the
	// most jobs dispatched in one scheduling session.
	MaxJobDispatchPerSession int `lsf:"LSB_MAX_JOB_DISPATCH_PER_SESSION"`
	// MBDPort is LSB_MBD_PORT, the port of mbatchd.
	MBDPort int `lsf:"LSB_MBD_PORT"`
	// MCInitFailRetry is LSB_MC_INITFAIL_RETRY, how many times a job
	// forwarded to another cluster is retried after it fails to start.
	MCInitFailRetry int `lsf:"LSB_MC_INITFAIL_RETRY"`
	// MCPluginRemoteResource is MC_PLUGIN_REMOTE_RESOURCE: forwarding
	// looks at the resources of the other clusters' hosts; false when
	// unset.
	MCPluginRemoteResource bool `lsf:"MC_PLUGIN_REMOTE_RESOURCE"`
	// ShareDir is LSB_SHAREDIR, the directory of the batch system's
	// state; "" when unset, as its documented default (LSF_TOP/work)
	// names a directory lsf.conf does not give.
	ShareDir string `lsf:"LSB_SHAREDIR,nodefault"`
	// MasterList is LSF_MASTER_LIST, the management host candidates in
	// order; nil when unset.
	MasterList []string `lsf:"LSF_MASTER_LIST"`
	// DefineNcpus is EGO_DEFINE_NCPUS, how a host's ncpus is counted
	// (procs, cores or threads) where the host does not choose: see
	// Policy.NcpusCount.
	DefineNcpus string `lsf:"EGO_DEFINE_NCPUS"`
	// PrePostExecUser is LSB_PRE_POST_EXEC_USER, the user the pre- and
	// post-execution commands of queues and profiles run as when the
	// daemon runs as root; "" for the job's user.
	PrePostExecUser string `lsf:"LSB_PRE_POST_EXEC_USER"`
	// NTries is LSB_NTRIES, which bsub reads from the daemon's lsf.conf
	// when its environment does not set it: how many times a submission
	// refused for a pending job threshold is sent; 0 (unset) for no end.
	NTries int `lsf:"LSB_NTRIES"`
	// SubKShowExecHost is LSB_SUBK_SHOW_EXEC_HOST, which bsub -K reads
	// from the daemon's lsf.conf: it says where the job starts.
	SubKShowExecHost bool `lsf:"LSB_SUBK_SHOW_EXEC_HOST"`
	// ModAllJobs is LSB_MOD_ALL_JOBS: bmod may change the run limit (-W)
	// of a started job; false when unset.
	ModAllJobs bool `lsf:"LSB_MOD_ALL_JOBS"`
	// StdoutDirect is LSB_STDOUT_DIRECT: a job's -o file gets its output
	// as it runs and its job report after it, rather than the report
	// followed by the output spooled meanwhile; false when unset.
	StdoutDirect bool `lsf:"LSB_STDOUT_DIRECT"`
	// JobReportMail is LSB_JOB_REPORT_MAIL: job reports are mailed (a
	// job without -o, bsub -N and -Ne); true unless set to N.
	JobReportMail bool `lsf:"LSB_JOB_REPORT_MAIL"`
	// MailProg is LSB_MAILPROG, the program job mail is handed to
	// (/usr/lib/sendmail unless set).
	MailProg string `lsf:"LSB_MAILPROG"`
	// MailTo is LSB_MAILTO, the form of a job mail's address: !U stands
	// for the job's user and !H for its submission host ("!U" unless
	// set).
	MailTo string `lsf:"LSB_MAILTO"`
	// MailSizeLimit is LSB_MAILSIZE_LIMIT in KB: the output of a job
	// without -o whose report mail would be larger is kept in a file
	// rather than mailed; 0 when unset (no limit).
	MailSizeLimit int `lsf:"LSB_MAILSIZE_LIMIT"`
	// ProcessTracking is LSF_PROCESS_TRACKING: each job runs in a cgroup
	// of its own, through which its processes are signalled and killed;
	// false when unset.
	ProcessTracking bool `lsf:"LSF_PROCESS_TRACKING"`
	// CgroupAcct is LSF_LINUX_CGROUP_ACCT: the CPU time of a job
	// tracked by cgroup (ProcessTracking) is read from its cgroup;
	// false when unset.
	CgroupAcct bool `lsf:"LSF_LINUX_CGROUP_ACCT"`
}

// A SchedulingInterval is JOB_SCHEDULING_INTERVAL resolved.
type SchedulingInterval struct {
	// Min is the least time between two scheduling sessions.
	Min time.Duration
	// Max caps the length of a session; 0 when the value gives no
	// maximum.
	Max time.Duration
	// Set reports whether lsb.params sets the key; when it does not, Min
	// and Max are the documented default.
	Set bool
}

// MarshalJSON writes {"min", "max", "set"}, times in seconds.
func (s SchedulingInterval) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Min float64 `json:"min"`
		Max float64 `json:"max,omitempty"`
		Set bool    `json:"set"`
	}{s.Min.Seconds(), s.Max.Seconds(), s.Set})
}

// MarshalJSON writes the parameters by key, times in seconds.
func (p Params) MarshalJSON() ([]byte, error) { return marshalByKey(p) }

// MarshalJSON writes the parameters by key, times in seconds.
func (c Conf) MarshalJSON() ([]byte, error) { return marshalByKey(c) }

// marshalByKey writes the tagged fields of a struct as a JSON object by
// key (encoding/json sorts the keys): durations in seconds, units by
// name, an unset list as [].
func marshalByKey(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	out := map[string]any{}
	for i := 0; i < rv.NumField(); i++ {
		key, _, ok := lsfTag(rv.Type().Field(i))
		if !ok {
			continue
		}
		f := rv.Field(i).Interface()
		switch x := f.(type) {
		case time.Duration:
			f = x.Seconds()
		case Unit:
			f = x.String()
		case lang.GPUReq:
			f = x.String()
		case []string:
			if x == nil {
				f = []string{}
			}
		}
		out[key] = f
	}
	return json.Marshal(out)
}

// lsfTag reads a field's lsf tag: the key it holds and whether the key's
// documented default is left out ("nodefault").
func lsfTag(f reflect.StructField) (key string, noDefault, ok bool) {
	tag, ok := f.Tag.Lookup("lsf")
	if !ok {
		return "", false, false
	}
	key, opt, _ := strings.Cut(tag, ",")
	return key, opt == "nodefault", true
}

// resolveParams fills the typed parameters of the policy from its
// settings and the schema's defaults. It runs once every file is read.
func (c *compiler) resolveParams() {
	c.resolve(&c.p.Parameters, lang.KindLSBParams, "Parameters", c.p.Params)
	if st := c.p.Params["MAX_JOB_REQUEUE"]; st == nil || nilValue(st.Value) {
		c.p.Parameters.MaxJobRequeue = -1
	}
	c.resolve(&c.p.LSFConf, lang.KindLSFConf, "", c.p.Conf)
	c.p.LSFConf.UnitForLimits = c.limitUnit
}

// resolve sets each tagged field of the struct dst points to from the
// key's setting, or else its default. A value whose type the field does
// not take is a mismatch between the field and the schema, which a test
// of this package rules out: resolve panics on it.
func (c *compiler) resolve(dst any, kind lang.FileKind, section string, set Settings) {
	rv := reflect.ValueOf(dst).Elem()
	for i := 0; i < rv.NumField(); i++ {
		key, noDefault, ok := lsfTag(rv.Type().Field(i))
		if !ok {
			continue
		}
		// A setting whose value could not be read (its error is reported
		// where it was read) holds no value, or a nil one of its type:
		// the default stands for it.
		var val any
		st := set[key]
		given := st != nil && !nilValue(st.Value)
		switch {
		case given:
			val = st.Value
		case !noDefault:
			val = c.p.defaultOf(kind, section, key)
		}
		if !nilValue(val) && !assignTyped(rv.Field(i), val) {
			panic(fmt.Sprintf("compile: %s of %s: field of type %s cannot hold a %T", key, kind, rv.Field(i).Type(), val))
		}
		if si, ok := rv.Field(i).Addr().Interface().(*SchedulingInterval); ok {
			si.Set = given
		}
	}
}

// nilValue reports whether a setting's value is nil, or a nil pointer of
// its type.
func nilValue(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

var durationType = reflect.TypeFor[time.Duration]()

// assignTyped stores a typed value (as Setting.Value holds it) in a field
// of the matching Go type. It reports whether the types match.
func assignTyped(f reflect.Value, val any) bool {
	switch v := val.(type) {
	case Duration:
		if f.Type() == durationType {
			f.SetInt(int64(seconds(v)))
			return true
		}
	case float64:
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(int64(v))
			return true
		case reflect.Float64:
			f.SetFloat(v)
			return true
		}
	case bool:
		if f.Kind() == reflect.Bool {
			f.SetBool(v)
			return true
		}
	case string:
		switch p := f.Addr().Interface().(type) {
		case *string:
			*p = v
			return true
		case *Unit:
			u, err := ParseUnit(v)
			*p = u
			return err == nil
		}
	case []string:
		if p, ok := f.Addr().Interface().(*[]string); ok {
			*p = v
			return true
		}
	case *Interval:
		if p, ok := f.Addr().Interface().(*SchedulingInterval); ok {
			p.Min = seconds(v.Min)
			if v.Max != nil {
				p.Max = seconds(*v.Max)
			}
			return true
		}
	case *AcceptInterval:
		if p, ok := f.Addr().Interface().(*AcceptInterval); ok {
			*p = *v
			return true
		}
	case *lang.GPUReq:
		if p, ok := f.Addr().Interface().(*lang.GPUReq); ok {
			*p = *v
			return true
		}
	}
	return false
}

// seconds converts a Duration to a time.Duration, to the nanosecond.
func seconds(d Duration) time.Duration {
	return time.Duration(math.Round(float64(d) * float64(time.Second)))
}
