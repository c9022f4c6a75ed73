package runtime

// SetHostDown records whether a host's execution agent answers: HostOK
// when it does, HostUnavail when neither its load nor its batch daemon
// reach the master, HostUnreach when its load does but its batch daemon
// does not. A host that does not answer takes no job, and the jobs whose
// first execution host it is go UNKWN, keeping the state they had; when it
// answers again they get that state back. It returns the jobs whose state
// changed, in start order.
func (c *Cluster) SetHostDown(h *Host, s HostStatus) []*Job {
	if s != HostUnavail && s != HostUnreach {
		s = HostOK
	}
	if h.Down == s {
		return nil
	}
	was := h.Down
	h.Down = s
	c.gen++
	if was != HostOK && s != HostOK {
		return nil // unavail and unreach: the jobs are UNKWN either way
	}
	var changed []*Job
	for _, j := range h.jobs {
		if len(j.Allocs) == 0 || j.Allocs[0].Host != h {
			continue
		}
		switch {
		case s != HostOK && j.State != Unknown:
			j.known, j.State = j.State, Unknown
		case s == HostOK && j.State == Unknown:
			j.State, j.known = j.known, 0
		default:
			continue
		}
		changed = append(changed, j)
	}
	return changed
}

// Known gives an UNKWN job back the state it had before its host stopped
// answering, as when the host is lost and the job is about to be requeued
// or to exit; a job in any other state is left as it is.
func (c *Cluster) Known(j *Job) {
	if j.State == Unknown {
		j.State, j.known = j.known, 0
	}
}

// SetFacts gives a host the static facts its execution agent reports,
// where the configuration leaves them out: type, model, CPUs, memory,
// swap and /tmp space (MB). A host whose MXJ is "!" takes as many jobs as
// the CPUs its agent reports.
func (c *Cluster) SetFacts(h *Host, typ, model string, ncpus, maxmem, maxswp, maxtmp float64) {
	f := h.Facts
	set := func(dst *float64, v float64) {
		if *dst == 0 && v > 0 {
			*dst = v
			c.gen++
		}
	}
	if f.Type == "" && typ != "" {
		f.Type = typ
		c.gen++
	}
	if f.Model == "" && model != "" {
		f.Model = model
		c.gen++
	}
	known := f.Ncpus > 0
	set(&f.Ncpus, ncpus)
	if !known && f.Ncpus > 0 {
		h.CPUs = f.Ncpus
		if row := c.hostRow(h); row != nil && row.MXJ != nil && *row.MXJ < 0 {
			h.MaxSlots = int(f.Ncpus)
			f.MaxSlots, f.Slots = f.Ncpus, f.Ncpus
		}
	}
	set(&f.Maxmem, maxmem)
	set(&f.Maxswp, maxswp)
	set(&f.Maxtmp, maxtmp)
	h.Gen++
}
