package daemon

import (
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime"
)

// TestPostprocSettings: JOB_INCLUDE_POSTPROC and JOB_POSTPROC_TIMEOUT of
// a job's application profile win over lsb.params's, and
// LSB_JOB_INCLUDE_POSTPROC of its environment over both.
func TestPostprocSettings(t *testing.T) {
	c := clusterOf(t, map[string]string{
		"lsf.shared":       "Begin Cluster\nClusterName\ntest\nEnd Cluster\n",
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.params":       "Begin Parameters\nJOB_INCLUDE_POSTPROC = Y\nJOB_POSTPROC_TIMEOUT = 10\nEnd Parameters\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n",
		"lsb.applications": "Begin Application\nNAME = quick\nJOB_INCLUDE_POSTPROC = N\nJOB_POSTPROC_TIMEOUT = 2\nEnd Application\n" +
			"Begin Application\nNAME = plain\nEnd Application\n",
	})
	d := &Daemon{cfg: Config{Policy: c.Policy, Logf: t.Logf}, cluster: c}
	for _, tc := range []struct {
		app     string
		env     []string
		include bool
		timeout time.Duration
	}{
		{"", nil, true, 10 * time.Minute},
		{"plain", nil, true, 10 * time.Minute},
		{"quick", nil, false, 2 * time.Minute},
		{"quick", []string{"LSB_JOB_INCLUDE_POSTPROC=y"}, true, 2 * time.Minute},
		{"", []string{"LSB_JOB_INCLUDE_POSTPROC=N"}, false, 10 * time.Minute},
	} {
		j, err := c.Submit(runtime.Submission{User: "u", Queue: "normal", App: tc.app, Command: "true", Env: tc.env}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.includePostproc(j); got != tc.include {
			t.Errorf("app %q, env %q: includes its post-execution: %v, want %v", tc.app, tc.env, got, tc.include)
		}
		if got := d.postprocTimeout(j); got != tc.timeout {
			t.Errorf("app %q: post-execution timeout %v, want %v", tc.app, got, tc.timeout)
		}
	}
}
