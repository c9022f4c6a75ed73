package lint

import (
	"fmt"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// defaultQueueRestricted finds a DEFAULT_QUEUE whose queues do not admit
// every user: the jobs most users submit without -q are then rejected,
// which users meet as an unexplained bsub error.
func defaultQueueRestricted() *Analyzer {
	return &Analyzer{
		Code: "LSF523", Name: "default-queue-restricted", Severity: lang.Warning,
		Summary: "DEFAULT_QUEUE names only queues that some users cannot submit to",
		Doc: `What it finds: DEFAULT_QUEUE of lsb.params whose queues all restrict who may
submit: USERS names users or groups but not all (nor a group holding all
users), or FAIRSHARE assigns shares without [default, n] or [others, n],
so that users without a share cannot submit. LSF tries the default queues
in order and takes the first that accepts the job, so a restricted queue
followed by an open one is fine; lsfc reports only when no listed queue
admits every user. It says nothing unless lsb.users was read, as a user
group may hold all users.

Why it matters: a job submitted without -q goes to the default queue;
when the queue does not admit the user, bsub rejects the job ("User
cannot use the queue", or no share in the fairshare queue) and most users
do not know which queue to name instead.

Users who set LSB_DEFAULTQUEUE in their environment pick their own
default and are not affected.

Example: DEFAULT_QUEUE = chem, where chem has USERS = chemists.

Fix: make the default queue admit all users (USERS = all, or give
FAIRSHARE a [default, 1] share), or list an open queue after it in
DEFAULT_QUEUE.`,
		Run: func(p *Pass) {
			st := p.Policy.Params["DEFAULT_QUEUE"]
			if st == nil || !p.Has(lang.KindLSBQueues) || !p.Has(lang.KindLSBUsers) {
				return
			}
			gs := userGroupsOf(p.Policy)
			for _, v := range append([]*compile.Setting{st}, st.Alternatives...) {
				names, _ := v.Value.([]string)
				var queues []*compile.Queue
				for _, n := range names {
					if q := p.Policy.Queue(n); q != nil {
						queues = append(queues, q)
					}
				}
				if len(queues) == 0 {
					continue
				}
				var reasons []queueRestriction
				for _, q := range queues {
					r, restricted := queueRestrictionOf(p.Policy, q, gs)
					if !restricted {
						reasons = nil
						break
					}
					reasons = append(reasons, r)
				}
				if len(reasons) == 0 {
					continue
				}
				var d *lang.Diagnostic
				if len(reasons) == 1 {
					d = p.Report(v.Span(), "default queue %q does not admit every user: %s; jobs that other users submit without -q are rejected",
						queues[0].Name, reasons[0].why)
				} else {
					qs := make([]string, len(queues))
					for i, q := range queues {
						qs[i] = q.Name
					}
					d = p.Report(v.Span(), "none of the default queues (%s) admits every user; jobs that other users submit without -q are rejected",
						strings.Join(qs, ", "))
				}
				for i, r := range reasons {
					d.Note(r.span, "queue %q: %s", queues[i].Name, r.why)
				}
			}
		},
	}
}

// A queueRestriction says why a queue does not admit every user, and
// where.
type queueRestriction struct {
	why  string
	span lang.Span
}

// queueRestrictionOf reports whether some users cannot submit to a queue: USERS
// without all, or a fairshare policy without a default share.
func queueRestrictionOf(p *compile.Policy, q *compile.Queue, gs userGroups) (queueRestriction, bool) {
	if st := q.Settings["USERS"]; st != nil && len(q.Users) > 0 {
		var named []string
		open := false
		for _, u := range q.Users {
			if u.Exclude {
				continue
			}
			if strings.EqualFold(u.Name, "all") || gs.open(u.Name) {
				open = true
				break
			}
			named = append(named, u.Name)
		}
		if !open && len(named) > 0 {
			return queueRestriction{fmt.Sprintf("its USERS admits only %s", abbrevNames(quoteAll(named))), st.Span()}, true
		}
	}
	shares, owner := fairshareOf(p, q)
	if len(shares) > 0 && !hasDefaultShare(shares, gs) {
		st := owner.Settings["FAIRSHARE"]
		if owner != q {
			return queueRestriction{fmt.Sprintf("the FAIRSHARE of queue %q, which leads it in cross-queue fairshare, has no default share, so only users with a share can submit", owner.Name), st.Span()}, true
		}
		return queueRestriction{"its FAIRSHARE has no default share, so only users with a share can submit", st.Span()}, true
	}
	return queueRestriction{}, false
}

// abbrevNames lists at most five names.
func abbrevNames(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}
