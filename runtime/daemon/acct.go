package daemon

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/lsbacct"
)

// AcctDir is the directory of lsb.acct in a state directory, as LSF keeps
// it in LSB_SHAREDIR/<cluster>/logdir (the state directory is
// LSB_SHAREDIR/<cluster> when lsf.conf sets it).
func AcctDir(stateDir string) string { return filepath.Join(stateDir, lsbacct.LogDir) }

// An acctWriter appends a JOB_FINISH record to lsb.acct for each job that
// finishes, once its finish is durable in the event log: a batch waits
// for its transaction, in the order of the transactions, on a goroutine
// of its own, so that the owner of the cluster never waits for the file.
type acctWriter struct {
	log  *lsbacct.Log
	ch   chan acctBatch
	done chan struct{}
	logf func(string, ...any)
}

type acctBatch struct {
	commit Committed
	recs   []*lsbacct.Record
}

// archiveOf returns the archiving of lsb.acct lsb.params asks for.
func archiveOf(p compile.Params) lsbacct.Archive {
	a := lsbacct.Archive{Age: p.AcctArchiveAge, Size: int64(p.AcctArchiveSize * 1024 * 1024), Keep: p.MaxAcctArchiveFile}
	if m, ok := compile.ParseClock(p.AcctArchiveTime); ok {
		a.Time, a.TimeSet = m, true
	}
	return a
}

// openAcct opens lsb.acct and writes the records of the finished jobs the
// replayed log holds that the file does not: those whose finish was
// durable when the daemon stopped before their record was. The file is
// matched by job and finish time from its end, so that a record is
// neither lost nor written twice. It then starts the writer.
func (d *Daemon) openAcct() error {
	if d.cfg.noAcct {
		return nil
	}
	dir := AcctDir(d.cfg.StateDir)
	l, err := lsbacct.OpenLog(dir, archiveOf(d.cfg.Policy.Parameters), d.clk.Now)
	if err != nil {
		return fmt.Errorf("lsb.acct: %w", err)
	}
	var finished []*runtime.Job
	since := int64(math.MaxInt64)
	for _, j := range d.cluster.Jobs() {
		if j.State.Finished() {
			finished = append(finished, j)
			since = min(since, int64(j.End))
		}
	}
	if len(finished) > 0 {
		have, err := lsbacct.Recent(dir, since)
		if err != nil {
			l.Close()
			return fmt.Errorf("lsb.acct: %w", err)
		}
		slices.SortFunc(finished, func(a, b *runtime.Job) int {
			return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.ID, b.ID))
		})
		var missing []*lsbacct.Record
		for _, j := range finished {
			r := d.acctRecord(j)
			if !have[lsbacct.KeyOf(r)] {
				missing = append(missing, r)
			}
		}
		if err := l.Append(missing); err != nil {
			l.Close()
			return fmt.Errorf("lsb.acct: %w", err)
		}
		if len(missing) > 0 {
			d.noteRecovery(fmt.Sprintf("wrote to lsb.acct the records of %d finished jobs the event log held", len(missing)))
		}
	}
	d.acct = &acctWriter{log: l, ch: make(chan acctBatch, 4096), done: make(chan struct{}), logf: d.cfg.Logf}
	go d.acct.run()
	return nil
}

// noteFinishes queues the records of the jobs the records of a transaction
// finish, to be written once the transaction is durable.
func (d *Daemon) noteFinishes(c Committed, recs []Record) {
	if d.acct == nil {
		return
	}
	var out []*lsbacct.Record
	for _, r := range recs {
		if r.Type != KindFinish && r.Type != KindRemoteFinish {
			continue
		}
		if j := d.cluster.Job(r.Job); j != nil && j.State.Finished() {
			out = append(out, d.acctRecord(j))
		}
	}
	if len(out) > 0 {
		d.acct.ch <- acctBatch{c, out}
	}
}

func (w *acctWriter) run() {
	defer close(w.done)
	for b := range w.ch {
		if b.commit.Wait() != nil {
			continue // never durable: the job did not finish
		}
		recs := b.recs
		// Batches already waiting share the write and its sync.
		for more := true; more; {
			select {
			case nb, ok := <-w.ch:
				if !ok {
					more = false
					break
				}
				if nb.commit.Wait() == nil {
					recs = append(recs, nb.recs...)
				}
			default:
				more = false
			}
		}
		if err := w.log.Append(recs); err != nil {
			w.logf("lsb.acct: %v (the next start writes the records again)", err)
		}
	}
}

// close writes what is queued and closes the file.
func (w *acctWriter) close() error {
	close(w.ch)
	<-w.done
	return w.log.Close()
}

// acctRecord returns the JOB_FINISH record of a finished job.
func (d *Daemon) acctRecord(j *runtime.Job) *lsbacct.Record {
	s := &j.Sub
	r := &lsbacct.Record{
		Version: lsbacct.Version, EventTime: int64(j.End), JobID: j.JobID(), Idx: int64(j.Index()), UserID: int64(s.UID),
		NumProcessors: int64(j.Slots), MaxNumProcessors: int64(j.Slots),
		SubmitTime: int64(j.Submit), StartTime: int64(j.Start), UserName: j.User, Queue: j.Queue.Name,
		ResReq: j.ResReq, DependCond: j.Depend, FromHost: s.FromHost, Cwd: s.Cwd, Subcwd: s.Cwd,
		OutFile: s.Stdout, ErrFile: s.Stderr, AskedHosts: s.Hosts,
		JobFile: strconv.FormatInt(int64(j.Submit), 10) + "." + strconv.FormatInt(j.ID, 10),
		JStatus: lsbacct.StatusExit, HostFactor: 1, JobName: j.Name, Command: s.Command,
		ProjectName: j.Project(), ExitStatus: int64(j.ExitCode) << 8, ExitInfo: lsbacct.TermCode(j.Term),
		MaxRMem: int64(j.MaxMem * 1024), WarningTimePeriod: -1, RuntimeEstimation: -1,
		LastResizeTime: int64(j.Start), RunLimit: -1, SrcJobID: -1, DstJobID: -1, IneligiblePendTime: -1,
		Options: lsbacct.SubQueue | lsbacct.SubProject,
	}
	if j.State == runtime.Done {
		r.JStatus = lsbacct.StatusDone
	}
	if a := j.Array(); a != nil {
		// An element's name is its array's, index list and all, as LSF
		// writes it; Idx tells the elements apart.
		r.JobName = a.SpecString()
		r.JobFile = strconv.FormatInt(int64(j.Submit), 10) + "." + strconv.FormatInt(j.JobID(), 10) + "." + strconv.Itoa(j.Index())
	}
	if j.RunLimit > 0 {
		r.RunLimit = int64(j.RunLimit)
	}
	if j.Req != nil {
		r.EffectiveResReq = j.Req.Text
	}
	for _, o := range []struct {
		on  bool
		bit int64
	}{{j.Name != "", lsbacct.SubJobName}, {len(s.Hosts) > 0, lsbacct.SubHost}, {s.Stdout != "", lsbacct.SubOutFile},
		{s.Stderr != "", lsbacct.SubErrFile}, {s.Exclusive, lsbacct.SubExclusive}, {s.Rerunnable, lsbacct.SubRerunnable},
		{j.Depend != "", lsbacct.SubDependCond}, {j.ResReq != "", lsbacct.SubResReq}} {
		if o.on {
			r.Options |= o.bit
		}
	}
	for _, e := range []struct {
		exc runtime.Exception
		bit int64
	}{{runtime.ExcOverrun, lsbacct.ExceptOverrun}, {runtime.ExcUnderrun, lsbacct.ExceptUnderrun}, {runtime.ExcIdle, lsbacct.ExceptIdle}} {
		if j.Exceptions&e.exc != 0 {
			r.ExceptMask |= e.bit
		}
	}
	u := &r.Rusage
	for _, p := range []*float64{&u.Utime, &u.Stime, &u.Maxrss, &u.Ixrss, &u.Ismrss, &u.Idrss, &u.Isrss, &u.Minflt,
		&u.Majflt, &u.Nswap, &u.Inblock, &u.Oublock, &u.Ioch, &u.Msgsnd, &u.Msgrcv, &u.Nsignals, &u.Nvcsw, &u.Nivcsw, &u.Exutime} {
		*p = -1
	}
	if j.Start > 0 {
		r.ExecHosts = j.HostNames()
		if len(j.Allocs) > 0 && j.Allocs[0].Host.Facts.Cpuf > 0 {
			r.HostFactor = j.Allocs[0].Host.Facts.Cpuf
		}
		r.AllocSlots = r.ExecHosts
		r.RunTime = int64(j.End) - int64(j.Start)
		u.Utime, u.Stime = j.CPUTime, 0
		if j.MaxMem > 0 {
			u.Maxrss = math.Round(j.MaxMem * 1024)
		}
	}
	if rm := j.Remote; rm != nil {
		r.DstCluster, r.DstJobID, r.ForwardTime = rm.Cluster, rm.ID, int64(rm.SentAt)
	}
	if h := s.Home; h != nil {
		r.SrcCluster, r.SrcJobID = h.Cluster, h.ID
	}
	return r
}
