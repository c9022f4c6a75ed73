package runtime

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// A JobGroup is a node of the cluster's tree of job groups (bsub -g,
// bgadd): a path from the root "/", such as "/risk/daily". A group's
// limit bounds the started jobs (RUN, SSUSP, USUSP) of the group and of
// all its subgroups together; a job runs only when every group on its
// path has room.
type JobGroup struct {
	// Path is the group's full name, "/a/b"; Owner the user who created
	// it (bgadd, or the first job submitted to it).
	Path  string
	Owner string
	// Limit is the most started jobs of the group and its subgroups;
	// -1 for none.
	Limit int
	// SLA is the service class the group is attached to (bgadd -sla);
	// jobs submitted to the group without -sla join it.
	SLA string
	// Implicit is set on a group bsub -g, bmod -g or DEFAULT_JOBGROUP
	// created, clear on one bgadd created.
	Implicit bool
	// IdleSince is when the group and the groups under it last came to
	// hold no unfinished job: its creation, or the end of its last job
	// (bgdel -d). Zero while it holds one, or when not known.
	IdleSince Time

	parent   *JobGroup
	children []*JobGroup
	// started counts the started jobs of the group and its subgroups;
	// live the unfinished jobs of the group itself.
	started int
	live    int
}

// Parent returns the group's parent; nil for a group below the root.
func (g *JobGroup) Parent() *JobGroup { return g.parent }

// Started returns the started jobs of the group and its subgroups.
func (g *JobGroup) Started() int { return g.started }

// Children returns the group's direct subgroups, by path.
func (g *JobGroup) Children() []*JobGroup {
	out := slices.Clone(g.children)
	slices.SortFunc(out, func(a, b *JobGroup) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// MaxJobGroupLimit is the largest job group limit LSF takes.
const MaxJobGroupLimit = math.MaxInt32

// maxJobGroupPath is the longest job group path taken.
const maxJobGroupPath = 512

// CleanJobGroupPath checks a job group name as bgadd and bsub -g take it
// and returns it without a trailing "/": a full path from the root, whose
// parts are letters, digits and "_.-+@". The root itself ("/") is an
// error: no job is submitted to it and it has no limit.
func CleanJobGroupPath(p string) (string, error) {
	switch {
	case p == "":
		return "", fmt.Errorf("no job group name")
	case len(p) > maxJobGroupPath:
		return "", fmt.Errorf("job group name is longer than %d characters", maxJobGroupPath)
	case p[0] != '/':
		return "", fmt.Errorf("job group name <%s> must be a full path, starting with /", p)
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	if p == "/" {
		return "", fmt.Errorf("the root job group </> cannot be used here")
	}
	for part := range strings.SplitSeq(p[1:], "/") {
		if part == "" {
			return "", fmt.Errorf("job group name <%s> has an empty part", p)
		}
		for _, r := range part {
			ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.-+@", r)
			if !ok {
				return "", fmt.Errorf("job group name <%s>: character %q is not allowed", p, r)
			}
		}
	}
	return p, nil
}

// parentPath returns the path of a group's parent; "" below the root.
func parentPath(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// JobGroup returns the group of that path, or nil.
func (c *Cluster) JobGroup(path string) *JobGroup { return c.jobGroups[path] }

// JobGroups returns every job group, parents before their subgroups:
// by depth, then path.
func (c *Cluster) JobGroups() []*JobGroup {
	out := make([]*JobGroup, 0, len(c.jobGroups))
	for _, g := range c.jobGroups {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *JobGroup) int {
		if da, db := strings.Count(a.Path, "/"), strings.Count(b.Path, "/"); da != db {
			return da - db
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// AddJobGroup creates a job group (bgadd, or implicitly), and the groups
// above it that do not exist, owned by owner. limit is -1 for none; a
// limit may not exceed that of a group above. Adding a group that exists
// is an error unless implicit, which returns the group.
func (c *Cluster) AddJobGroup(path, owner string, limit int, sla string, implicit bool) (*JobGroup, error) {
	return c.addJobGroup(path, owner, limit, sla, implicit, implicit)
}

// addJobGroup is AddJobGroup; mayExist returns an existing group rather
// than fail.
func (c *Cluster) addJobGroup(path, owner string, limit int, sla string, implicit, mayExist bool) (*JobGroup, error) {
	path, err := CleanJobGroupPath(path)
	if err != nil {
		return nil, err
	}
	if g := c.jobGroups[path]; g != nil {
		if mayExist {
			return g, nil
		}
		return nil, fmt.Errorf("job group <%s> already exists", path)
	}
	if limit > MaxJobGroupLimit {
		return nil, fmt.Errorf("job group limit %d is out of range (0 to %d)", limit, MaxJobGroupLimit)
	}
	if sla != "" && c.slaByName[sla] == nil {
		return nil, fmt.Errorf("%s: no such service class (lsb.serviceclasses)", sla)
	}
	// The limit is checked against the groups above that exist before any
	// is made: a refused group leaves the tree as it was.
	for p := parentPath(path); limit >= 0 && p != ""; p = parentPath(p) {
		if g := c.jobGroups[p]; g != nil && g.Limit >= 0 && limit > g.Limit {
			return nil, fmt.Errorf("job group limit %d exceeds the limit %d of job group <%s>", limit, g.Limit, g.Path)
		}
	}
	var parent *JobGroup
	if pp := parentPath(path); pp != "" {
		// Groups bgadd creates above the one it names are explicit too.
		if parent, err = c.addJobGroup(pp, owner, -1, "", implicit, true); err != nil {
			return nil, err
		}
	}
	if c.jobGroups == nil {
		c.jobGroups = map[string]*JobGroup{}
	}
	g := &JobGroup{Path: path, Owner: owner, Limit: limit, SLA: sla, Implicit: implicit, parent: parent}
	if parent != nil {
		parent.children = append(parent.children, g)
	}
	c.jobGroups[path] = g
	return g, nil
}

// SetJobGroupLimit changes a group's limit (bgmod -L; -1 for bgmod -Ln).
// The limit may not exceed that of a group above it, nor be below that of
// a group under it.
func (c *Cluster) SetJobGroupLimit(path string, limit int) error {
	g := c.jobGroups[path]
	switch {
	case g == nil:
		return fmt.Errorf("job group <%s> does not exist", path)
	case limit > MaxJobGroupLimit || limit < -1:
		return fmt.Errorf("job group limit %d is out of range (0 to %d)", limit, MaxJobGroupLimit)
	}
	if limit >= 0 {
		for p := g.parent; p != nil; p = p.parent {
			if p.Limit >= 0 && limit > p.Limit {
				return fmt.Errorf("job group limit %d exceeds the limit %d of job group <%s>", limit, p.Limit, p.Path)
			}
		}
		var below error
		g.walk(func(s *JobGroup) {
			if s != g && s.Limit > limit && below == nil {
				below = fmt.Errorf("job group limit %d is below the limit %d of job group <%s>", limit, s.Limit, s.Path)
			}
		})
		if below != nil {
			return below
		}
	}
	g.Limit = limit
	return nil
}

// walk calls f on the group and every group under it, parents first.
func (g *JobGroup) walk(f func(*JobGroup)) {
	f(g)
	for _, s := range g.Children() {
		s.walk(f)
	}
}

// Subtree returns the group and every group under it, parents first.
func (g *JobGroup) Subtree() []*JobGroup {
	var out []*JobGroup
	g.walk(func(s *JobGroup) { out = append(out, s) })
	return out
}

// JobGroupBusy reports whether a group or one under it holds an
// unfinished job, which keeps it from being deleted.
func (c *Cluster) JobGroupBusy(path string) bool {
	g := c.jobGroups[path]
	if g == nil {
		return false
	}
	busy := false
	g.walk(func(s *JobGroup) { busy = busy || s.live > 0 })
	return busy
}

// DeleteJobGroup deletes a group and every group under it (bgdel). A
// group holding unfinished jobs cannot be deleted. Finished jobs keep the
// group's path.
func (c *Cluster) DeleteJobGroup(path string) error {
	g := c.jobGroups[path]
	switch {
	case g == nil:
		return fmt.Errorf("job group <%s> does not exist", path)
	case c.JobGroupBusy(path):
		return fmt.Errorf("job group <%s> has unfinished jobs", path)
	}
	g.walk(func(s *JobGroup) { delete(c.jobGroups, s.Path) })
	if p := g.parent; p != nil {
		p.children = slices.DeleteFunc(p.children, func(s *JobGroup) bool { return s == g })
	}
	g.parent = nil
	return nil
}

// DefaultJobGroup returns the group DEFAULT_JOBGROUP of lsb.params gives
// a submission without -g, its patterns filled in: %u the user, %p the
// project, %g the user group (-G), %q the queue, %a the application
// profile and %s the service class; a pattern with no value gives "".
// "" when DEFAULT_JOBGROUP is unset.
func (c *Cluster) DefaultJobGroup(s Submission) string {
	pat := c.Policy.Parameters.DefaultJobGroup
	if pat == "" {
		return ""
	}
	vals := map[byte]string{'u': s.User, 'p': s.Project, 'g': s.Group, 'q': s.Queue, 'a': s.App, 's': s.Sla}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '%' && i+1 < len(pat) {
			if v, ok := vals[pat[i+1]]; ok {
				b.WriteString(v)
				i++
				continue
			}
		}
		b.WriteByte(pat[i])
	}
	// A part a pattern left empty goes.
	parts := strings.Split(b.String(), "/")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "/" + strings.Join(kept, "/")
}

// jobGroupSLA returns the service class the group or the nearest group
// above it is attached to; "" for none.
func (c *Cluster) jobGroupSLA(path string) string {
	for p := path; p != ""; p = parentPath(p) {
		if g := c.jobGroups[p]; g != nil && g.SLA != "" {
			return g.SLA
		}
	}
	return ""
}

// joinJobGroup puts a new or restored job in its group, creating the
// group implicitly, owned by the job's user, when it does not exist.
func (c *Cluster) joinJobGroup(j *Job) {
	if j.Sub.JobGroup == "" {
		return
	}
	if j.State.Finished() {
		// A finished job is shown in its group while the group is there;
		// it does not bring a deleted group back.
		j.jgroup = c.jobGroups[j.Sub.JobGroup]
		return
	}
	g, err := c.AddJobGroup(j.Sub.JobGroup, j.User, -1, "", true)
	if err != nil {
		// Checked at submission; a log's bad path leaves the job
		// without a group rather than lose it.
		return
	}
	j.jgroup = g
	g.live++
	for a := g; a != nil; a = a.parent {
		a.IdleSince = 0
	}
	// A group a job of a service class joins first is attached to it:
	// the group's later jobs join the class without -sla.
	if g.SLA == "" && j.SLA != nil {
		g.SLA = j.SLA.Name
	}
}

// leaveJobGroup takes a job that finished, or moves to another group, out
// of its group's count of unfinished jobs; the groups it leaves without
// one are idle from at (0: not known). With JOB_GROUP_CLEAN, an implicit
// group left empty, without a limit or subgroups, is deleted, and so on
// up the tree.
func (c *Cluster) leaveJobGroup(j *Job, at Time) {
	g := j.jgroup
	if g == nil || c.jobGroups[g.Path] != g {
		return
	}
	g.live--
	for a := g; a != nil && a.live == 0 && !c.JobGroupBusy(a.Path); a = a.parent {
		a.IdleSince = at
	}
	if !c.Policy.Parameters.JobGroupClean {
		return
	}
	for g != nil && g.Implicit && g.live == 0 && g.started == 0 && g.Limit < 0 && len(g.children) == 0 &&
		c.jobGroups[g.Path] == g {
		p := g.parent
		_ = c.DeleteJobGroup(g.Path)
		g = p
	}
}

// holdJobGroup adds (sign 1) or removes (sign -1) a started job from the
// counts of its group and the groups above it.
func (j *Job) holdJobGroup(sign int) {
	for g := j.jgroup; g != nil; g = g.parent {
		g.started += sign
	}
}

// JobGroupPath returns the path of the job's group; "" for none.
func (j *Job) JobGroupPath() string { return j.Sub.JobGroup }

// jobGroupFilter keeps a job whose group, or a group above it, runs as
// many jobs as its limit allows, counting those the cycle started.
type jobGroupFilter struct{}

func (jobGroupFilter) Name() string { return "JOB_GROUP" }
func (jobGroupFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	if j == nil || j.jgroup == nil {
		return ReasonNone
	}
	for g := j.jgroup; g != nil; g = g.parent {
		if g.Limit >= 0 && g.started+c.jgroupUsed[g] >= g.Limit {
			return ReasonJobGroupLimit
		}
	}
	return ReasonNone
}
