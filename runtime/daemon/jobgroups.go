package daemon

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// handleJobGroups answers bjgroup: every job group with its jobs, those
// of its subgroups included, by state.
func (d *Daemon) handleJobGroups(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return jobGroupInfo(d.cluster), nil, nil, nil
	})
	reply(w, v, err)
}

// jobGroupInfo describes the cluster's job groups as bjgroup shows them.
func jobGroupInfo(c *runtime.Cluster) []api.JobGroup {
	groups := c.JobGroups()
	out := make([]api.JobGroup, len(groups))
	at := map[string]int{}
	for i, g := range groups {
		out[i] = api.JobGroup{Path: g.Path, Owner: g.Owner, Limit: g.Limit, SLA: g.SLA, Implicit: g.Implicit, Started: g.Started()}
		at[g.Path] = i
	}
	for _, j := range c.Jobs() {
		for p := j.JobGroupPath(); p != ""; p = parentOf(p) {
			i, ok := at[p]
			if !ok {
				continue
			}
			countJob(&out[i].Jobs, j.State, 1)
			countJob(&out[i].Slots, j.State, j.Slots)
		}
	}
	return out
}

// parentOf returns the path of a job group's parent; "" below the root.
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// countJob adds n to the count of a job's state.
func countJob(gc *api.GroupCount, st runtime.JobState, n int) {
	gc.Total += n
	switch st {
	case runtime.Pend, runtime.PSusp:
		gc.Pend += n
	case runtime.Run, runtime.Unknown:
		gc.Run += n
	case runtime.SSusp:
		gc.SSusp += n
	case runtime.USusp:
		gc.USusp += n
	default:
		gc.Finish += n
	}
}

// handleJobGroupChange answers bgadd, bgmod and bgdel. Anyone may add a
// group, which is theirs; a group's limit may be changed by its owner, the
// owner of a group above it or an administrator; a group may be deleted
// by its owner or an administrator.
func (d *Daemon) handleJobGroupChange(w http.ResponseWriter, r *http.Request) {
	var req api.JobGroupRequest
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return d.changeJobGroups(id, req)
	})
	reply(w, v, err)
}

func (d *Daemon) changeJobGroups(id identity, req api.JobGroupRequest) (any, []Record, func(), error) {
	c := d.cluster
	bad := func(format string, args ...any) (any, []Record, func(), error) {
		return nil, nil, nil, errorf(http.StatusBadRequest, format, args...)
	}
	ok := func(msg string, recs ...Record) (any, []Record, func(), error) {
		return api.ActionResponse{Message: msg}, recs, nil, nil
	}
	limit := -1
	if req.Limit != nil {
		if limit = *req.Limit; limit < 0 || limit > runtime.MaxJobGroupLimit {
			return bad("job group limit %d is out of range (0 to %d)", limit, runtime.MaxJobGroupLimit)
		}
	}
	now := d.now()
	if req.Op == "del" && req.Idle != nil {
		return d.deleteIdleJobGroups(id, *req.Idle, now)
	}
	var path string
	if !(req.Op == "del" && req.Empty && req.Path == "") {
		p, err := runtime.CleanJobGroupPath(req.Path)
		if err != nil {
			return bad("%v", err)
		}
		path = p
	}
	switch req.Op {
	case "add":
		if req.SLA != "" && checkName("service class", req.SLA) != nil {
			return bad("bad service class name %q", truncate(req.SLA))
		}
		if c.JobGroup(path) != nil {
			return nil, nil, nil, errorf(http.StatusConflict, "Job group <%s> already exists", path)
		}
		g, err := c.AddJobGroup(path, id.User, limit, req.SLA, false)
		if err != nil {
			return bad("%v", err)
		}
		// The new groups (the one named and those made above it) are
		// idle from now.
		for a := g; a != nil && a.IdleSince == 0 && !c.JobGroupBusy(a.Path); a = a.Parent() {
			a.IdleSince = now
		}
		rec := Record{Type: KindGroupAdd, Text: path, Owner: id.User, SLA: req.SLA, At: now}
		if limit >= 0 {
			rec.Limit = &limit
		}
		return ok(fmt.Sprintf("Job group <%s> was added.", path), rec)
	case "mod":
		g := c.JobGroup(path)
		if g == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "Job group <%s> does not exist", path)
		}
		if !d.mayChangeJobGroup(id, g, true) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Job group <%s>: User permission denied", path)
		}
		if req.Owner != "" && checkName("user", req.Owner) != nil {
			return bad("bad user name %q", truncate(req.Owner))
		}
		if req.KeepLimit {
			limit = g.Limit
		} else if err := c.SetJobGroupLimit(path, limit); err != nil {
			return bad("%v", err)
		}
		if req.Owner != "" {
			g.Owner = req.Owner
		}
		rec := Record{Type: KindGroupMod, Text: path, Owner: req.Owner}
		if limit >= 0 {
			rec.Limit = &limit
		}
		return ok(fmt.Sprintf("Job group %s is modified.", path), rec)
	case "del":
		if !req.Empty {
			g := c.JobGroup(path)
			switch {
			case g == nil:
				return nil, nil, nil, errorf(http.StatusNotFound, "Job group <%s> does not exist", path)
			case !d.mayChangeJobGroup(id, g, false):
				return nil, nil, nil, errorf(http.StatusForbidden, "Job group <%s>: User permission denied", path)
			case c.JobGroupBusy(path):
				return nil, nil, nil, errorf(http.StatusConflict, "Job group <%s> is not empty: it has unfinished jobs", path)
			}
			if err := c.DeleteJobGroup(path); err != nil {
				return bad("%v", err)
			}
			return ok(fmt.Sprintf("Job group %s is deleted.", path), Record{Type: KindGroupDel, Text: path})
		}
		if path != "" {
			// bgdel -c: the empty groups of the subtree, the group
			// itself included, those under a group first.
			g := c.JobGroup(path)
			switch {
			case g == nil:
				return nil, nil, nil, errorf(http.StatusNotFound, "Job group <%s> does not exist", path)
			case !d.mayChangeJobGroup(id, g, false):
				return nil, nil, nil, errorf(http.StatusForbidden, "Job group <%s>: User permission denied", path)
			}
			sub := g.Subtree()
			var recs []Record
			var msgs []string
			for i := len(sub) - 1; i >= 0; i-- {
				s := sub[i]
				if c.JobGroup(s.Path) == nil || c.JobGroupBusy(s.Path) {
					continue
				}
				if err := c.DeleteJobGroup(s.Path); err != nil {
					return bad("%v", err)
				}
				recs = append(recs, Record{Type: KindGroupDel, Text: s.Path})
				msgs = append(msgs, fmt.Sprintf("Job group %s is deleted.", s.Path))
			}
			if len(recs) == 0 {
				return nil, nil, nil, errorf(http.StatusConflict, "Job group <%s> has no empty job group", path)
			}
			return ok(strings.Join(msgs, "\n"), recs...)
		}
		// bgdel 0, -u USER 0, -u all 0: the empty groups of the caller,
		// of a user, or of everyone (an administrator's).
		user := id.User
		if req.User != "" && req.User != id.User {
			if !d.isAdmin(id) {
				return nil, nil, nil, errorf(http.StatusForbidden, "bgdel -u: only an administrator may delete other users' job groups")
			}
			user = req.User
		}
		var recs []Record
		var msgs []string
		for _, g := range c.JobGroups() {
			if c.JobGroup(g.Path) == nil || user != "all" && g.Owner != user || c.JobGroupBusy(g.Path) {
				continue
			}
			if err := c.DeleteJobGroup(g.Path); err != nil {
				return bad("%v", err)
			}
			recs = append(recs, Record{Type: KindGroupDel, Text: g.Path})
			msgs = append(msgs, fmt.Sprintf("Job group %s is deleted.", g.Path))
		}
		if len(recs) == 0 {
			return nil, nil, nil, errorf(http.StatusNotFound, "No empty job group found")
		}
		return ok(strings.Join(msgs, "\n"), recs...)
	}
	return bad("unknown job group operation %q", truncate(req.Op))
}

// deleteIdleJobGroups deletes, for bgdel -d, the job groups idle for more
// than idle seconds (holding no unfinished job, theirs or their
// subgroups'), each with the groups under it: the caller's, or anyone's
// for an administrator. A group whose idle time is not known (made by a
// log that did not keep it, or left by a job bmod -g moved) starts it
// now.
func (d *Daemon) deleteIdleJobGroups(id identity, idle int64, now runtime.Time) (any, []Record, func(), error) {
	c := d.cluster
	if idle < 0 {
		return nil, nil, nil, errorf(http.StatusBadRequest, "bgdel -d: the idle time %d is not a number of seconds", idle)
	}
	admin := d.isAdmin(id)
	var recs []Record
	var msgs []string
	for _, g := range c.JobGroups() {
		if c.JobGroup(g.Path) != g || !admin && g.Owner != id.User || c.JobGroupBusy(g.Path) {
			continue
		}
		if g.IdleSince == 0 {
			g.IdleSince = now
		}
		if float64(now-g.IdleSince) <= float64(idle) {
			continue
		}
		if err := c.DeleteJobGroup(g.Path); err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		recs = append(recs, Record{Type: KindGroupDel, Text: g.Path})
		msgs = append(msgs, fmt.Sprintf("Job group %s is deleted.", g.Path))
	}
	if len(recs) == 0 {
		return nil, nil, nil, errorf(http.StatusNotFound, "No job group idle for more than %d seconds found", idle)
	}
	return api.ActionResponse{Message: strings.Join(msgs, "\n")}, recs, nil, nil
}

// mayChangeJobGroup reports whether a user may change a job group: its
// owner or an administrator; for a limit (above), also the owner of a
// group above it.
func (d *Daemon) mayChangeJobGroup(id identity, g *runtime.JobGroup, above bool) bool {
	if g.Owner == id.User || d.isAdmin(id) {
		return true
	}
	for p := g.Parent(); above && p != nil; p = p.Parent() {
		if p.Owner == id.User {
			return true
		}
	}
	return false
}
