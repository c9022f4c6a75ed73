package lsbacct

// Version is the record layout Append writes: LSF 10.1 fix pack 8's.
const Version = "10.108"

// Job status values of JOB_FINISH's jStatus field.
const (
	StatusExit = 32 // the job exited (EXIT)
	StatusDone = 64 // the job ended normally (DONE)
)

// Exception bits of exceptMask.
const (
	ExceptOverrun  = 0x02 // the job ran longer than its queue's JOB_OVERRUN
	ExceptUnderrun = 0x04 // the job ended sooner than its queue's JOB_UNDERRUN
	ExceptIdle     = 0x80 // the job was idle (JOB_IDLE)
)

// SubExclusive is the option bit of bsub -x: the job uses its hosts
// exclusively.
const SubExclusive = 0x40

// A Record is one JOB_FINISH record of lsb.acct: a finished job. Its
// fields are named after IBM's lsb.acct page, in the file's order. Times
// are seconds since the epoch, 0 when unset; memory is in KB. A field an
// older record does not hold is zero.
type Record struct {
	Version       string // version of the record's layout, "10.108"
	EventTime     int64  // when the record was logged
	JobID         int64
	UserID        int64 // UNIX user id of the submitter
	Options       int64 // bsub option bits (SubExclusive, ...)
	NumProcessors int64 // processors asked for (bsub -n, its least)
	SubmitTime    int64
	BeginTime     int64 // bsub -b, 0 when unset
	TermTime      int64 // bsub -t, 0 when unset
	StartTime     int64 // dispatch time, 0 when the job never started
	UserName      string
	Queue         string
	ResReq        string // -R as the user wrote it
	DependCond    string
	PreExecCmd    string
	FromHost      string
	Cwd           string
	InFile        string
	OutFile       string
	ErrFile       string
	JobFile       string
	AskedHosts    []string // bsub -m
	ExecHosts     []string // one name per slot used
	JStatus       int64    // StatusDone or StatusExit
	HostFactor    float64  // CPU factor of the first execution host
	JobName       string
	Command       string
	Rusage        Rusage

	MailUser          string
	ProjectName       string
	ExitStatus        int64 // wait status: exit code << 8, or the signal
	MaxNumProcessors  int64
	LoginShell        string
	TimeEvent         string
	Idx               int64 // job array index, 0 outside arrays
	MaxRMem           int64
	MaxRSwap          int64
	InFileSpool       string
	CommandSpool      string
	RsvID             string
	SLA               string
	ExceptMask        int64 // ExceptOverrun, ExceptUnderrun, ExceptIdle
	AdditionalInfo    string
	ExitInfo          int64 // termination reason (TERM_*), 0 when none
	WarningAction     string
	WarningTimePeriod int64
	ChargedSAAP       string
	LicenseProject    string
	App               string
	PostExecCmd       string
	RuntimeEstimation int64
	JobGroup          string
	RequeueEValues    string
	Options2          int64
	ResizeNotifyCmd   string
	LastResizeTime    int64
	RsvIDLong         string // rsvId again, when the reservation name is long
	JobDescription    string
	SubmitExt         []IntValue
	HostRusage        []HostRusage

	RunLimit           int64 // bsub -W in seconds, -1 when unset
	Options3           int64
	AvgMem             int64
	EffectiveResReq    string // the requirement the job ran with
	SrcCluster         string
	SrcJobID           int64
	DstCluster         string
	DstJobID           int64
	ForwardTime        int64
	FlowID             string
	AcJobWaitTime      int64
	TotalProvisionTime int64
	Outdir             string
	RunTime            int64 // seconds in the run state
	Subcwd             string
	Networks           []Network
	Affinity           string
	SerialJobEnergy    float64
	CPI                float64
	GIPS               float64
	GBS                float64
	GFLOPS             float64
	AllocSlots         []string
	IneligiblePendTime int64
	IndexRanges        []IndexRange
	RequeueTime        int64
	GPURusage          []GPURusage
	StorageInfo        []string
	KeyValues          []KeyValue

	// Extra holds the fields after the last one this package knows,
	// each as written (strings with their quotes), for a later layout.
	Extra []string
	// Fields is how many fields the record held, its type included.
	Fields int
}

// Rusage is the resource usage of a job, getrusage's fields in the file's
// order; -1 when unknown. Times are seconds, sizes KB.
type Rusage struct {
	Utime, Stime, Maxrss, Ixrss, Ismrss, Idrss, Isrss, Minflt, Majflt, Nswap,
	Inblock, Oublock, Ioch, Msgsnd, Msgrcv, Nsignals, Nvcsw, Nivcsw, Exutime float64
}

// An IntValue is an item of the submission extension: a numeric key and
// its value.
type IntValue struct {
	Key   int64
	Value string
}

// A KeyValue is a named value.
type KeyValue struct {
	Key, Value string
}

// HostRusage is the resource usage of a job on one host.
type HostRusage struct {
	Host         string
	Mem, Swap    int64
	Utime, Stime int64
}

// A Network is a network allocation: its id and number of windows.
type Network struct {
	ID      string
	Windows int64
}

// An IndexRange is a range of job array indexes, start to end by step.
type IndexRange struct {
	Start, End, Step int64
}

// GPURusage is the GPU usage of a job on one host.
type GPURusage struct {
	Host   string
	Values []KeyValue
}

// Started reports whether the job was dispatched.
func (r *Record) Started() bool { return r.StartTime > 0 }

// Done reports whether the job ended DONE.
func (r *Record) Done() bool { return r.JStatus == StatusDone }

// Exclusive reports whether the job was submitted with bsub -x.
func (r *Record) Exclusive() bool { return r.Options&SubExclusive != 0 }

// CPUTime is the job's user and system time, 0 when unknown.
func (r *Record) CPUTime() float64 {
	t := 0.0
	if r.Rusage.Utime > 0 {
		t += r.Rusage.Utime
	}
	if r.Rusage.Stime > 0 {
		t += r.Rusage.Stime
	}
	return t
}

// Slots is the number of slots the job used: its allocated slots, else
// its execution hosts (one per slot), else the processors it asked for.
func (r *Record) Slots() int {
	switch {
	case len(r.AllocSlots) > 0:
		return len(r.AllocSlots)
	case len(r.ExecHosts) > 0:
		return len(r.ExecHosts)
	}
	return int(r.NumProcessors)
}
