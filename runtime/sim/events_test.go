package sim_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/lsbevents"
	"github.com/lsfc/lsfc/runtime/sim"
)

// eventsLog is an LSF lsb.events: job 10 pending with -n 2, changed to 4
// by bmod, then run for 100 s; array 11 of two elements in queue night,
// with -M 2 GB and -W 10, one DONE after 30 s, one EXIT 2 after 20 s; job
// 12 killed while it pended.
const eventsLog = `#7
"JOB_NEW" "10.108" 1700000000 10 1501 2 2 1700000000 0 0 -65535 0 0 "alice" -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "" 1.00 2 "normal" "span[hosts=1]" "hostA" "/home/alice" "" "" "" "" "/home/alice" "1700000000.10" 0 "" "" "" "./sim" 0 "" "default" 2 "X86_64" "" "" "" "" 7184 0
"JOB_MODIFY2" "10.108" 1700000005 "10" 0 0 0 0 1501 "alice" 0 2 4 0 0 0 0 "" "" 0 "" -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 ""
"JOB_NEW" "10.108" 1700000001 11 1502 66 1 1700000001 0 0 -65535 0 0 "bob" -1 -1 -1 -1 -1 2097152 -1 -1 -1 600 -1 "" 1.00 2 "night" "" "hostA" "/home/bob" "" "" "" "" "/home/bob" "1700000001.11" 0 "" "" "arr[1-2]" "./step" 0 "" "default" 1 "X86_64" "" "grp" "" "" 7184 0
"JOB_START" "10.108" 1700000010 10 4 0 0 1.0 4 "hostB" "hostB" "hostB" "hostB" "" "" 0 "" 0 "" 2147483647 0 "" "" -1
"JOB_START" "10.108" 1700000020 11 4 0 0 1.0 1 "hostC" "" "" 0 "" 1 "" 2147483647 0 "" "" -1
"JOB_START" "10.108" 1700000020 11 4 0 0 1.0 1 "hostC" "" "" 0 "" 2 "" 2147483647 0 "" "" -1
"JOB_NEW" "10.108" 1700000025 12 1501 2 1 1700000025 0 0 -65535 0 0 "alice" -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "" 1.00 2 "normal" "" "hostA" "/home/alice" "" "" "" "" "/home/alice" "1700000025.12" 0 "" "" "" "./never" 0 "" "default" 1 "X86_64" "" "" "" "" 7184 0
"JOB_STATUS" "10.108" 1700000030 12 32 0 0 0.0 1700000030 0 0 0 14
"JOB_STATUS" "10.108" 1700000040 11 32 0 0 0.5 1700000040 0 512 2 0
"JOB_STATUS" "10.108" 1700000050 11 64 0 0 0.5 1700000050 0 0 1 0
"JOB_STATUS" "10.108" 1700000110 10 64 0 0 90.0 1700000110 0 0 0 0
`

// TestEventsSource turns an LSF event log into a workload: each job with
// what it was submitted with as bmod left it, its real run time and end,
// array elements apart, a job that never started skipped.
func TestEventsSource(t *testing.T) {
	l := lsbevents.NewLog()
	if err := l.Read(strings.NewReader(eventsLog), "lsb.events"); err != nil || l.Malformed > 0 {
		t.Fatalf("read: %v %v", err, l.Errors)
	}
	queues, _ := lang.ParseConfig(lang.NewSource("lsb.queues", "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEXCLUSIVE = Y\nEnd Queue\nBegin Queue\nQUEUE_NAME = short\nPRIORITY = 40\nEnd Queue\n"), lang.KindLSBQueues)
	p, _ := compile.Compile(&compile.Tree{Files: []*lang.File{queues}}, compile.Options{})
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{Hosts: sim.SyntheticHosts(2, 4)})
	if err != nil {
		t.Fatal(err)
	}
	src := sim.EventsSource(c, l, sim.WorkloadOptions{QueueMap: map[string]string{"night": "short"}})
	type job struct {
		ID                int
		Label             string
		At                runtime.Time
		User, Group       string
		Queue, ResReq     string
		Slots             int
		Runtime, RunLimit float64
		MemLimit          float64
		Exclusive         bool
		Exit              int
	}
	var got []job
	for _, j := range src.Jobs {
		got = append(got, job{j.TraceID, src.Labels[j.TraceID], j.At - src.T0, j.User, j.Group, j.Queue, j.ResReq, j.Slots,
			j.Runtime, j.RunLimit, j.MemLimit, j.Exclusive, j.ExitCode})
	}
	want := []job{
		{1, "10", 0, "alice", "", "normal", "span[hosts=1]", 4, 100, 0, 0, false, 0},
		{2, "11[1]", 1, "bob", "grp", "short", "", 1, 30, 600, 2048, true, 0},
		{3, "11[2]", 1, "bob", "grp", "short", "", 1, 20, 600, 2048, true, 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jobs mismatch (-want +got):\n%s", diff)
	}
	wantSkipped := []sim.SkippedJob{{ID: 4, Queue: "normal", User: "alice", Submit: 25, Slots: 1,
		Reason: "it never started in the log (it is EXIT at its end)"}}
	if diff := cmp.Diff(wantSkipped, src.Skipped); diff != "" {
		t.Errorf("skipped mismatch (-want +got):\n%s", diff)
	}
}
