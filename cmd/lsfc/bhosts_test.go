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
		{Name: "hostB", Status: "ok", JLU: 2, Max: 8, NJobs: 3, Run: 3, Cpuf: 12.5},
	})
	checkLayout(t, "bhosts -l", b.String())
}
