package main

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBlimits checks blimits against the fixture limits: the usage table
// (a line for each consumer that uses a section, USED/LIMIT, names cut to
// their column), -a with the sections nothing uses, -w, -c's
// configuration, -json, the messages when there is nothing to show, and
// the options refused or misused.
func TestBlimits(t *testing.T) {
	f, dir := startFakeServe(t)
	const header = "INTERNAL RESOURCE LIMITS:\n\n"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"usage", nil, 0, header +
			"NAME            USERS           QUEUES          HOSTS           PROJECTS        SLOTS       MEM         JOBS\n" +
			"per_user        ann             -               -               -               3/4         -           -\n" +
			"per_user        bob             -               -               -               1/4         -           -\n" +
			"night_cap       -               night           -               -               -           768.5/4096  2/10\n" +
			"*sts_limit_long *ional_chemists -               -               -               5/16        -           -\n", ""},
		{"all", []string{"-a", "-n", "idle night_cap"}, 0, header +
			"NAME            USERS           QUEUES          HOSTS           PROJECTS        APPS            SLOTS       MEM         JOBS\n" +
			"night_cap       -               night           -               -               -               -           768.5/4096  2/10\n" +
			"idle            -               -               hostA hostB     -               fluent          -/2         -           -\n", ""},
		{"wide", []string{"-w", "-n", "chemists_limit_long", "-n", "per_user"}, 0, header +
			"NAME                USERS                  QUEUES HOSTS PROJECTS SLOTS MEM JOBS\n" +
			"per_user            ann                    -      -     -        3/4   -   -\n" +
			"per_user            bob                    -      -     -        1/4   -   -\n" +
			"chemists_limit_long computational_chemists -      -     -        5/16  -   -\n", ""},
		{"config", []string{"-c", "-n", "night_cap scratch"}, 0,
			"Begin Limit\nNAME   = night_cap\nQUEUES = night\nJOBS   = 10\nMEM    = 4G\nEnd Limit\n\n" +
				"Begin Limit\nNAME  = scratch\nUSERS = ann\nTMP   = 100\nEnd Limit\n", ""},
		{"json", []string{"-json", "-n", "night_cap"}, 0, "{\n  \"COMMAND\":\"blimits\",\n  \"LIMITS\":1,\n  \"RECORDS\":[\n    {\n" +
			"      \"NAME\":\"night_cap\",\n      \"USERS\":\"-\",\n      \"QUEUES\":\"night\",\n      \"HOSTS\":\"-\",\n" +
			"      \"PROJECTS\":\"-\",\n      \"APPS\":\"-\",\n      \"SLOTS\":\"-\",\n      \"MEM\":\"768.5/4096\",\n" +
			"      \"JOBS\":\"2/10\"\n    }\n  ]\n}\n", ""},
		{"no usage", []string{"-n", "idle scratch"}, 0, "No resource usage found.\n", ""},
		{"not enforced", []string{"-a", "-n", "scratch"}, 0, "No resource configuration found.\n", ""},
		{"no section", []string{"-c", "-n", "nosuch"}, 0, "No resource configuration found.\n", ""},
		{"refused", []string{"-o", "name slots"}, exitLSF, "", "blimits: option -o is not supported by lsfc\n"},
		{"operand", []string{"-n", "per_user", "idle"}, exitUsage, "", "lsfc: blimits: unexpected argument \"idle\" (give several names as one argument: -n \"name1 name2\")\n"},
		{"-a and -c", []string{"-a", "-c"}, exitUsage, "", "lsfc: blimits: -a and -c exclude each other\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runLSF(t, nil, append([]string{"blimits", "--state", dir}, tc.args...)...)
			if code != tc.code {
				t.Errorf("blimits %q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
			}
			if diff := cmp.Diff(tc.stdout, stdout); diff != "" {
				t.Errorf("blimits %q stdout (-want +got):\n%s", tc.args, diff)
			}
			if diff := cmp.Diff(tc.stderr, stderr); diff != "" {
				t.Errorf("blimits %q stderr (-want +got):\n%s", tc.args, diff)
			}
		})
	}

	// The filters go to the daemon, each list split at blanks.
	f.limitQueries = nil
	if code, _, stderr := runLSF(t, nil, "blimits", "--state", dir, "-u", "ann bob", "-u", "cat", "-q", "night", "-m", "hostA",
		"-P", "proj1", "-A", "fluent"); code != 0 {
		t.Fatalf("blimits with filters: exit %d, stderr %q", code, stderr)
	}
	want := []url.Values{{"user": {"ann", "bob", "cat"}, "queue": {"night"}, "host": {"hostA"}, "project": {"proj1"}, "app": {"fluent"}}}
	if diff := cmp.Diff(want, f.limitQueries); diff != "" {
		t.Errorf("queries sent (-want +got):\n%s", diff)
	}
}
