package daemon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// queueLimitNames are the resource usage limits of lsb.queues a queue
// reports, in the order bqueues -l shows them.
var queueLimitNames = [...]string{"RUNLIMIT", "CPULIMIT", "TASKLIMIT", "PROCLIMIT", "FILELIMIT", "DATALIMIT",
	"STACKLIMIT", "CORELIMIT", "MEMLIMIT", "SWAPLIMIT", "PROCESSLIMIT", "THREADLIMIT"}

// queueDefinition fills in what the running policy defines of a queue:
// its description, fairshare entries, NICE, limits, thresholds,
// policies, users, hosts, administrators, RES_REQ and windows. The
// automatic "default" queue (no Def) defines nothing and restricts
// nothing.
func (d *Daemon) queueDefinition(out *api.Queue, q *runtime.Queue) {
	def := q.Def
	if def == nil {
		return
	}
	set := def.Settings
	out.Description = settingString(set, "DESCRIPTION")
	for i, e := range def.Fairshare {
		if i > 0 {
			out.UserShares += " "
		}
		out.UserShares += fmt.Sprintf("[%s, %s]", e.Name, strconv.FormatFloat(e.Shares, 'f', -1, 64))
	}
	if st := set["NICE"]; st != nil {
		if x, ok := st.Value.(float64); ok {
			out.Nice = int(x)
		}
	}
	for _, name := range queueLimitNames {
		if ql, ok := settingLimit(set, name); ok {
			out.Limits = append(out.Limits, ql)
		}
	}
	for name, th := range q.Thresholds {
		if out.Thresholds == nil {
			out.Thresholds = map[string]api.Threshold{}
		}
		out.Thresholds[name] = api.Threshold{Sched: th.Sched, Stop: th.Stop}
	}
	out.Policies = queuePolicies(def)
	if cycles, res := q.Reserves(); cycles > 0 {
		out.ReserveTime, out.ReserveResources = float64(cycles)*d.cluster.SleepTime, res
	}
	p := d.cluster.Policy
	if def.Users != nil {
		for _, u := range def.Users {
			out.Users = append(out.Users, userItem(p, u))
		}
	}
	if def.Hosts != nil {
		for _, h := range def.Hosts {
			out.Hosts = append(out.Hosts, hostItem(p, h))
		}
	}
	if st := set["ADMINISTRATORS"]; st != nil {
		if us, ok := st.Value.([]compile.UserItem); ok {
			for _, u := range us {
				out.Administrators = append(out.Administrators, userItem(p, u))
			}
		}
	}
	if st := set["RES_REQ"]; st != nil {
		out.ResReq = strings.Trim(st.Raw, `"`)
	}
	out.Params = queueParams(def)
	if st := set["RUN_WINDOW"]; st != nil {
		out.RunWindow = strings.Join(strings.Fields(st.Raw), " ")
	}
	if st := set["DISPATCH_WINDOW"]; st != nil {
		out.DispatchWindow = strings.Join(strings.Fields(st.Raw), " ")
	}
}

// settingString returns a string setting, "" when unset.
func settingString(set compile.Settings, key string) string {
	if st := set[key]; st != nil {
		s, _ := st.Value.(string)
		return s
	}
	return ""
}

// limitUnit returns the unit a compiled limit is in: minutes for the time
// limits, MB for the memory limits, none for counts.
func limitUnit(name string) string {
	switch name {
	case "RUNLIMIT", "CPULIMIT":
		return "min"
	case "FILELIMIT", "DATALIMIT", "STACKLIMIT", "CORELIMIT", "MEMLIMIT", "SWAPLIMIT":
		return "M"
	}
	return ""
}

// queuePolicies returns the scheduling policies of a queue, in the order
// bqueues -l lists them.
func queuePolicies(def *compile.Queue) []string {
	set := def.Settings
	var out []string
	add := func(on bool, name string) {
		if on {
			out = append(out, name)
		}
	}
	add(set["APS_PRIORITY"] != nil, "APS_PRIORITY")
	add(len(def.Fairshare) > 0, "FAIRSHARE")
	add(def.Preemption != nil && def.Preemption.Preemptive, "PREEMPTIVE")
	add(def.Preemption != nil && def.Preemption.Preemptable, "PREEMPTABLE")
	backfill := false
	if st := set["BACKFILL"]; st != nil {
		backfill, _ = st.Value.(bool)
	}
	add(backfill, "BACKFILL")
	add(def.Exclusive, "EXCLUSIVE")
	switch strings.ToUpper(settingString(set, "INTERACTIVE")) {
	case "NO", "N":
		out = append(out, "NO_INTERACTIVE")
	case "ONLY":
		out = append(out, "ONLY_INTERACTIVE")
	}
	return out
}

// userItem shows an entry of a user list: a user group's name with a
// "/" after it, "~" before an excluded name.
func userItem(p *compile.Policy, u compile.UserItem) string {
	name := u.Name
	for _, g := range p.UserGroups {
		if g.Name == name {
			name += "/"
			break
		}
	}
	if u.Exclude {
		name = "~" + name
	}
	return name
}

// hostItem shows an entry of HOSTS: a host group's or compute unit's
// name with a "/" after it, "~" before an excluded name, its preference
// ("+2") and "!" after a candidate first execution host.
func hostItem(p *compile.Policy, h compile.HostItem) string {
	name := h.Name
	for _, g := range p.HostGroups {
		if g.Name == name {
			name += "/"
			break
		}
	}
	if h.Exclude {
		name = "~" + name
	}
	if h.Pref != 0 {
		name += "+" + strconv.Itoa(h.Pref)
	}
	if h.First {
		name += "!"
	}
	return name
}

// queueParamNames are the lsb.queues keys bqueues -l shows on lines of
// their own, "KEY:  value", in its order, when the queue sets them.
var queueParamNames = []string{"SLOT_POOL", "SLOT_SHARE", "MAX_SLOTS_IN_POOL", "USE_PRIORITY_IN_POOL",
	"JOB_SIZE_LIST", "SNDJOBS_TO", "RCVJOBS_FROM", "PRE_EXEC", "POST_EXEC",
	"HOST_PRE_EXEC", "HOST_POST_EXEC", "LOCAL_MAX_PREEXEC_RETRY", "MAX_PREEXEC_RETRY", "MAX_JOB_REQUEUE",
	"REQUEUE_EXIT_VALUES", "SUCCESS_EXIT_VALUES", "JOB_STARTER", "CHKPNT",
	"MAX_RSCHED_TIME", "JOB_CONTROLS", "TERMINATE_WHEN", "STOP_COND", "RESUME_COND", "JOB_IDLE", "JOB_OVERRUN",
	"JOB_UNDERRUN", "INTERRUPTIBLE_BACKFILL", "NEW_JOB_SCHED_DELAY"}

// queueParams returns the queue's parameters of queueParamNames that it
// sets, as written, after RERUNNABLE when the queue's jobs are
// rerunnable.
func queueParams(def *compile.Queue) []api.QueueParam {
	var out []api.QueueParam
	if def.Rerunnable {
		out = append(out, api.QueueParam{Name: "RERUNNABLE", Value: "yes"})
	}
	seen := map[string]bool{}
	for _, name := range queueParamNames {
		st := def.Settings[name]
		if st == nil || seen[name] {
			continue
		}
		seen[name] = true
		v := strings.TrimSpace(st.Raw)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		if name == "SLOT_SHARE" && !strings.HasSuffix(v, "%") {
			v += "%"
		}
		out = append(out, api.QueueParam{Name: name, Value: v})
	}
	return out
}
