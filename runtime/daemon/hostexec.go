package daemon

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// Host-based pre- and post-execution commands (HOST_PRE_EXEC,
// HOST_POST_EXEC) run for every execution host of a job. The job's
// wrapper runs them for the hosts run where its first host is (by the
// local executor, or by the same agent); for the hosts of other agents,
// the master orders those agents to run them (a HostExec order), before
// the job starts and after it ends:
//
//   - the job's start waits (hostPre) until every other agent reports
//     its host-based pre-execution commands done; one failing fails the
//     job's pre-execution, as on its first host: the job pends again
//     (or goes PSUSP, or exits, as LOCAL_MAX_PREEXEC_RETRY says), and
//     the host-based post-execution commands run on all its hosts, for
//     their clean-up. A job killed meanwhile ends without starting;
//   - once the job ends, the other agents run its host-based
//     post-execution commands; one failing makes the job's
//     post-execution failed (POST_ERR).
//
// The wait lives in memory: a master that restarts meanwhile starts the
// job without waiting again (the agent of its first host is sent it as
// any job it never received), and takes no later report of them.

// A hostWait is a job's start waiting for the host-based pre-execution
// commands of other agents: the agents still to report, and the start.
type hostWait struct {
	start runtime.Time
	left  []*agent
	begin func()
}

// hostsByAgent returns the hosts of a job that agents serve, by agent,
// in the order of the job's allocation: those of the agents other than
// its first host's, or with all, every agent's.
func (d *Daemon) hostsByAgent(j *runtime.Job, all bool) ([]*agent, map[*agent][]string) {
	if len(j.Allocs) == 0 {
		return nil, nil
	}
	first := d.agents.get(j.Allocs[0].Host.Name)
	var order []*agent
	by := map[*agent][]string{}
	for _, al := range j.Allocs {
		a := d.agents.get(al.Host.Name)
		if a == nil || a == first && !all {
			continue
		}
		if _, ok := by[a]; !ok {
			order = append(order, a)
		}
		if !slices.Contains(by[a], al.Host.Name) {
			by[a] = append(by[a], al.Host.Name)
		}
	}
	return order, by
}

// hostSteps returns the host-based steps of steps, in the agents' form.
func hostSteps(steps []localexec.ExecStep) []api.ExecStep {
	return apiSteps(slices.DeleteFunc(slices.Clone(steps), func(st localexec.ExecStep) bool { return !st.Host }))
}

// withHostPre returns the start of a job, begin, preceded, when the job
// has host-based pre-execution commands and hosts of other agents, by
// the orders that run them there: the job then starts once all have
// succeeded (hostExecEnded).
func (d *Daemon) withHostPre(j *runtime.Job, spec localexec.Spec, begin func()) func() {
	steps := hostSteps(spec.PreExec)
	agents, hosts := d.hostsByAgent(j, false)
	if len(steps) == 0 || len(agents) == 0 {
		delete(d.hostPre, j.ID)
		return begin
	}
	d.hostPre[j.ID] = &hostWait{start: j.Start, left: agents, begin: begin}
	run := api.AgentRun{Job: j.ID, Start: float64(j.Start)}
	return func() {
		for _, a := range agents {
			d.agents.order(a, api.AgentOrder{AgentRun: run, HostExec: &api.HostExec{Steps: steps, Hosts: hosts[a], Env: spec.Env}})
		}
	}
}

// hostPostOrders orders the agents of a job's other hosts to run its
// host-based post-execution commands, now that it ended (r); every
// agent's hosts when it never started on its first host.
func (d *Daemon) hostPostOrders(j *runtime.Job, r localexec.Result) {
	_, unstarted := d.hostPre[j.ID]
	delete(d.hostPre, j.ID)
	agents, hosts := d.hostsByAgent(j, unstarted)
	if len(agents) == 0 {
		return
	}
	spec := d.spec(j)
	steps := hostSteps(spec.PostExec)
	if len(steps) == 0 {
		return
	}
	stat := r.ExitCode << 8
	if r.Signal != 0 {
		stat = r.Signal
	}
	env := setEnv(spec.Env, "LSB_JOBEXIT_STAT", strconv.Itoa(stat))
	run := api.AgentRun{Job: j.ID, Start: float64(j.Start)}
	for _, a := range agents {
		d.agents.order(a, api.AgentOrder{AgentRun: run, HostExec: &api.HostExec{Post: true, Steps: steps, Hosts: hosts[a], Env: env}})
	}
}

// setEnv returns env with name set to value.
func setEnv(env []string, name, value string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	return append(out, name+"="+value)
}

// hostExecEnded applies how the host-based commands of a HostExec order
// ended on agent a's hosts, and returns the records it makes.
func (d *Daemon) hostExecEnded(a *agent, e api.HostExecEnd, now runtime.Time) []Record {
	j := d.cluster.Job(e.Job)
	if j == nil || float64(j.Start) != e.Start {
		return nil
	}
	if e.Post {
		if e.Code == 0 {
			return nil
		}
		d.cfg.Logf("job %d: a host-based post-execution command exited with %d on %s", j.ID, e.Code, a.host)
		switch j.PostExec {
		case runtime.PostRunning:
			// Its own post-execution commands run still: they end failed.
			d.hostPostFailed[j.ID] = true
			return nil
		case localexec.PostErr:
			return nil
		}
		j.PostExec = localexec.PostErr
		d.dirty = true
		return []Record{{Type: KindPostExec, At: now, Job: j.ID, Text: localexec.PostErr}}
	}
	w := d.hostPre[j.ID]
	if w == nil || w.start != j.Start || !slices.Contains(w.left, a) || !j.State.Started() {
		return nil
	}
	if e.Code != 0 {
		d.cfg.Logf("job %d: a host-based pre-execution command exited with %d on %s", j.ID, e.Code, a.host)
		if rec, ok := d.ended(localexec.Result{JobID: j.ID, ExitCode: e.Code, PreExecFailed: true, PreExecCode: e.Code}, now); ok {
			return []Record{rec}
		}
		return nil
	}
	w.left = slices.DeleteFunc(w.left, func(x *agent) bool { return x == a })
	if len(w.left) > 0 {
		return nil
	}
	if j.Term != "" {
		if rec, ok := d.endUnstarted(j, now); ok {
			return []Record{rec}
		}
		return nil
	}
	delete(d.hostPre, j.ID)
	go w.begin()
	return nil
}

// endUnstarted ends a job killed while its start waited for the
// host-based pre-execution commands of other agents.
func (d *Daemon) endUnstarted(j *runtime.Job, now runtime.Time) (Record, bool) {
	return d.ended(localexec.Result{JobID: j.ID, ExitCode: 128 + 9, Signal: 9, Err: "killed before it started"}, now)
}
