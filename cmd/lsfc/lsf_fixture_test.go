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

// fixtureLimits returns Limit sections of lsb.resources as lsfc serve
// reports them: a PER_USER slot limit used by two users, a queue's job and
// memory limit used as a whole, one nothing uses, one with a long user
// group name, and one lsfc does not enforce (TMP only).
func fixtureLimits() []api.Limit {
	n := func(x float64) *float64 { return &x }
	return []api.Limit{
		{Name: "per_user", Enforced: true, Settings: []api.LimitSetting{{Key: "PER_USER", Value: "all"}, {Key: "SLOTS", Value: "4"}},
			Slots: n(4), Use: []api.LimitUse{{User: "ann", Slots: 3, Jobs: 1}, {User: "bob", Slots: 1, Jobs: 1, Mem: 512}}},
		{Name: "night_cap", Enforced: true, Settings: []api.LimitSetting{{Key: "QUEUES", Value: "night"}, {Key: "JOBS", Value: "10"}, {Key: "MEM", Value: "4G"}},
			Jobs: n(10), Mem: n(4096), Use: []api.LimitUse{{Slots: 2, Jobs: 2, Mem: 768.5}}},
		{Name: "idle", Enforced: true, Settings: []api.LimitSetting{{Key: "PER_HOST", Value: "hostA hostB"}, {Key: "APPS", Value: "fluent"}, {Key: "SLOTS", Value: "2"}},
			Slots: n(2)},
		{Name: "chemists_limit_long", Enforced: true, Settings: []api.LimitSetting{{Key: "USERS", Value: "computational_chemists"}, {Key: "SLOTS", Value: "16"}},
			Slots: n(16), Use: []api.LimitUse{{Slots: 5, Jobs: 5}}},
		{Name: "scratch", Settings: []api.LimitSetting{{Key: "USERS", Value: "ann"}, {Key: "TMP", Value: "100"}}},
	}
}
