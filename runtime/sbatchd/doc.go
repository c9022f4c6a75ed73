// Package sbatchd is lsfc's execution agent, as LSF's sbatchd and LIM on
// one host: given the master's address, its shared secret and the host's
// name in the configuration, it reports the host's facts and load indices
// and runs the jobs the master dispatches there, with the local executor
// (runtime/localexec) on a state directory of its own.
//
// # Talking to the master
//
// The agent needs no listener: it calls the master's TCP API. Every
// Interval (default 5 s) it sends a load report (POST /v1/agent/load: the
// load indices of /proc, as lsload shows them, and the static facts), and
// it keeps an exchange going (POST /v1/agent/sync), a long poll: each one
// carries every run the agent holds and the ends not yet acknowledged,
// and brings back the master's orders (jobs to run, signals to send),
// after waiting up to one Interval for some. A job that ends cuts the
// wait short, so that its end reaches the master at once. The master
// decides from these calls alone whether the host is ok, unreach (load
// reports but no exchange) or unavail (neither), for three intervals. A
// master that says so in its answers (api.AgentOrders.Hold) counts an
// exchange it holds as word from the agent for as long as it holds it:
// the agent's exchanges then wait up to api.AgentHoldWait (30 s) while
// it expects nothing new to tell (no order being recorded, the
// directory of every running job known), so that thousands of agents
// cost the master few exchanges; otherwise they wait one interval.
//
// # Running a job once
//
// Orders are numbered in the master's session; the agent takes them in
// hand in order, and each exchange acknowledges the last one carried out
// with all those before it; the master sends again those not
// acknowledged. A run is a job and the time it was dispatched; before the
// agent starts a run it writes it durably under runs/ in its state
// directory, and it never starts a run it holds, so an order received
// twice runs once. An order to run a job is carried out once its run is
// recorded, and the exchange reports only recorded runs as held: until
// then the master counts the run as sent, and a restarted agent gets the
// order again. Jobs start on a few launchers at once (Config.Launchers),
// first come first started, while the exchange goes on: a burst of
// dispatches does not silence the host. A signal for a job still starting
// is sent once it runs. A run and its end stay there, and in the
// executor's directory (jobs/), until the master answers that the end is
// durably recorded (Done), or tells the agent that it no longer counts on
// the run (Kill: the host was lost meanwhile, and the job reran elsewhere
// or exited).
//
// Each end carries the time the job ended: the one its wrapper recorded
// or, for an end the agent tells itself (a run it could not start, a
// lost one, or a job whose post-execution commands ran as part of it),
// the agent's clock when it learned of it; the master takes it as the
// job's end, so that an end reported late keeps its time. A master that
// reads the times says so (api.AgentOrders.EndTimes); the agent leaves
// them out for one that does not, or that refuses an exchange with them.
//
// A job whose post-execution commands run on after its end
// (JOB_INCLUDE_POSTPROC=N) has two ends: the job's, then theirs (Post),
// which the agent reports once the master has the job's; its run stays
// under runs/, marked, until the master has theirs too. For a job whose
// first host is another's, the agent runs the job's host-based pre- or
// post-execution commands for its own host when ordered (HostExec), and
// reports how they ended until the master acknowledges it. So too the
// end of a resize notification command (Notify): it names the job's run
// and the notification's number in it, as the order gave them, and goes
// with every exchange until the master answers that it took it
// (NotifiedDone), once the record is durable; the master ignores an end
// of a notification other than the one it waits for (reported again, or
// late).
//
// # Restarts
//
// Jobs outlive the agent: their wrappers record how they ended. A
// restarted agent reads runs/, asks the executor (Recover) about each run,
// watches those still running and reports the ends of the others with
// their real exit status. A restarted master reconciles with the runs the
// agent reports.
package sbatchd
