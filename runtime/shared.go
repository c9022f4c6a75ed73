package runtime

import (
	"math"
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
)

// A SharedInstance is one instance of a shared resource of lsf.cluster's
// ResourceMap: value@[host ...] shared by the hosts listed, value@[all]
// by every host. A static numeric one is counted: what a job reserves
// (rusage) on any of its hosts is taken from the instance, so that every
// host of it sees the same amount left.
type SharedInstance struct {
	Resource string
	// Value is the instance's configured value as written (a number for
	// a static numeric resource; "" for a dynamic one).
	Value string
	// Total is Value read as a number; NaN when it is not one.
	Total float64
	// Hosts are the hosts that share the instance, in name order.
	Hosts []*Host
	// All is set for an instance of [all] or [others].
	All bool
}

// Numeric reports whether the instance's value is a number: a static
// numeric resource, whose reservations count.
func (s *SharedInstance) Numeric() bool { return !math.IsNaN(s.Total) }

// Reserved returns what running jobs hold of the instance.
func (s *SharedInstance) Reserved() float64 {
	if len(s.Hosts) == 0 {
		return 0
	}
	return s.Hosts[0].Facts.Reserved[s.Resource]
}

// Shared returns the instances of the static resources of lsf.cluster's
// ResourceMap (numeric and string; [default] ones are each host's own
// value and are left out), resource by resource in name order, then in
// the map's order: what lshosts -s and lsload -s show.
func (c *Cluster) Shared() []*SharedInstance { return c.sharedList }

// readShared reads the ResourceMap: every host of an instance of a
// static numeric resource gets its value (unless the host's RESOURCES
// column gives it one, which takes precedence as in LSF), and the
// instances two or more hosts share are recorded, so that reservations
// on one of their hosts count for all.
func (c *Cluster) readShared() {
	c.sharedOf, c.sharedList, c.counted = nil, nil, nil
	for _, def := range c.Policy.Resources {
		if len(def.Map) == 0 {
			continue
		}
		res, slot, ok := c.Env.Lookup(def.Name)
		numeric := ok && res.Type == compile.Numeric && !res.Dynamic
		if numeric && res.Consumable {
			if c.counted == nil {
				c.counted = map[int]string{}
			}
			c.counted[slot] = def.Name
		}
		listed := map[string]bool{}
		for _, in := range def.Map {
			for _, h := range in.Hosts {
				listed[h] = true
			}
		}
		for _, in := range def.Map {
			var members []*Host
			switch {
			case in.All:
				for _, h := range c.Hosts {
					if !h.Retired && !listed[h.Name] && !slices.Contains(in.Except, h.Name) {
						members = append(members, h)
					}
				}
			case in.Default:
				for _, h := range c.Hosts {
					if !h.Retired {
						c.setStatic(h, def.Name, in.Value, numeric)
					}
				}
				continue
			default:
				for _, name := range in.Hosts {
					if h := c.hostByName[name]; h != nil && !slices.Contains(members, h) {
						members = append(members, h)
					}
				}
			}
			slices.SortFunc(members, func(a, b *Host) int { return a.Index - b.Index })
			for _, h := range members {
				c.setStatic(h, def.Name, in.Value, numeric)
			}
			if in.Value == "" || len(members) == 0 {
				continue // a dynamic resource: its value is the load's
			}
			total, err := strconv.ParseFloat(in.Value, 64)
			if err != nil {
				total = math.NaN()
			}
			s := &SharedInstance{Resource: def.Name, Value: in.Value, Total: total, Hosts: members, All: in.All}
			c.sharedList = append(c.sharedList, s)
			if !numeric || math.IsNaN(total) || len(members) == 1 && !in.All {
				continue // a host's own instance: its reservations are its own
			}
			for _, h := range members {
				if c.sharedOf == nil {
					c.sharedOf = map[sharedKey]*SharedInstance{}
				}
				c.sharedOf[sharedKey{h.Index, def.Name}] = s
			}
		}
	}
	slices.SortStableFunc(c.sharedList, func(a, b *SharedInstance) int {
		switch {
		case a.Resource < b.Resource:
			return -1
		case a.Resource > b.Resource:
			return 1
		}
		return 0
	})
}

type sharedKey struct {
	host int
	name string
}

// setStatic gives a host the value of a static resource from the
// ResourceMap, unless it has one already.
func (c *Cluster) setStatic(h *Host, name, value string, numeric bool) {
	if value == "" {
		return
	}
	f := h.Facts
	if numeric {
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return
		}
		if _, has := f.Numbers[name]; has {
			return
		}
		if f.Numbers == nil {
			f.Numbers = map[string]float64{}
		}
		f.Numbers[name] = x
		return
	}
	if res, _, ok := c.Env.Lookup(name); !ok || res.Type != compile.String {
		return
	}
	if _, has := f.Strings[name]; has {
		return
	}
	if f.Strings == nil {
		f.Strings = map[string]string{}
	}
	f.Strings[name] = value
}

// sharedInstance returns the shared instance of resource name that host
// h belongs to, or nil when h's amount of it is its own.
func (c *Cluster) sharedInstance(h *Host, name string) *SharedInstance {
	if c.sharedOf == nil || h.Index < 0 {
		return nil
	}
	return c.sharedOf[sharedKey{h.Index, name}]
}

// reserveIndex returns the host index under which a cycle counts what it
// reserves of resource name on h: the first host of h's shared instance,
// so that all its hosts see one count, or h's own.
func (c *Cluster) reserveIndex(h *Host, name string) int {
	if s := c.sharedInstance(h, name); s != nil {
		return s.Hosts[0].Index
	}
	return h.Index
}
