// Package sim runs the scheduler of package runtime on a virtual clock: it
// takes a cluster and a workload (jobs with their submission times, run
// times and exit codes, or a Standard Workload Format trace) and gives what
// became of each job, the counts of the simulation and the samples of its
// slot pools, or for a trace one simstats record per job.
//
// Simulate is event-driven: a scheduling cycle runs at every submission,
// job end and operator's command, and when an accept interval, a window
// or a reservation ends, rather than on a wall-clock period. Workload
// turns a trace into jobs, Replay runs a trace end to end, and Queue is
// the queue of events that Simulate and package runtime/mcsim share.
package sim
