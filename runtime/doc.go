// Package runtime is lsfc's scheduler: it takes a compiled Policy and a
// stream of submissions and runs them as mbatchd does. Its contract: the
// scheduling cycle is a pure step from a snapshot of cluster state to a
// plan, its policies (ordering, filters, limits, preemption, fairshare,
// forwarding) are plugins in an explicit registry, and every state change
// is a record in a durable event log.
package runtime
