package runtime

// The built-in orderers (see Orderer and Builtins).

// slaOrderer puts the jobs of service classes that need to run before any
// queue's, the class of higher PRIORITY first, then the one defined
// first.
type slaOrderer struct{}

func (slaOrderer) Name() string { return "SLA" }
func (slaOrderer) Compare(st CycleState, a, b JobInfo) int {
	return st.c.slaBefore(a.j.class, b.j.class)
}

// lsfOrderer orders by queue priority (a slot pool's queues all at the
// highest of theirs, and among them the queue that holds least of its
// share first; an APS queue group's queues all at the highest of theirs,
// and among them by APS value, which counts fairshare in); among queues
// of equal priority, a fairshare queue on its own in file order and the
// others together; in a fairshare queue, by the dynamic priorities of the
// job's share account and the groups above it, from the top of the share
// tree. It leaves to the cycle's last word (user priority, submission
// order) what these do not decide.
type lsfOrderer struct{}

func (lsfOrderer) Name() string { return "LSF" }
func (lsfOrderer) Compare(st CycleState, a, b JobInfo) int {
	c, ja, jb := st.c, a.j, b.j
	qa, qb := ja.Queue, jb.Queue
	if pa, pb := qa.orderPriority(), qb.orderPriority(); pa != pb {
		if pa > pb {
			return -1
		}
		return 1
	}
	if qa.aps != nil && qa.aps == qb.aps {
		// One APS queue group: by APS value, whatever the queues'
		// priorities and policies.
		return compareAPS(c.apsOf(ja), c.apsOf(jb))
	}
	if qa != qb && qa.pool != nil && qa.pool == qb.pool {
		// Queues of one pool: the one that holds least of its share
		// first, then queue priority, then the one that used least of its
		// share in the past.
		if da, db := c.poolHeld(qa), c.poolHeld(qb); da != db {
			return cmpLess(da < db)
		}
		if qa.Priority != qb.Priority {
			return cmpLess(qa.Priority > qb.Priority)
		}
		if ua, ub := c.poolUse(qa), c.poolUse(qb); ua != ub {
			return cmpLess(ua < ub)
		}
	}
	if qa.segment != qb.segment {
		return cmpLess(qa.segment < qb.segment)
	}
	if qa.aps != nil && qb.aps != nil {
		// APS queues of the same priority: by APS value.
		return compareAPS(c.apsOf(ja), c.apsOf(jb))
	}
	fa, fb := c.accountOf(ja.class), c.accountOf(jb.class)
	if qa == qb && fa != fb && fa != nil && fb != nil {
		return compareLines(fa, fb, c.fairPriority)
	}
	return 0
}

// cmpLess returns -1 when a goes first, else 1, for values known to
// differ.
func cmpLess(first bool) int {
	if first {
		return -1
	}
	return 1
}
