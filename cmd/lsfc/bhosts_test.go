package main

import (
	"bytes"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

func TestBhostsLong(t *testing.T) {
	var b bytes.Buffer
	writeBhostsLong(&b, []api.Host{
		{Name: "hostA", Status: "closed_Adm", JLU: -1, Max: 8, Cpuf: 1, ExitRate: 2, ExitRateLoad: 2.4,
			Comment: "JOB EXIT THRESHOLD EXCEEDED"},
		{Name: "hostB", Status: "ok", JLU: 2, Max: 8, NJobs: 3, Run: 3, Cpuf: 12.5},
	})
	checkText(t, "bhosts -l", b.String(), `HOST  hostA
STATUS           CPUF  JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV DISPATCH_WINDOW
closed_Adm       1.00     -      8      0      0      0      0      0      -

 THRESHOLD AND LOAD USED FOR EXCEPTIONS:
            JOB_EXIT_RATE
 Threshold           2.00
 Load                2.40

 ADMIN ACTION COMMENT: "JOB EXIT THRESHOLD EXCEEDED"

HOST  hostB
STATUS           CPUF  JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV DISPATCH_WINDOW
ok              12.50     2      8      3      3      0      0      0      -
`)
}
