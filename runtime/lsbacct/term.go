package lsbacct

// termNames are LSF's job termination reasons by the number the exitInfo
// field holds (lsbatch.h's TERM_* values).
var termNames = [...]string{
	"TERM_UNKNOWN", "TERM_PREEMPT", "TERM_WINDOW", "TERM_LOAD", "TERM_OTHER", "TERM_RUNLIMIT",
	"TERM_DEADLINE", "TERM_PROCESSLIMIT", "TERM_FORCE_OWNER", "TERM_FORCE_ADMIN", "TERM_REQUEUE_OWNER",
	"TERM_REQUEUE_ADMIN", "TERM_CPULIMIT", "TERM_CHKPNT", "TERM_OWNER", "TERM_ADMIN", "TERM_MEMLIMIT",
	"TERM_EXTERNAL_SIGNAL", "TERM_RMS", "TERM_ZOMBIE", "TERM_SWAP", "TERM_THREADLIMIT", "TERM_SLURM",
	"TERM_BUCKET_KILL", "TERM_CTRL_PID", "TERM_CWD_NOTEXIST",
}

// TermName returns the name of an exitInfo value ("TERM_OWNER"), or ""
// for 0 and values it does not know.
func TermName(code int64) string {
	if code <= 0 || code >= int64(len(termNames)) {
		return ""
	}
	return termNames[code]
}

// TermCode returns the exitInfo value of a termination reason, 0 for ""
// and names it does not know.
func TermCode(name string) int64 {
	for i, n := range termNames {
		if n == name && i > 0 {
			return int64(i)
		}
	}
	return 0
}

// More option bits of the options field, as lsbatch.h numbers them.
const (
	SubJobName    = 0x01
	SubQueue      = 0x02
	SubHost       = 0x04
	SubOutFile    = 0x10
	SubErrFile    = 0x20
	SubRerunnable = 0x4000
	SubDependCond = 0x20000
	SubResReq     = 0x40000
	SubProject    = 0x2000000
)
