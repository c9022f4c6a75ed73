// Package mc is lsfc's model of MultiCluster job forwarding: from the
// compiled policies of the clusters and what each reports about its
// queues, it tells where a job goes, whether a receive-jobs queue takes
// it, and what becomes of it when it comes back. It does no networking
// and keeps no clock: callers bring the state and the time.
//
// Peers. The clusters are those of lsf.shared's Cluster section; each
// runs its own lsfc serve with its own tree and state. A cluster's
// Servers entries are host or host:port, tried in order; an entry
// without a port uses the local lsf.conf's LSB_MBD_PORT, else 6881
// (Peers). The API between clusters is the daemon's TCP listener, which
// requires the shared secret.
//
// Pairing. A send-jobs queue names its destinations in SNDJOBS_TO
// (queue@cluster[+pref]; a bare cluster means the queue of the same
// name); a receive-jobs queue names in RCVJOBS_FROM the clusters it
// takes jobs from, or allclusters. A destination pairs when its queue
// exists and receives from the submission cluster; other destinations are
// left out of the decision.
//
// Phase I is the local scheduler's: the send-jobs queue accepts or
// rejects the job by its own parameters, gives it a local job ID and
// tries local hosts first. Phase II (Decide, Planner) runs for a job no
// local host can take: of the queue's destinations it keeps those whose
// cluster answers and whose queue has room — IMPT_JOBBKLG (50 unless set;
// infinit is no limit) minus its pending MultiCluster jobs — and picks
// the one with the most room, then the higher SNDJOBS_TO preference, then
// the earlier in SNDJOBS_TO. By default only room counts. With
// MC_PLUGIN_REMOTE_RESOURCE=y in lsf.conf, or MC_PLUGIN_SCHEDULE_ENHANCE
// set in lsb.params, the job's type==X, same[type] and defined(name) (its
// Needs) are also matched against the host types, Boolean resources and
// job slots the remote cluster exports. When no destination fits, the job
// stays pending with the reason of the first destination weighed and is
// tried again next cycle. The planner counts each job it forwards in its
// destination's pending jobs, so later jobs of the cycle see the room
// that is left.
//
// In a cycle, a Planner is the runtime.Forwarder of the submission
// cluster (Snapshot.Forward): the cycle hands it, in dispatch order, the
// pending jobs of send-jobs queues that it did not dispatch for want of
// hosts (not those held, waiting on a dependency, a closed queue or a
// limit), and the plan lists where each goes (Plan.Forwards). A forwarded
// job leaves its local queue's pending jobs and holds no local slot; it
// shows PEND at home until it starts remotely, then RUN on its remote
// hosts, named host@cluster. A job no destination takes keeps a
// MultiCluster pending reason (no room, unreachable, no matching remote
// hosts).
//
// Phase III (Accept) runs in the execution cluster: the receive-jobs
// queue must list the submission cluster and have room, then its own
// parameters decide as for a local job (open, USERS, MEMLIMIT against
// -M, PROCLIMIT, RUNLIMIT, its RES_REQ); the send-jobs queue's no longer
// apply. A refused job returns home; an accepted one gets a job ID of
// the execution cluster, and home shows both.
//
// Returns (Ledger). The submission cluster books each forwarded job:
// sent, accepted (with its remote ID) or started. A job accepted but not
// started within MAX_RSCHED_TIME × MBD_SLEEP_TIME of the send-jobs queue
// (20 periods unless set; infinit never) is recalled and scheduled anew.
// A recall counts as a failed start attempt; when they exceed
// LSB_MC_INITFAIL_RETRY (5 unless set, so a job is tried six times) the
// job is suspended (PSUSP) at home. Rejections and an unreachable
// cluster do not count, and a job is never in the ledger twice. A copy
// that its execution cluster requeues (its host lost) pends there
// again, and is recalled in time like any other.
//
// Where lsfc differs from LSF: LSF counts a job's failures to initialize
// at the execution cluster against LSB_MC_INITFAIL_RETRY, exempting
// those caused by a lack of remote resources, and documents no such count
// for the remote timeout; lsfc counts a MAX_RSCHED_TIME recall as the
// failed attempt, so a job that no remote cluster starts in time is
// eventually suspended rather than bounced forever. A job that fails
// after it started remotely ends there, and home records its exit. In remote-resource
// mode lsfc matches configured job slots, not free ones: the backlog
// limit, not the slots, says how busy a queue is. Only the first
// alternative of a requirement with alternatives is read for Needs.
package mc
