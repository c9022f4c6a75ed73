package runtime_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestModifyStarted: bmod -W changes a running job's run limit only when
// lsf.conf sets LSB_MOD_ALL_JOBS=Y, and then within the queue's maximum;
// the limit counts from the job's start, so a limit it has run past
// ends it at the next check.
func TestModifyStarted(t *testing.T) {
	const tree = `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
RUNLIMIT = 10 60
End Queue
`
	limit := func(min float64) runtime.Modification { s := 60 * min; return runtime.Modification{RunLimit: &s} }
	for _, tc := range []struct {
		name, conf string
		mod        runtime.Modification
		want       string // the error, "" for none
	}{
		{"not allowed", "", limit(30), "only a pending job can be modified (LSB_MOD_ALL_JOBS=Y"},
		{"run limit", "LSB_MOD_ALL_JOBS=Y\n", limit(30), ""},
		{"past the maximum", "LSB_MOD_ALL_JOBS=Y\n", limit(90), "maximum run limit"},
		{"slots", "LSB_MOD_ALL_JOBS=Y\n", runtime.Modification{Slots: new(2)}, "only its run limit (-W) can be changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := policyOf(t, tree+"-- lsf.conf --\n"+tc.conf)
			c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
			j, err := e.Submit(runtime.Submission{User: "u", Queue: "normal"})
			if err != nil {
				t.Fatal(err)
			}
			e.Schedule()
			if j.State != runtime.Run || j.RunLimit != 600 {
				t.Fatalf("job %s with run limit %v, want RUN with the queue's 600", j.State, j.RunLimit)
			}
			err = c.Modify(j, tc.mod)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			case tc.want != "":
				if j.RunLimit != 600 {
					t.Errorf("refused, but the run limit is %v", j.RunLimit)
				}
			case j.RunLimit != *tc.mod.RunLimit || j.Sub.RunLimit != *tc.mod.RunLimit:
				t.Errorf("run limit %v (submission %v), want %v", j.RunLimit, j.Sub.RunLimit, *tc.mod.RunLimit)
			}
		})
	}
}
