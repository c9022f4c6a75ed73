package lsbacct

import (
	"strconv"
	"strings"
)

// Append appends r to dst as one JOB_FINISH line of the 10.108 layout,
// newline included, and returns the extended buffer. Every field is
// written, whatever r.Version says: the version written is Version.
// Strings are quoted, a quote inside doubled; a line break inside a
// string is written as ';' (as LSF writes a job script's lines) and other
// control characters but the tab as blanks, so that the record stays on its line.
// Times and counts are integers, the CPU factor has one decimal, user and
// system time six, the rest of the rusage none, and the job's energy and
// performance counters as LSF writes them. r.Extra is written after the
// known fields, as it was read.
func Append(dst []byte, r *Record) []byte {
	w := writer{b: dst}
	w.str("JOB_FINISH")
	w.str(Version)
	w.int(r.EventTime)
	w.int(r.JobID)
	w.int(r.UserID)
	w.int(r.Options)
	w.int(r.NumProcessors)
	w.int(r.SubmitTime)
	w.int(r.BeginTime)
	w.int(r.TermTime)
	w.int(r.StartTime)
	w.str(r.UserName)
	w.str(r.Queue)
	w.str(r.ResReq)
	w.str(r.DependCond)
	w.str(r.PreExecCmd)
	w.str(r.FromHost)
	w.str(r.Cwd)
	w.str(r.InFile)
	w.str(r.OutFile)
	w.str(r.ErrFile)
	w.str(r.JobFile)
	w.strs(r.AskedHosts)
	w.strs(r.ExecHosts)
	w.int(r.JStatus)
	w.float(r.HostFactor, 1)
	w.str(r.JobName)
	w.str(r.Command)
	u := r.Rusage
	for i, p := range u.fields() {
		prec := 0
		if i < 2 {
			prec = 6
		}
		w.float(*p, prec)
	}
	w.str(r.MailUser)
	w.str(r.ProjectName)
	w.int(r.ExitStatus)
	w.int(r.MaxNumProcessors)
	w.str(r.LoginShell)
	w.str(r.TimeEvent)
	w.int(r.Idx)
	w.int(r.MaxRMem)
	w.int(r.MaxRSwap)
	w.str(r.InFileSpool)
	w.str(r.CommandSpool)
	w.str(r.RsvID)
	w.str(r.SLA)
	w.int(r.ExceptMask)
	w.str(r.AdditionalInfo)
	w.int(r.ExitInfo)
	w.str(r.WarningAction)
	w.int(r.WarningTimePeriod)
	w.str(r.ChargedSAAP)
	w.str(r.LicenseProject)
	w.str(r.App)
	w.str(r.PostExecCmd)
	w.int(r.RuntimeEstimation)
	w.str(r.JobGroup)
	w.str(r.RequeueEValues)
	w.int(r.Options2)
	w.str(r.ResizeNotifyCmd)
	w.int(r.LastResizeTime)
	w.str(r.RsvIDLong)
	w.str(r.JobDescription)
	w.int(int64(len(r.SubmitExt)))
	for _, kv := range r.SubmitExt {
		w.int(kv.Key)
		w.str(kv.Value)
	}
	w.int(int64(len(r.HostRusage)))
	for _, h := range r.HostRusage {
		w.str(h.Host)
		w.int(h.Mem)
		w.int(h.Swap)
		w.int(h.Utime)
		w.int(h.Stime)
	}
	w.int(r.RunLimit)
	w.int(r.Options3)
	w.int(r.AvgMem)
	w.str(r.EffectiveResReq)
	w.str(r.SrcCluster)
	w.int(r.SrcJobID)
	w.str(r.DstCluster)
	w.int(r.DstJobID)
	w.int(r.ForwardTime)
	w.str(r.FlowID)
	w.int(r.AcJobWaitTime)
	w.int(r.TotalProvisionTime)
	w.str(r.Outdir)
	w.int(r.RunTime)
	w.str(r.Subcwd)
	w.int(int64(len(r.Networks)))
	for _, n := range r.Networks {
		w.str(n.ID)
		w.int(n.Windows)
	}
	w.str(r.Affinity)
	w.float(r.SerialJobEnergy, 6)
	w.float(r.CPI, 2)
	w.float(r.GIPS, 2)
	w.float(r.GBS, 2)
	w.float(r.GFLOPS, 2)
	w.strs(r.AllocSlots)
	w.int(r.IneligiblePendTime)
	w.int(int64(len(r.IndexRanges)))
	for _, x := range r.IndexRanges {
		w.int(x.Start)
		w.int(x.End)
		w.int(x.Step)
	}
	w.int(r.RequeueTime)
	w.int(int64(len(r.GPURusage)))
	for _, g := range r.GPURusage {
		w.str(g.Host)
		w.keyValues(g.Values)
	}
	w.strs(r.StorageInfo)
	w.keyValues(r.KeyValues)
	for _, x := range r.Extra {
		w.sep()
		w.b = append(w.b, x...)
	}
	return append(w.b, '\n')
}

type writer struct {
	b []byte
}

func (w *writer) sep() {
	if len(w.b) > 0 && w.b[len(w.b)-1] != '\n' {
		w.b = append(w.b, ' ')
	}
}

func (w *writer) int(n int64) {
	w.sep()
	w.b = strconv.AppendInt(w.b, n, 10)
}

func (w *writer) float(f float64, prec int) {
	w.sep()
	w.b = strconv.AppendFloat(w.b, f, 'f', prec, 64)
}

func (w *writer) str(s string) {
	w.sep()
	w.b = appendQuoted(w.b, s)
}

func (w *writer) strs(list []string) {
	w.int(int64(len(list)))
	for _, s := range list {
		w.str(s)
	}
}

func (w *writer) keyValues(kv []KeyValue) {
	w.int(int64(len(kv)))
	for _, x := range kv {
		w.str(x.Key)
		w.str(x.Value)
	}
}

// appendQuoted appends s between quotes, as the file writes a string.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			b = append(b, '"', '"')
		case c == '\n':
			b = append(b, ';')
		case (c < ' ' && c != '\t') || c == 0x7f:
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// quote returns s as the file writes a string.
func quote(s string) string { return string(appendQuoted(nil, s)) }

// String returns r as Append writes it, without the newline.
func (r *Record) String() string {
	return strings.TrimSuffix(string(Append(nil, r)), "\n")
}
