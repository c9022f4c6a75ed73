package daemon

import (
	"fmt"
	"net/http"
	"os/user"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// handleReservations answers brsvs: every advance reservation not yet
// ended, with what its jobs use.
func (d *Daemon) handleReservations(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return rsvInfo(d.cluster, d.now()), nil, nil, nil
	})
	reply(w, v, err)
}

// rsvInfo describes the reservations as brsvs shows them; one-time
// reservations that ended are left out.
func rsvInfo(c *runtime.Cluster, now runtime.Time) []api.Rsv {
	out := []api.Rsv{}
	for _, r := range c.AdvRsvs() {
		if r.Expired(now) {
			continue
		}
		info := api.Rsv{ID: r.ID, Creator: r.Creator, Type: "user", Open: r.Open, Users: r.Users,
			Active: r.ActiveAt(now), Desc: r.Desc}
		if r.System {
			info.Type = "sys"
		}
		if r.Window != nil {
			info.Window = runtime.WindowText(r.Window)
		} else {
			info.Begin, info.End = int64(r.Begin), int64(r.End)
		}
		if next := r.NextChange(now); next < runtime.Never {
			info.Next = int64(next)
		}
		for _, hs := range r.Hosts {
			info.Hosts = append(info.Hosts, api.RsvHost{Host: hs.Host, Slots: hs.Slots, Used: c.RsvUsed(r, hs.Host)})
		}
		for _, j := range c.RsvJobs(r.ID) {
			info.Jobs = append(info.Jobs, j.Label())
		}
		out = append(out, info)
	}
	return out
}

// handleReservationPolicies answers brsvs -c: the ResourceReservation
// policies of lsb.resources.
func (d *Daemon) handleReservationPolicies(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.RsvPolicy{}
		for _, o := range d.cluster.Policy.Sections {
			if o.Name != "ResourceReservation" {
				continue
			}
			var p api.RsvPolicy
			if st := o.Settings["NAME"]; st != nil {
				p.Name = st.Raw
			}
			if st := o.Settings["USERS"]; st != nil {
				items, _ := st.Value.([]compile.UserItem)
				for _, it := range items {
					p.Users = append(p.Users, map[bool]string{true: "~"}[it.Exclude]+it.Name)
				}
			}
			if st := o.Settings["HOSTS"]; st != nil {
				items, _ := st.Value.([]compile.HostItem)
				for _, it := range items {
					p.Hosts = append(p.Hosts, map[bool]string{true: "~"}[it.Exclude]+it.Name)
				}
			}
			if st := o.Settings["TIME_WINDOW"]; st != nil {
				ws, _ := st.Value.([]compile.Window)
				for _, w := range ws {
					p.Window = append(p.Window, w.String())
				}
			}
			out = append(out, p)
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// handleReservationChange answers brsvadd, brsvdel and brsvmod.
func (d *Daemon) handleReservationChange(w http.ResponseWriter, r *http.Request) {
	var req api.RsvRequest
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return d.changeReservations(id, req)
	})
	reply(w, v, err)
}

func (d *Daemon) changeReservations(id identity, req api.RsvRequest) (any, []Record, func(), error) {
	c := d.cluster
	now := d.now()
	bad := func(format string, args ...any) (any, []Record, func(), error) {
		return nil, nil, nil, errorf(http.StatusBadRequest, format, args...)
	}
	switch req.Op {
	case "add":
		r, err := d.newReservation(id, req, now)
		if err != nil {
			return nil, nil, nil, err
		}
		if !d.mayReserve(id, r) {
			return nil, nil, nil, errorf(http.StatusForbidden, "User permission denied")
		}
		c.PutAdvRsv(*r)
		return api.ActionResponse{Message: fmt.Sprintf("Reservation %s is created", r.ID)}, []Record{{Type: KindRsvAdd, Rsv: r}}, nil, nil
	case "del":
		if len(req.IDs) == 0 {
			return bad("Bad reservation ID")
		}
		var recs []Record
		var msgs []string
		for _, rid := range req.IDs {
			r := c.AdvRsv(rid)
			if r == nil || r.Expired(now) {
				return bad("%s: Bad reservation ID", rid)
			}
			if !d.isAdmin(id) && r.Creator != id.User {
				return nil, nil, nil, errorf(http.StatusForbidden, "%s: User permission denied", rid)
			}
		}
		for _, rid := range req.IDs {
			if c.DeleteAdvRsv(rid) {
				recs = append(recs, Record{Type: KindRsvDel, Text: rid})
				msgs = append(msgs, fmt.Sprintf("Reservation %s is being deleted", rid))
			}
		}
		return api.ActionResponse{Message: strings.Join(msgs, "\n")}, recs, nil, nil
	case "mod":
		if len(req.IDs) != 1 {
			return bad("Bad reservation ID")
		}
		old := c.AdvRsv(req.IDs[0])
		if old == nil || old.Expired(now) {
			return bad("%s: Bad reservation ID", req.IDs[0])
		}
		if !d.isAdmin(id) && old.Creator != id.User {
			return nil, nil, nil, errorf(http.StatusForbidden, "%s: User permission denied", old.ID)
		}
		r, err := d.modifiedReservation(old, req, now)
		if err != nil {
			return nil, nil, nil, err
		}
		if !d.mayReserve(id, r) {
			return nil, nil, nil, errorf(http.StatusForbidden, "User permission denied")
		}
		c.PutAdvRsv(*r)
		return api.ActionResponse{Message: fmt.Sprintf("Reservation %s is modified", r.ID)}, []Record{{Type: KindRsvAdd, Rsv: r}}, nil, nil
	}
	return bad("unknown reservation operation %q", truncate(req.Op))
}

// rsvRefused is a reservation refused for a reason LSF words.
func rsvRefused(err error) error { return errorf(http.StatusConflict, "%v", err) }

// newReservation makes the reservation brsvadd asks for, its slots
// placed on its hosts, and checks it.
func (d *Daemon) newReservation(id identity, req api.RsvRequest, now runtime.Time) (*runtime.AdvRsv, error) {
	c := d.cluster
	r := &runtime.AdvRsv{Creator: id.User, System: req.System, Open: req.Open, Desc: req.Desc}
	if err := d.rsvTimes(r, req, now); err != nil {
		return nil, err
	}
	if err := runtime.CheckRsvTimes(r, now, false); err != nil {
		return nil, rsvRefused(err)
	}
	if err := d.rsvUsers(r, req.Users); err != nil {
		return nil, err
	}
	switch {
	case req.System && len(req.Users) > 0:
		return nil, errorf(http.StatusBadRequest, "A system reservation (-s) is for no user: -u cannot be given")
	case !req.System && len(req.Users) == 0:
		return nil, errorf(http.StatusBadRequest, "Specify the users of the reservation (-u) or a system reservation (-s)")
	case !req.System && req.Slots <= 0:
		return nil, errorf(http.StatusBadRequest, "Specify the job slots to reserve (-n)")
	case len(req.Hosts) == 0:
		return nil, errorf(http.StatusBadRequest, "Specify the hosts to reserve (-m or -R)")
	case len(req.Desc) > 512:
		return nil, errorf(http.StatusBadRequest, "The description is longer than 512 characters")
	}
	hosts, err := d.rsvHosts(req.Hosts)
	if err != nil {
		return nil, err
	}
	if req.Name != "" {
		if checkName("reservation", req.Name) != nil || strings.Contains(req.Name, "#") || len(req.Name) > 39 {
			return nil, errorf(http.StatusBadRequest, "%s: Bad reservation name", truncate(req.Name))
		}
		if c.RsvIDTaken(req.Name) {
			return nil, rsvRefused(&runtime.RsvError{Msg: req.Name + ": Unique reservation ID required"})
		}
		r.ID = req.Name
	} else {
		base := "system"
		if !req.System {
			base = strings.TrimPrefix(req.Users[0], "~")
		}
		r.ID = c.NextRsvID(base)
	}
	// The slots: from the hosts in the order given, as many on each as no
	// other reservation of the same times holds (a system reservation
	// takes every slot of its hosts).
	left := req.Slots
	for _, h := range hosts {
		free := c.RsvFreeSlots(r, h.Name, now, "")
		if req.System {
			if free < 0 || free < h.MaxSlots {
				return nil, rsvRefused(&runtime.RsvError{Msg: "Not enough processors to be reserved"})
			}
			r.Hosts = append(r.Hosts, runtime.RsvSlots{Host: h.Name, Slots: h.MaxSlots})
			continue
		}
		if left <= 0 {
			break
		}
		if req.UnitHost {
			// A whole host, or none of it.
			if h.MaxSlots < 0 || free < h.MaxSlots {
				continue
			}
			r.Hosts = append(r.Hosts, runtime.RsvSlots{Host: h.Name, Slots: h.MaxSlots})
			left--
			continue
		}
		n := left
		if free >= 0 {
			n = min(left, free)
		}
		if n > 0 {
			r.Hosts = append(r.Hosts, runtime.RsvSlots{Host: h.Name, Slots: n})
			left -= n
		}
	}
	if left > 0 && !req.System {
		return nil, rsvRefused(&runtime.RsvError{Msg: "Not enough processors to be reserved"})
	}
	if err := c.CheckAdvRsv(r, now, ""); err != nil {
		return nil, rsvRefused(err)
	}
	return r, nil
}

// modifiedReservation applies brsvmod's changes to a copy of a
// reservation and checks it.
func (d *Daemon) modifiedReservation(old *runtime.AdvRsv, req api.RsvRequest, now runtime.Time) (*runtime.AdvRsv, error) {
	c := d.cluster
	r := *old
	r.Hosts = slices.Clone(old.Hosts)
	active := old.ActiveAt(now)
	if req.Begin != 0 || req.End != 0 || req.Window != "" {
		switch {
		case req.Window != "" && old.Window == nil || req.Window == "" && old.Window != nil:
			return nil, errorf(http.StatusBadRequest, "A one-time reservation cannot become a recurring one, nor a recurring one a one-time one")
		case req.Begin != 0 && active:
			return nil, rsvRefused(&runtime.RsvError{Msg: "Cannot change the start time of an active reservation"})
		}
		mod := req
		if mod.Window == "" {
			if mod.Begin == 0 {
				mod.Begin = int64(old.Begin)
			}
			if mod.End == 0 {
				mod.End = int64(old.End)
			}
		}
		if err := d.rsvTimes(&r, mod, now); err != nil {
			return nil, err
		}
		if r.Window == nil && r.Begin <= now && !active {
			return nil, rsvRefused(&runtime.RsvError{Msg: "The begin time is not later than current time"})
		}
	}
	if len(req.Users) > 0 {
		if r.System {
			return nil, errorf(http.StatusBadRequest, "A system reservation (-s) is for no user: -u cannot be given")
		}
		if err := d.rsvUsers(&r, req.Users); err != nil {
			return nil, err
		}
	}
	if req.SetOpen {
		r.Open = req.Open
	}
	if req.Desc != "" {
		r.Desc = req.Desc
	}
	if len(req.RemoveHosts) > 0 {
		hosts, err := d.rsvHosts(req.RemoveHosts)
		if err != nil {
			return nil, err
		}
		for _, h := range hosts {
			i := slices.IndexFunc(r.Hosts, func(s runtime.RsvSlots) bool { return s.Host == h.Name })
			if i < 0 {
				return nil, errorf(http.StatusBadRequest, "%s: Modification is rejected because the host does not belong to the reservation", h.Name)
			}
			r.Hosts = slices.Delete(r.Hosts, i, i+1)
		}
		if len(r.Hosts) == 0 {
			return nil, errorf(http.StatusBadRequest, "Modification is rejected because it would leave the reservation empty")
		}
	}
	if req.AddSlots > 0 {
		if r.System {
			return nil, errorf(http.StatusBadRequest, "Modification is rejected because -n cannot be given for a system reservation")
		}
		if len(req.Hosts) == 0 {
			return nil, errorf(http.StatusBadRequest, "Specify the hosts to add slots on (-m or -R)")
		}
		hosts, err := d.rsvHosts(req.Hosts)
		if err != nil {
			return nil, err
		}
		left := req.AddSlots
		for _, h := range hosts {
			if left <= 0 {
				break
			}
			free := c.RsvFreeSlots(&r, h.Name, now, r.ID)
			i := slices.IndexFunc(r.Hosts, func(s runtime.RsvSlots) bool { return s.Host == h.Name })
			have := 0
			if i >= 0 {
				have = r.Hosts[i].Slots
			}
			n := left
			if free >= 0 {
				n = min(left, free-have)
			}
			if n <= 0 {
				continue
			}
			if i >= 0 {
				r.Hosts[i].Slots += n
			} else {
				r.Hosts = append(r.Hosts, runtime.RsvSlots{Host: h.Name, Slots: n})
			}
			left -= n
		}
		if left > 0 {
			return nil, rsvRefused(&runtime.RsvError{Msg: "Modification is rejected because host slots are not available"})
		}
	}
	if err := c.CheckAdvRsv(&r, now, r.ID); err != nil {
		return nil, rsvRefused(err)
	}
	return &r, nil
}

// rsvTimes sets a reservation's times from a request: Begin and End, or
// a recurring Window.
func (d *Daemon) rsvTimes(r *runtime.AdvRsv, req api.RsvRequest, now runtime.Time) error {
	switch {
	case req.Window != "" && (req.Begin != 0 || req.End != 0):
		return errorf(http.StatusBadRequest, "Specify either -b and -e or -t, not both")
	case req.Window != "":
		from, to, err := api.ParseRsvWindow(req.Window)
		if err != nil {
			return errorf(http.StatusBadRequest, "-t %v", err)
		}
		r.Window, r.Begin, r.End = runtime.RsvWindow(from, to), 0, 0
		return nil
	case req.Begin == 0 || req.End == 0:
		return errorf(http.StatusBadRequest, "Specify the reservation's time: -b and -e, or -t")
	}
	r.Window, r.Begin, r.End = nil, runtime.Time(req.Begin), runtime.Time(req.End)
	return nil
}

// rsvUsers sets a reservation's users: user names and user groups the
// cluster knows.
func (d *Daemon) rsvUsers(r *runtime.AdvRsv, names []string) error {
	var users []string
	for _, n := range names {
		if n == "" || len(n) > 64 || strings.ContainsAny(n, " \t\n\x00#") {
			return errorf(http.StatusBadRequest, "%s: Bad user name", truncate(n))
		}
		if !d.knownUser(n) {
			return errorf(http.StatusBadRequest, "%s: Bad user name", n)
		}
		if !slices.Contains(users, n) {
			users = append(users, n)
		}
	}
	r.Users = users
	return nil
}

// knownUser reports whether a name is a user group of lsb.users, a user
// of the system or one the configuration names.
func (d *Daemon) knownUser(n string) bool {
	p := d.cluster.Policy
	if strings.EqualFold(n, "all") {
		return true
	}
	for _, g := range p.UserGroups {
		if g.Name == n {
			return true
		}
		for _, m := range g.Members {
			if m.Name == n {
				return true
			}
		}
	}
	if slices.Contains(p.Admins, n) {
		return true
	}
	if _, err := user.Lookup(n); err == nil {
		return true
	}
	return false
}

// rsvHosts resolves the hosts of -m: host names and host groups, in the
// order given, each once.
func (d *Daemon) rsvHosts(names []string) ([]*runtime.Host, error) {
	c := d.cluster
	var out []*runtime.Host
	add := func(h *runtime.Host) {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	for _, n := range names {
		if h := c.Host(n); h != nil {
			add(h)
			continue
		}
		found := false
		for _, g := range slices.Concat(c.Policy.HostGroups, c.Policy.ComputeUnits) {
			if g.Name != n {
				continue
			}
			found = true
			for _, hn := range g.Hosts {
				if h := c.Host(hn); h != nil {
					add(h)
				}
			}
		}
		if !found {
			return nil, errorf(http.StatusBadRequest, "%s: Bad host name, host group name or cluster name", truncate(n))
		}
	}
	return out, nil
}

// rsvAskedHosts checks that the hosts a job of a reservation asks for
// (-m) are the reservation's.
func (d *Daemon) rsvAskedHosts(id string, asked []string) error {
	r := d.cluster.AdvRsv(id)
	if r == nil || len(asked) == 0 {
		return nil
	}
	var names []string
	for _, n := range asked {
		n = strings.TrimSuffix(n, "!")
		if i := strings.LastIndexByte(n, '+'); i > 0 {
			n = n[:i]
		}
		names = append(names, n)
	}
	hosts, err := d.rsvHosts(names)
	if err != nil {
		return err
	}
	for _, h := range hosts {
		if !slices.ContainsFunc(r.Hosts, func(s runtime.RsvSlots) bool { return s.Host == h.Name }) {
			return errorf(http.StatusBadRequest, "%s: The user specified host is not in advance reservation. Job not submitted", h.Name)
		}
	}
	return nil
}

// mayReserve reports whether a user may make or change a reservation:
// an administrator may; another user when a ResourceReservation policy
// of lsb.resources names them, holds every host of the reservation and,
// with TIME_WINDOW, its times.
func (d *Daemon) mayReserve(id identity, r *runtime.AdvRsv) bool {
	if d.isAdmin(id) {
		return true
	}
	p := d.cluster.Policy
	for _, o := range p.Sections {
		if o.Name != "ResourceReservation" {
			continue
		}
		if st := o.Settings["USERS"]; st == nil {
			continue
		} else if items, ok := st.Value.([]compile.UserItem); !ok || !runtime.UsersInclude(items, p, id.User) {
			continue
		}
		if st := o.Settings["HOSTS"]; st != nil {
			items, _ := st.Value.([]compile.HostItem)
			if slices.ContainsFunc(r.Hosts, func(s runtime.RsvSlots) bool { return !hostItemsHold(p, items, s.Host) }) {
				continue
			}
		}
		if st := o.Settings["TIME_WINDOW"]; st != nil {
			ws, _ := st.Value.([]compile.Window)
			if !rsvInWindows(r, ws) {
				continue
			}
		}
		return true
	}
	return false
}

// hostItemsHold reports whether a HOSTS list holds a host: by name, host
// group or all, ~ excluding.
func hostItemsHold(p *compile.Policy, items []compile.HostItem, host string) bool {
	in := false
	for _, it := range items {
		hit := strings.EqualFold(it.Name, "all") || it.Name == host
		if !hit {
			for _, g := range p.HostGroups {
				if g.Name == it.Name && slices.Contains(g.Hosts, host) {
					hit = true
				}
			}
		}
		if hit {
			if it.Exclude {
				return false
			}
			in = true
		}
	}
	return in
}

// rsvInWindows reports whether a reservation lies in a policy's time
// windows: a one-time one begins and ends in them (its last minute), a
// recurring one is in them every minute of the week it is active.
func rsvInWindows(r *runtime.AdvRsv, ws []compile.Window) bool {
	if len(ws) == 0 {
		return true
	}
	in := func(t runtime.Time) bool {
		for _, w := range ws {
			x := &runtime.AdvRsv{Window: &w}
			if x.ActiveAt(t) {
				return true
			}
		}
		return false
	}
	if r.Window != nil {
		// A week from a Sunday, 00:00 (4 January 1970).
		const sunday = 3 * 86400
		for m := range 7 * 24 * 60 {
			if t := runtime.Time(sunday + 60*m); r.ActiveAt(t) && !in(t) {
				return false
			}
		}
		return true
	}
	return in(r.Begin) && in(r.End-60)
}
