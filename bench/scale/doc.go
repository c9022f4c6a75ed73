// Command scale measures how many execution agents one master holds: it
// starts lsfc's batch daemon (runtime/daemon, configured and started as
// lsfc serve does) in a process of its own, on a generated cluster of N
// hosts, and N simulated execution agents in its own process. Each agent
// speaks the agents' API (runtime/api) as lsfc sbatchd does, from a
// loopback address of its own: a load report every interval, and a long
// poll that carries its runs and ends and brings back its orders, cut
// short when a job ends. A job "runs" for a time drawn from a seeded
// source, without a process. The jobs are submitted with every host
// closed, the agents register, the hosts are opened; after a warm-up it
// reports for each agent count the master's CPU (user and system time over wall
// time), the dispatch latency (from the master's start of a job to the
// order reaching its agent; p50 and p99) and the jobs started and
// finished per minute. A second table splits the latency: the orders an
// exchange sent before the start brought (a long poll held at the
// master, or the answer to an end), and the others with their wait for
// the agent's next exchange and its time; the master's own view from
// badmin perfmon (start to hand-off, and the requests' wait for the
// goroutine that holds the cluster); the master's CPU per start, the
// exchanges and load reports it served a second, and its Go scheduler's
// latencies (a master short of CPU).
//
// Usage, from the module's root:
//
//	go run ./bench/scale -agents 100,1000,5000 -jobs 100000
//
// Flags set the slots of each host, the jobs' run times, the agents'
// interval (5 s, lsfc sbatchd's default), the warm-up and the
// measurement's length, and where the master writes a CPU profile.
package main
