package runtime

import (
	"fmt"
	"math"

	"github.com/lsfc/lsfc/compile"
)

// procLimitOptions are the per-process limits of lsb.queues a job's
// bsub -C, -D, -F and -S options match, with the option and what each
// limits.
var procLimitOptions = []struct{ name, opt, what string }{
	{"CORELIMIT", "-C", "core file size"},
	{"DATALIMIT", "-D", "data segment size"},
	{"FILELIMIT", "-F", "file size"},
	{"STACKLIMIT", "-S", "stack segment size"},
}

// jobLimitOptions are the limits of lsb.queues on the whole job that
// bsub -v, -p and -T match; memory is set for the one in KB (SWAPLIMIT,
// compiled in MB), the others being counts.
var jobLimitOptions = []struct {
	name, opt, what string
	memory          bool
}{
	{"SWAPLIMIT", "-v", "swap", true},
	{"PROCESSLIMIT", "-p", "process", false},
	{"THREADLIMIT", "-T", "thread", false},
}

// limitValue turns a compiled limit value into the unit a job's limit
// is in: KB for memory, else a count.
func limitValue(v float64, memory bool) int64 {
	if memory {
		return mbToKB(v)
	}
	return int64(math.Min(math.Round(v), math.MaxInt64/1024))
}

// JobLimits returns the limits of the whole job, by lsb.queues name
// (SWAPLIMIT in KB, PROCESSLIMIT, THREADLIMIT): the job's -v, -p and -T,
// else its application profile's limit, else the queue's default, else
// the queue's maximum. Nil for none.
func (j *Job) JobLimits() map[string]int64 {
	var own map[string]int64
	if j.Sub.Exec != nil {
		own = j.Sub.Exec.ProcLimits
	}
	var out map[string]int64
	for _, o := range jobLimitOptions {
		var v int64
		q := queueProcLimit(j.Queue, o.name)
		var app *compile.Limit
		if j.App != nil && j.App.Def != nil {
			app = settingLimit(j.App.Def.Settings, o.name)
		}
		switch n, ok := own[o.name]; {
		case ok:
			v = n
		case app != nil:
			v = limitValue(app.Max, o.memory)
		case q != nil && q.Default != nil:
			v = limitValue(*q.Default, o.memory)
		case q != nil:
			v = limitValue(q.Max, o.memory)
		}
		if v > 0 {
			if out == nil {
				out = map[string]int64{}
			}
			out[o.name] = v
		}
	}
	return out
}

// queueProcLimit returns a per-process limit of the queue ("[default]
// maximum", in MB as compiled), or nil.
func queueProcLimit(q *Queue, name string) *compile.Limit {
	if q == nil || q.Def == nil {
		return nil
	}
	return settingLimit(q.Def.Settings, name)
}

// settingLimit returns a limit setting, nil when unset.
func settingLimit(set compile.Settings, name string) *compile.Limit {
	if st := set[name]; st != nil {
		if l, ok := st.Value.(*compile.Limit); ok {
			return l
		}
	}
	return nil
}

// mbToKB turns a compiled limit in MB into whole KB.
func mbToKB(mb float64) int64 {
	if kb := math.Round(mb * 1024); kb < math.MaxInt64/1024 {
		return int64(kb)
	}
	return math.MaxInt64 / 1024
}

// checkProcLimits refuses a job whose per-process limit is above the
// queue's maximum: the queue's limit is the hard limit of the job's
// processes, which the job's own soft limit cannot exceed.
func checkProcLimits(q *Queue, e *JobExec) error {
	if e == nil {
		return nil
	}
	for _, o := range procLimitOptions {
		kb, ok := e.ProcLimits[o.name]
		l := queueProcLimit(q, o.name)
		if !ok || l == nil {
			continue
		}
		if max := mbToKB(l.Max); kb > max {
			return fmt.Errorf("the %s limit %d KB (%s) exceeds the queue's %s of %d KB", o.what, kb, o.opt, o.name, max)
		}
	}
	for _, o := range jobLimitOptions {
		n, ok := e.ProcLimits[o.name]
		l := queueProcLimit(q, o.name)
		if !ok || l == nil {
			continue
		}
		if max := limitValue(l.Max, o.memory); n > max {
			unit := ""
			if o.memory {
				unit = " KB"
			}
			return fmt.Errorf("the %s limit %d%s (%s) exceeds the queue's %s of %d%s", o.what, n, unit, o.opt, o.name, max, unit)
		}
	}
	return nil
}

// ProcLimits returns the per-process limits a job's processes run under,
// in KB by lsb.queues name: the soft limits (the job's -C, -D, -F and
// -S, else its application profile's limit, else the default of the
// queue's "default maximum") and the hard ones (the queue's maximum).
// Nil maps for none.
func (j *Job) ProcLimits() (soft, hard map[string]int64) {
	var own map[string]int64
	if j.Sub.Exec != nil {
		own = j.Sub.Exec.ProcLimits
	}
	set := func(m *map[string]int64, name string, kb int64) {
		if *m == nil {
			*m = map[string]int64{}
		}
		(*m)[name] = kb
	}
	for _, o := range procLimitOptions {
		l := queueProcLimit(j.Queue, o.name)
		var app *compile.Limit
		if j.App != nil && j.App.Def != nil {
			app = settingLimit(j.App.Def.Settings, o.name)
		}
		if kb, ok := own[o.name]; ok {
			set(&soft, o.name, kb)
		} else if app != nil {
			set(&soft, o.name, mbToKB(app.Max))
		} else if l != nil && l.Default != nil {
			set(&soft, o.name, mbToKB(*l.Default))
		}
		if l != nil {
			set(&hard, o.name, mbToKB(l.Max))
		}
	}
	return soft, hard
}
