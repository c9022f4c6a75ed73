package main

import (
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// fixtureTime is Mon Nov 21 23:38:02 2022 UTC.
var fixtureTime = time.Date(2022, 11, 21, 23, 38, 2, 0, time.UTC).Unix()

// fixtureJobs returns one job in each state the layouts tell apart.
func fixtureJobs() []api.Job {
	t := fixtureTime
	return []api.Job{
		{ID: 1001, User: "ann", Queue: "normal", State: "RUN", Name: "toil_job_0", Command: "_toil_worker root file:/js",
			Slots: 3, FromHost: "subhost", ExecHosts: []string{"hostA", "hostA", "hostB"}, Submit: t, Start: t + 60,
			ResReq: "select[mem>200MB] rusage[mem=200MB]", Cwd: "/home/ann", Stdout: "out.%J", RunLimit: 3600,
			MemLimit: 2147},
		{ID: 1002, User: "verylongusername", Queue: "verylongqueuename", State: "PEND",
			Command: "python3 /home/ann/very/long/script.py --flag", Slots: 1, FromHost: "submission-host-01",
			Submit: t + 120, Reason: "New job is waiting for scheduling", Cwd: "/home/ann", Priority: 10,
			HostReasons: []api.HostReason{{Host: "hostA", Reason: "Job slot limit reached"},
				{Host: "hostB", Reason: "Not specified in job submission"},
				{Host: "hostC", Reason: "Job slot limit reached"}}},
		{ID: 1003, User: "ann", Queue: "normal", State: "DONE", Name: "ok", Command: "true", Slots: 1,
			FromHost: "subhost", ExecHosts: []string{"hostB"}, Submit: t, Start: t + 1, End: t + 2, CPUTime: 0.25, MaxMem: 12.3},
		{ID: 1004, User: "ann", Queue: "normal", State: "EXIT", Name: "killed", Command: "sleep 100\necho done\n",
			Slots: 1, FromHost: "subhost", ExecHosts: []string{"hostA"}, Submit: t, Start: t + 1, End: t + 30,
			ExitCode: 143, Term: "TERM_OWNER", Exceptions: "underrun"},
	}
}

func fixtureQueues() []api.Queue {
	return []api.Queue{
		{Name: "normal", Priority: 30, Status: "Open:Active", Open: true, Active: true, NJobs: 4, Pend: 1, Run: 3,
			Description: "For normal low priority jobs"},
		{Name: "general-interactive", Priority: 200, Status: "Closed:Inact", Max: 500, JLU: 2, JLP: 0.5, JLH: 1},
	}
}

func fixtureHosts() []api.Host {
	return []api.Host{
		{Name: "hostA", Status: "ok", JLU: -1, Max: 8, NJobs: 3, Run: 3, Type: "X86_64", Model: "Intel_EM64T",
			Cpuf: 116.1, Ncpus: 8, Maxmem: 15974.4, Resources: []string{"mg", "linux"},
			Load: map[string]float64{"r15s": 0.8, "r1m": 2.1, "r15m": 2.4, "ut": 0.07, "pg": 0, "ls": 0, "it": 1156,
				"tmp": 551, "swp": 15974.4, "mem": 10240}},
		{Name: "a-very-long-host-name.example.com", Status: "closed_Adm", JLU: 2, Max: 0, Type: "LINUX64"},
		{Name: "hostC", Status: "unavail", JLU: -1, Max: -1},
	}
}
