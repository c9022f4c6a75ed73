package mc

import (
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
)

// Unlimited is the Backlog of a receive-jobs queue with IMPT_JOBBKLG =
// infinit.
const Unlimited = -1

// A Target is a receive-jobs queue of a remote cluster, as the
// submission cluster last heard of it.
type Target struct {
	Cluster, Queue string
	// Pref is the preference SNDJOBS_TO gives the target (q@c+N); Rank
	// its place in SNDJOBS_TO. Both only break ties of room.
	Pref, Rank int
	// Backlog is the queue's IMPT_JOBBKLG, Unlimited for infinit;
	// Pending its pending MultiCluster jobs. The planner counts the jobs
	// it forwards there in Pending.
	Backlog, Pending int
	// Reachable is false while the cluster's daemon does not answer.
	Reachable bool
	// Hosts are the hosts the remote cluster exports for the queue: what
	// remote-resource matching looks at.
	Hosts []HostInfo
}

// Room returns how many more MultiCluster jobs the queue takes before
// IMPT_JOBBKLG is reached: Backlog − Pending, at least 0; -1 for no
// limit.
func (t *Target) Room() int {
	if t.Backlog == Unlimited {
		return Unlimited
	}
	return max(t.Backlog-t.Pending, 0)
}

// String names the target as SNDJOBS_TO does: queue@cluster.
func (t *Target) String() string { return t.Queue + "@" + t.Cluster }

// A HostInfo is what a cluster exports about one of its hosts for
// remote-resource matching: its type, Boolean resources and job slots.
type HostInfo struct {
	Name     string
	Type     string
	Booleans []string
	Slots    int
}

// A Job is what the forwarding decision looks at: the job's slots and
// its remote-resource needs.
type Job struct {
	ID    int64
	Slots int
	Needs Needs
}

// Why says why a target cannot take a job now.
type Why uint8

// The reasons a target is passed over.
const (
	WhyNone        Why = iota
	WhyUnreachable     // the remote cluster does not answer
	WhyNoRoom          // IMPT_JOBBKLG pending MultiCluster jobs are there
	WhyType            // no exported host has a type the job allows
	WhyResource        // no exported host of the types allowed has the Boolean resources
	WhySlots           // the matching hosts have fewer slots than the job asks for
	WhySameType        // no one host type has enough matching slots (same[type])
)

var whyText = [...]string{
	WhyNone:        "",
	WhyUnreachable: "the remote cluster is unreachable",
	WhyNoRoom:      "the queue's pending MultiCluster job limit (IMPT_JOBBKLG) is reached",
	WhyType:        "no host of the remote cluster has a host type the job asks for",
	WhyResource:    "no host of the remote cluster has the Boolean resources the job asks for",
	WhySlots:       "the remote hosts that match the job have fewer job slots than it asks for",
	WhySameType:    "no host type of the remote cluster has enough matching job slots (same[type])",
}

// String words the reason.
func (w Why) String() string {
	if int(w) < len(whyText) {
		return whyText[w]
	}
	return "Why(" + strconv.Itoa(int(w)) + ")"
}

// A Verdict is one target's answer for one job.
type Verdict struct {
	Target *Target
	Why    Why
}

// A Decision is where a job goes: To, the target with the most room
// among those that can take it, or nil when none can and the job stays
// pending to be tried again next cycle. Verdicts hold every target's
// answer in the order they were weighed: the ones that can take the job,
// best first, then the others in SNDJOBS_TO order.
type Decision struct {
	To       *Target
	Verdicts []Verdict
}

// Reason returns the job's pending reason when the decision sends it
// nowhere: WhyUnreachable when every target is unreachable, else the
// reason of the first target weighed; WhyNone when the job goes.
func (d Decision) Reason() Why {
	if d.To != nil || len(d.Verdicts) == 0 {
		return WhyNone
	}
	for _, v := range d.Verdicts {
		if v.Why != WhyUnreachable {
			return v.Why
		}
	}
	return WhyUnreachable
}

// Options configure the decision.
type Options struct {
	// RemoteResource weighs the job's Needs against the hosts each
	// target exports (MC_PLUGIN_REMOTE_RESOURCE=y in lsf.conf, or
	// MC_PLUGIN_SCHEDULE_ENHANCE in lsb.params). Without it only room
	// counts.
	RemoteResource bool
}

// OptionsOf reads the options of a submission cluster's policy.
func OptionsOf(p *compile.Policy) Options {
	return Options{RemoteResource: p.LSFConf.MCPluginRemoteResource || p.Parameters.MCPluginScheduleEnhance != ""}
}

// Decide is Phase II of job forwarding for one job that no local host
// can take: among the targets of its send-jobs queue it keeps those that
// answer and have room (IMPT_JOBBKLG − their pending MultiCluster jobs
// > 0) and, with RemoteResource, whose exported hosts meet the job's
// needs; the one with the most room wins (no limit beats any room), ties
// going to the higher SNDJOBS_TO preference, then to the earlier in
// SNDJOBS_TO. Decide does not change the targets.
func Decide(targets []*Target, j Job, opts Options) Decision {
	var d Decision
	var fit, unfit []Verdict
	for _, t := range targets {
		why := weigh(t, j, opts)
		if why == WhyNone {
			fit = append(fit, Verdict{Target: t})
		} else {
			unfit = append(unfit, Verdict{Target: t, Why: why})
		}
	}
	slices.SortStableFunc(fit, func(a, b Verdict) int { return better(a.Target, b.Target) })
	slices.SortStableFunc(unfit, func(a, b Verdict) int { return a.Target.Rank - b.Target.Rank })
	d.Verdicts = append(fit, unfit...)
	if len(fit) > 0 {
		d.To = fit[0].Target
	}
	return d
}

// better orders two targets that can take a job: most room first, then
// higher preference, then SNDJOBS_TO order.
func better(a, b *Target) int {
	ra, rb := a.Room(), b.Room()
	switch {
	case ra != rb && ra == Unlimited:
		return -1
	case ra != rb && rb == Unlimited:
		return 1
	case ra != rb:
		return rb - ra
	case a.Pref != b.Pref:
		return b.Pref - a.Pref
	}
	return a.Rank - b.Rank
}

// weigh says why a target cannot take a job, or WhyNone.
func weigh(t *Target, j Job, opts Options) Why {
	switch {
	case !t.Reachable:
		return WhyUnreachable
	case t.Room() == 0:
		return WhyNoRoom
	case !opts.RemoteResource:
		return WhyNone
	}
	return matchHosts(t.Hosts, j)
}

// matchHosts checks a job's needs and slots against exported hosts.
func matchHosts(hosts []HostInfo, j Job) Why {
	n := j.Needs
	typed, total := false, 0
	byType := map[string]int{}
	for _, h := range hosts {
		if n.Types != nil && !slices.Contains(n.Types, h.Type) {
			continue
		}
		typed = true
		if !hasAll(h.Booleans, n.Defined) {
			continue
		}
		total += h.Slots
		byType[h.Type] += h.Slots
	}
	slots := max(j.Slots, 1)
	switch {
	case !typed:
		return WhyType
	case len(byType) == 0:
		return WhyResource
	case total < slots:
		return WhySlots
	case n.SameType:
		for _, s := range byType {
			if s >= slots {
				return WhyNone
			}
		}
		return WhySameType
	}
	return WhyNone
}

// hasAll reports whether have holds every name of want.
func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
