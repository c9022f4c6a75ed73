package main

import (
	"bytes"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestBhostsLong checks bhosts -l's long layout, after the "bhosts -l"
// page of the IBM Spectrum LSF 10.1 command reference.
func TestBhostsLong(t *testing.T) {
	var b bytes.Buffer
	writeBhostsLong(&b, []api.Host{
		{Name: "hostA", Status: "closed_Adm", JLU: -1, Max: 8, Cpuf: 1, ExitRate: 2, ExitRateLoad: 2.4,
			Comment: "JOB EXIT THRESHOLD EXCEEDED"},
		{Name: "hostB", Status: "ok", JLU: 2, Max: 8, NJobs: 3, Run: 3, Cpuf: 12.5,
			Load:       map[string]float64{"r15s": 0.4, "r1m": 1.2, "r15m": 0.9, "ut": 0.37, "pg": 0, "ls": 2, "it": 0, "tmp": 51200, "swp": 2048, "mem": 12288},
			Reserved:   map[string]float64{"mem": 1500},
			Thresholds: map[string]api.Threshold{"r1m": {Sched: new(3.5), Stop: new(5.0)}, "mem": {Sched: new(100.0)}}},
	})
	checkLayout(t, "bhosts -l", b.String())
}
