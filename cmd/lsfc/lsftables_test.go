package main

import (
	"bytes"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

func TestBqueuesLayout(t *testing.T) {
	var b bytes.Buffer
	writeQueues(&b, fixtureQueues(), false)
	checkText(t, "bqueues", b.String(), `QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP
normal           30  Open:Active       -    -    -    -     4     1     3     0
general-interac 200  Closed:Inact    500    2  0.5    1     0     0     0     0
`)
	b.Reset()
	writeQueues(&b, fixtureQueues()[1:], true)
	checkText(t, "bqueues -w", b.String(), `QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP
general-interactive 200  Closed:Inact    500    2  0.5    1     0     0     0     0
`)
	b.Reset()
	writeQueuesLong(&b, fixtureQueues()[:1], false)
	checkText(t, "bqueues -l", b.String(), `
QUEUE: normal
  -- For normal low priority jobs

PARAMETERS/STATISTICS
PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV
  30    0 Open:Active       -    -    -    -     4     1     3     0     0    0
Interval for a host to accept two jobs is 0 seconds

SCHEDULING PARAMETERS
             r15s    r1m   r15m     ut     pg     io     ls     it    tmp    swp    mem
 loadSched      -      -      -      -      -      -      -      -      -      -      -
 loadStop       -      -      -      -      -      -      -      -      -      -      -

USERS: all
HOSTS:  all

`)
	b.Reset()
	writeLSFJSON(&b, "bqueues", "QUEUES", queueRecords(fixtureQueues()[1:]))
	checkText(t, "bqueues -json", b.String(), `{
  "COMMAND":"bqueues",
  "QUEUES":1,
  "RECORDS":[
    {
      "QUEUE_NAME":"general-interactive",
      "PRIORITY":"200",
      "STATUS":"Closed:Inact",
      "MAX":"500",
      "JL_U":"2",
      "JL_P":"0.5",
      "JL_H":"1",
      "NJOBS":"0",
      "PEND":"0",
      "RUN":"0",
      "SUSP":"0"
    }
  ]
}
`)
}

// TestBqueuesShareLayout checks the share tree of bqueues -l (the top
// level) and -r (every level, depth first).
func TestBqueuesShareLayout(t *testing.T) {
	q := api.Queue{Name: "fair", Priority: 30, Status: "Open:Active", NJobs: 3, Run: 3,
		UserShares: "[research, 2] [others, 1]", Policies: []string{"FAIRSHARE"},
		Shares: []api.ShareLevel{
			{Path: "", Accounts: []api.ShareAccount{
				{Name: "others", Shares: 1, Priority: 0.333},
				{Name: "research", Group: true, Shares: 2, Priority: 0.125, Started: 3, CPUTime: 5400.4, RunTime: 5400},
			}},
			{Path: "research", Accounts: []api.ShareAccount{
				{Name: "alice", Shares: 3, Priority: 0.5, Started: 1, CPUTime: 1800, RunTime: 1800},
				{Name: "bob", Shares: 1, Priority: 0.1, Started: 2, CPUTime: 3600.4, RunTime: 3600},
			}},
		}}
	head := `
QUEUE: fair

PARAMETERS/STATISTICS
PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV
  30    0 Open:Active       -    -    -    -     3     0     3     0     0    0
Interval for a host to accept two jobs is 0 seconds

SCHEDULING PARAMETERS
             r15s    r1m   r15m     ut     pg     io     ls     it    tmp    swp    mem
 loadSched      -      -      -      -      -      -      -      -      -      -      -
 loadStop       -      -      -      -      -      -      -      -      -      -      -

SCHEDULING POLICIES:  FAIRSHARE
USER_SHARES:  [research, 2] [others, 1]

SHARE_INFO_FOR: fair/
 USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME
 others            1     0.333        0         0       0.0         0
 research/         2     0.125        3         0    5400.4      5400

`
	const tail = "USERS: all\nHOSTS:  all\n\n"
	var b bytes.Buffer
	writeQueuesLong(&b, []api.Queue{q}, false)
	checkText(t, "bqueues -l", b.String(), head+tail)
	b.Reset()
	writeQueuesLong(&b, []api.Queue{q}, true)
	checkText(t, "bqueues -r", b.String(), head+`SHARE_INFO_FOR: fair/research/
 USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME
 alice             3     0.500        1         0    1800.0      1800
 bob               1     0.100        2         0    3600.4      3600

`+tail)
}

func TestBhostsLayout(t *testing.T) {
	var b bytes.Buffer
	writeBhosts(&b, fixtureHosts(), false)
	checkText(t, "bhosts", b.String(), `HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV
hostA              ok              -      8      3      3      0      0      0
a-very-long-host-n closed_Adm      2      0      0      0      0      0      0
hostC              unavail         -      -      0      0      0      0      0
`)
	b.Reset()
	writeLSFJSON(&b, "bhosts", "HOSTS", bhostsRecords(fixtureHosts()[2:]))
	checkText(t, "bhosts -json", b.String(), `{
  "COMMAND":"bhosts",
  "HOSTS":1,
  "RECORDS":[
    {
      "HOST_NAME":"hostC",
      "STATUS":"unavail",
      "JL_U":"",
      "MAX":"",
      "NJOBS":"0",
      "RUN":"0",
      "SSUSP":"0",
      "USUSP":"0",
      "RSV":"0"
    }
  ]
}
`)
}

func TestLshostsLayout(t *testing.T) {
	var b bytes.Buffer
	writeLshosts(&b, fixtureHosts(), false)
	checkText(t, "lshosts", b.String(), `HOST_NAME      type    model  cpuf ncpus maxmem maxswp server RESOURCES
hostA        X86_64 Intel_EM 116.1     8  15.6G      -    Yes (mg linux)
a-very-long- LINUX6        -     -     -      -      -    Yes ()
hostC             -        -     -     -      -      -    Yes ()
`)
	b.Reset()
	writeLSFJSON(&b, "lshosts", "HOSTS", lshostsRecords(fixtureHosts()[:1]))
	checkText(t, "lshosts -json", b.String(), `{
  "COMMAND":"lshosts",
  "HOSTS":1,
  "RECORDS":[
    {
      "HOST_NAME":"hostA",
      "TYPE":"X86_64",
      "MODEL":"Intel_EM64T",
      "CPUF":"116.1",
      "NCPUS":"8",
      "MAXMEM":"15.6G",
      "MAXSWP":"",
      "SERVER":"Yes",
      "RESOURCES":"mg linux"
    }
  ]
}
`)
	b.Reset()
	writeLshostsLong(&b, fixtureHosts()[:2])
	checkText(t, "lshosts -l", b.String(), `
HOST_NAME:  hostA
type                    model   cpuf ncpus maxmem maxswp server
X86_64            Intel_EM64T  116.1     8  15.6G      -    Yes

RESOURCES: (mg linux)

HOST_NAME:  a-very-long-host-name.example.com
type                    model   cpuf ncpus maxmem maxswp server
LINUX64                     -      -     -      -      -    Yes

RESOURCES: ()

`)
}

func TestLsloadLayout(t *testing.T) {
	var b bytes.Buffer
	writeLsload(&b, fixtureHosts(), false)
	checkText(t, "lsload", b.String(), `HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls    it   tmp   swp   mem
hostA               ok   0.8   2.1   2.4   7%   0.0   0  1156  551M 15.6G   10G
a-very-long-hos     ok     -     -     -    -     -   -     -     -     -     -
hostC           unavail     -     -     -    -     -   -     -     -     -     -
`)
	b.Reset()
	writeLSFJSON(&b, "lsload", "HOSTS", lsloadRecords(fixtureHosts()[:1]))
	checkText(t, "lsload -json", b.String(), `{
  "COMMAND":"lsload",
  "HOSTS":1,
  "RECORDS":[
    {
      "HOST_NAME":"hostA",
      "STATUS":"ok",
      "R15S":"0.8",
      "R1M":"2.1",
      "R15M":"2.4",
      "UT":"7%",
      "PG":"0.0",
      "LS":"0",
      "IT":"1156",
      "TMP":"551M",
      "SWP":"15.6G",
      "MEM":"10G"
    }
  ]
}
`)
}

func TestParamsLayout(t *testing.T) {
	var b bytes.Buffer
	writeParamsAll(&b, map[string]string{"RESOURCE_RESERVE_PER_TASK": "N", "MBD_SLEEP_TIME": "10", "CLEAN_PERIOD": "3600"})
	checkText(t, "bparams -a", b.String(), "CLEAN_PERIOD = 3600\nMBD_SLEEP_TIME = 10\nRESOURCE_RESERVE_PER_TASK = N\n")
}

// TestBqueuesLongDefinition checks the parts of bqueues -l that come from
// the queue's definition: limits in LSF's order and units (a time limit
// normalised to a host model names it), the size and count limits in
// one row, a second threshold table for indices other than the built-in
// ones, policies, users, hosts and windows.
func TestBqueuesLongDefinition(t *testing.T) {
	sched, stop, util := 0.5, 1.5, 80.0
	q := api.Queue{Name: "night", Priority: 40, Nice: 10, Status: "Open:Inact", SSusp: 2, USusp: 1, NJobs: 3, Susp: 3,
		AcceptInterval: 30,
		Limits: []api.QueueLimit{
			{Name: "RUNLIMIT", Max: 600, Unit: "min"},
			{Name: "CPULIMIT", Default: 60, Max: 120, Unit: "min", Spec: "Xeon"},
			{Name: "TASKLIMIT", Default: 4, Max: 16},
			{Name: "FILELIMIT", Max: 2048, Unit: "M"},
			{Name: "THREADLIMIT", Max: 64},
		},
		Thresholds: map[string]api.Threshold{"r15s": {Sched: &sched, Stop: &stop}, "gpu_util": {Sched: &util}},
		Policies:   []string{"PREEMPTABLE", "BACKFILL", "NO_INTERACTIVE"},
		Users:      []string{"night_users/", "~guest"}, Hosts: []string{"~hostZ", "all"},
		RunWindow: "20:00-8:00", DispatchWindow: "22:00-6:00"}
	var b bytes.Buffer
	writeQueuesLong(&b, []api.Queue{q}, false)
	checkText(t, "bqueues -l", b.String(), `
QUEUE: night

PARAMETERS/STATISTICS
PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV
  40   10 Open:Inact        -    -    -    -     3     0     0     2     1    0
Interval for a host to accept two jobs is 30 seconds

 DEFAULT LIMITS:
 CPULIMIT
 60.0 min of Xeon

 TASKLIMIT
 4

 MAXIMUM LIMITS:
 RUNLIMIT
 600.0 min

 CPULIMIT
 120.0 min of Xeon

 TASKLIMIT
 16

 FILELIMIT THREADLIMIT
 2048 M    64

SCHEDULING PARAMETERS
             r15s    r1m   r15m     ut     pg     io     ls     it    tmp    swp    mem
 loadSched    0.5      -      -      -      -      -      -      -      -      -      -
 loadStop     1.5      -      -      -      -      -      -      -      -      -      -

            gpu_util
 loadSched        80
 loadStop          -

SCHEDULING POLICIES:  PREEMPTABLE  BACKFILL  NO_INTERACTIVE

USERS: night_users/ ~guest
HOSTS:  ~hostZ all
RUN_WINDOW:  20:00-8:00
DISPATCH_WINDOW:  22:00-6:00

`)
}
