package compile

import (
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// A HostItem is one item of a host specification (queue HOSTS, host group
// members, limit HOSTS).
type HostItem struct {
	// Name is a host, host group, host type or model, "all", "others",
	// "none" or "allremote"; it may hold wildcards and ranges in group
	// members.
	Name string `json:"name"`
	// Exclude is set by "~name".
	Exclude bool `json:"exclude,omitempty"`
	// Pref is the preference of "name+N" (higher is used first).
	Pref int `json:"pref,omitempty"`
	// First is set by "name!": a candidate first execution host.
	First bool `json:"first,omitempty"`
	// Cluster is set by "name@cluster" (MultiCluster).
	Cluster string    `json:"cluster,omitempty"`
	Span    lang.Span `json:"-"`
	// ClusterSpan is the span of Cluster.
	ClusterSpan lang.Span `json:"-"`
}

// hostItems reads a blank-separated host specification.
func (c *compiler) hostItems(v lang.Value, key string) []HostItem {
	var out []HostItem
	for _, w := range words(unparen(v)) {
		it := HostItem{Name: w.text, Span: w.span}
		if strings.HasPrefix(it.Name, "~") {
			it.Exclude, it.Name = true, it.Name[1:]
		}
		if i := strings.LastIndexByte(it.Name, '+'); i > 0 {
			n, err := strconv.Atoi(it.Name[i+1:])
			if err != nil || n < 0 {
				c.valueError(w.span, key, "host preference %q must be a whole number: name+N", it.Name[i:])
				continue
			}
			it.Name, it.Pref = it.Name[:i], n
		}
		if strings.HasSuffix(it.Name, "!") && len(it.Name) > 1 {
			it.First, it.Name = true, strings.TrimSuffix(it.Name, "!")
		}
		if name, cluster, ok := strings.Cut(it.Name, "@"); ok {
			it.Name, it.Cluster = name, cluster
			start := w.span.Start + strings.Index(w.text, "@") + 1
			it.ClusterSpan = w.span.Src.SpanOf(start, start+len(cluster))
		}
		if it.Name == "" {
			c.valueError(w.span, key, "empty host name in %q", w.text)
			continue
		}
		out = append(out, it)
	}
	return out
}

// A UserItem is one item of a user specification.
type UserItem struct {
	// Name is a user, a user group, "all", or "group@" (each member).
	Name    string    `json:"name"`
	Exclude bool      `json:"exclude,omitempty"`
	Span    lang.Span `json:"-"`
}

func userItems(v lang.Value) []UserItem {
	var out []UserItem
	for _, w := range words(unparen(v)) {
		it := UserItem{Name: w.text, Span: w.span}
		if strings.HasPrefix(it.Name, "~") {
			it.Exclude, it.Name = true, it.Name[1:]
		}
		out = append(out, it)
	}
	return out
}

// A QueueRef names a queue, with a preference in PREEMPTIVE lists.
type QueueRef struct {
	Name string    `json:"name"`
	Pref int       `json:"pref,omitempty"`
	Span lang.Span `json:"-"`
}

// Preemption is the PREEMPTION of a queue.
type Preemption struct {
	Preemptive bool `json:"preemptive"`
	// PreemptiveQueues are the queues it may preempt; empty means every
	// queue of lower priority.
	PreemptiveQueues []QueueRef `json:"preemptiveQueues,omitempty"`
	Preemptable      bool       `json:"preemptable"`
	// PreemptableQueues are the queues that may preempt it; empty means
	// every queue of higher priority.
	PreemptableQueues []QueueRef `json:"preemptableQueues,omitempty"`
}

// preemption reads PREEMPTIVE[q1[+n] q2 ...] and PREEMPTABLE[q ...], each
// with or without a list.
func (c *compiler) preemption(v lang.Value) *Preemption {
	p := &Preemption{}
	for _, w := range words(v) {
		name, list, hasList := strings.Cut(w.text, "[")
		var refs []QueueRef
		if hasList {
			if !strings.HasSuffix(list, "]") {
				c.valueError(w.span, "PREEMPTION", "%q has no closing \"]\"", w.text)
				continue
			}
			base := w.span.Start + len(name) + 1 // in the value's Source
			refs = c.preemptQueues(list[:len(list)-1], base, w.span.Src)
		}
		switch strings.ToUpper(name) {
		case "PREEMPTIVE":
			p.Preemptive, p.PreemptiveQueues = true, refs
		case "PREEMPTABLE":
			p.Preemptable, p.PreemptableQueues = true, refs
			if c.dialect == Openlava {
				c.diags.Add(lang.Warning, CodeObsolete, w.span, "openlava supports PREEMPTIVE only; it ignores PREEMPTABLE")
			}
			for _, r := range refs {
				if r.Pref != 0 {
					c.valueError(r.Span, "PREEMPTION", "PREEMPTABLE[] takes no preferences")
				}
			}
		default:
			d := c.valueError(w.span, "PREEMPTION", "unknown %q: write PREEMPTIVE[queues] or PREEMPTABLE[queues]", name)
			if s := lang.Suggest(name, []string{"PREEMPTIVE", "PREEMPTABLE"}); s != "" {
				d.Message += " (did you mean " + strconv.Quote(s) + "?)"
			}
		}
	}
	return p
}

// preemptQueues reads "q1+2 q2" at offset base of src.
func (c *compiler) preemptQueues(text string, base int, src *lang.Source) []QueueRef {
	var out []QueueRef
	i := 0
	for i < len(text) {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		j := i
		for j < len(text) && text[j] != ' ' {
			j++
		}
		if j > i {
			item := text[i:j]
			ref := QueueRef{Name: item, Span: src.SpanOf(base+i, base+j)}
			if k := strings.IndexByte(item, '+'); k > 0 {
				n, err := strconv.Atoi(item[k+1:])
				if err != nil || n < 0 {
					c.valueError(ref.Span, "PREEMPTION", "preference %q must be a whole number", item[k:])
				}
				ref.Name, ref.Pref = item[:k], n
			}
			out = append(out, ref)
		}
		i = j
	}
	return out
}

// A Share is one [name, shares] entry of USER_SHARES.
type Share struct {
	// Name is a user, a group (shares for the group as a whole), "group@"
	// (shares for each member), "default" or "default@" (each user not
	// named its own shares; see EveryUser) or "others".
	Name   string    `json:"name"`
	Shares float64   `json:"shares"`
	Span   lang.Span `json:"-"`
}

// EveryUser reports whether a USER_SHARES entry or a USER_NAME of
// lsb.users' User section is LSF's default user: "default", or "default@",
// which LSF also documents and which means the same (every user on their
// own, as group@ means every member of a group on their own).
func EveryUser(name string) bool {
	return strings.EqualFold(strings.TrimSuffix(name, "@"), "default")
}

// userShares reads "[name, n] [name, n] ..." at offset base of src.
func (c *compiler) userShares(text string, base int, src *lang.Source, key string) ([]Share, bool) {
	pairs, ok := c.pairs(text, base, src, key, true)
	out := make([]Share, len(pairs))
	for i, p := range pairs {
		out[i] = Share{Name: p.Name, Shares: p.Value, Span: p.Span}
	}
	return out, ok
}

// fairshare reads FAIRSHARE = USER_SHARES[[name, n] ...].
func (c *compiler) fairshare(v lang.Value) []Share {
	t := v.Text
	open := indexFold(t, "USER_SHARES[")
	if !hasPrefixFold(strings.TrimSpace(t), "USER_SHARES[") || !strings.HasSuffix(strings.TrimSpace(t), "]") {
		c.valueError(v.Span, "FAIRSHARE", "expected USER_SHARES[[name, shares] ...]")
		return nil
	}
	start := open + len("USER_SHARES[")
	end := strings.LastIndexByte(t, ']')
	shares, ok := c.userShares(t[start:end], start, v.Src, "FAIRSHARE")
	if len(shares) == 0 && ok {
		c.valueError(v.Span, "FAIRSHARE", "USER_SHARES[] names no user")
	}
	return shares
}

// A QueueAtCluster is one SNDJOBS_TO destination: a queue of a remote
// cluster, with the preference LSF uses to choose among destinations.
type QueueAtCluster struct {
	// Queue is the remote queue; "" means the queue of the same name.
	Queue   string    `json:"queue,omitempty"`
	Cluster string    `json:"cluster"`
	Pref    int       `json:"pref,omitempty"`
	Span    lang.Span `json:"-"`
	// ClusterSpan is the span of the cluster's name.
	ClusterSpan lang.Span `json:"-"`
}

// sendTo reads SNDJOBS_TO: [queue@]cluster[+preference] ...
func (c *compiler) sendTo(v lang.Value) []QueueAtCluster {
	var out []QueueAtCluster
	for _, w := range words(unparen(v)) {
		t := w.text
		d := QueueAtCluster{Span: w.span}
		if i := strings.LastIndexByte(t, '+'); i > 0 {
			n, err := strconv.Atoi(t[i+1:])
			if err != nil || n < 0 {
				c.valueError(w.span, "SNDJOBS_TO", "preference %q must be a whole number", t[i:])
				continue
			}
			t, d.Pref = t[:i], n
		}
		q, cl, hasQueue := strings.Cut(t, "@")
		if !hasQueue {
			q, cl = "", t
		}
		if cl == "" || (hasQueue && q == "") {
			c.valueError(w.span, "SNDJOBS_TO", "%q is not [queue@]cluster", w.text)
			continue
		}
		d.Queue, d.Cluster = q, cl
		start := w.span.Start + len(t) - len(cl)
		d.ClusterSpan = w.span.Src.SpanOf(start, start+len(cl))
		out = append(out, d)
	}
	return out
}

// An Interval is JOB_SCHEDULING_INTERVAL: the least and the most time
// between two scheduling cycles.
type Interval struct {
	Min Duration  `json:"min"`
	Max *Duration `json:"max,omitempty"`
}

// schedulingInterval reads "min[ms] [max]": a plain number is seconds.
func (c *compiler) schedulingInterval(v lang.Value) *Interval {
	ws := words(v)
	if len(ws) == 0 || len(ws) > 2 {
		c.valueError(v.Span, "JOB_SCHEDULING_INTERVAL", "expected min[ms] [max]")
		return nil
	}
	read := func(w word) (Duration, bool) {
		t := w.text
		scale := 1.0
		if strings.HasSuffix(t, "ms") {
			t, scale = t[:len(t)-2], 0.001
		}
		x, ok := parseNumber(t)
		if !ok || x < 0 {
			c.valueError(w.span, "JOB_SCHEDULING_INTERVAL", "%q is not seconds or milliseconds (with ms)", w.text)
			return 0, false
		}
		return Duration(x * scale), true
	}
	in := &Interval{}
	var ok bool
	if in.Min, ok = read(ws[0]); !ok {
		return nil
	}
	if len(ws) == 2 {
		max, ok := read(ws[1])
		if !ok {
			return nil
		}
		if max < in.Min {
			c.valueError(ws[1].span, "JOB_SCHEDULING_INTERVAL", "the maximum %s is below the minimum %s", ws[1].text, ws[0].text)
		}
		in.Max = &max
	}
	return in
}

// An AcceptInterval is JOB_ACCEPT_INTERVAL: either a multiple of
// MBD_SLEEP_TIME or, written with s or m (LSF 10.1), a time.
type AcceptInterval struct {
	Multiple *float64  `json:"multiple,omitempty"`
	Time     *Duration `json:"seconds,omitempty"`
}

func (c *compiler) acceptInterval(v lang.Value) *AcceptInterval {
	t := strings.TrimSpace(v.Text)
	scale := 0.0
	switch {
	case strings.HasSuffix(t, "s") || strings.HasSuffix(t, "S"):
		t, scale = t[:len(t)-1], 1
	case strings.HasSuffix(t, "m") || strings.HasSuffix(t, "M"):
		t, scale = t[:len(t)-1], 60
	}
	x, ok := parseNumber(t)
	if !ok || x < 0 || x != float64(int64(x)) {
		c.valueError(v.Span, "JOB_ACCEPT_INTERVAL", "%q is not a whole number, or one with s or m", v.Text)
		return nil
	}
	if scale == 0 {
		return &AcceptInterval{Multiple: &x}
	}
	if c.dialect == Openlava {
		c.valueError(v.Span, "JOB_ACCEPT_INTERVAL", "openlava takes a whole number of MBD_SLEEP_TIME, not %q", v.Text)
	}
	d := Duration(x * scale)
	return &AcceptInterval{Time: &d}
}

// hasPrefixFold reports whether s begins with prefix, ignoring case, byte
// for byte: the prefix found is exactly len(prefix) bytes of s.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFold returns the byte offset of the first occurrence of sub in s,
// ignoring case, or -1. Unlike searching strings.ToUpper(s), the offset is
// one of s itself (upper-casing can change the length of a string).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
