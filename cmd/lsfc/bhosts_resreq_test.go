package main

import (
	"strings"
	"testing"
)

// TestBhostsResReq asks a real daemon on the demo tree which hosts satisfy
// requirements (bhosts -R): the hosts listed are those the select keeps,
// in the cluster's order; named hosts are narrowed by it; a requirement
// that does not parse or names an unknown resource exits 255 with the
// position of the mistake.
func TestBhostsResReq(t *testing.T) {
	state := startDemoDaemon(t)
	vars := map[string]string{"LSFC_STATE": state}
	names := func(out string) string {
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			got = append(got, strings.Fields(line)[0])
		}
		return strings.Join(got, " ")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bhosts", "-R", "select[gpu]"}, "gpu01 gpu02"},
		{[]string{"bhosts", "-R", "gpu || bigmem"}, "big01 gpu01 gpu02"},
		{[]string{"bhosts", "-R", "select[type==AARCH64 || type==LINUXPPC64]"}, "arm01 pwr01"},
		{[]string{"bhosts", "-R", "select[ssd && model==XeonGold6248]", "cn02", "gpu01", "cn04"}, "cn02 cn04"},
		{[]string{"bhosts", "-w", "-R", "select[fs] order[r15s]"}, "master01 master02"},
	} {
		code, out, errOut := runLSF(t, vars, tc.args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(tc.args, " "), code, errOut)
			continue
		}
		if got := names(out); got != tc.want {
			t.Errorf("%s: hosts %q, want %q\n%s", strings.Join(tc.args, " "), got, tc.want, out)
		}
	}

	// No host satisfies it: the header alone is not printed, and that is no failure.
	if code, out, errOut := runLSF(t, vars, "bhosts", "-R", "select[gpu && bigmem]"); code != 0 || out != "" {
		t.Errorf("bhosts -R matching no host: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A name that is no host is still one.
	if code, _, errOut := runLSF(t, vars, "bhosts", "-R", "select[gpu]", "gpu01", "nosuch"); code != exitLSF ||
		!strings.Contains(errOut, "nosuch: Bad host name") {
		t.Errorf("bhosts -R with an unknown name: exit %d, stderr %q", code, errOut)
	}
	for _, tc := range []struct{ req, want string }{
		{"select[mem>]", "-R:1:12: error:"},
		{"select[nosuchres>1]", "-R:1:8: error:"},
	} {
		code, out, errOut := runLSF(t, vars, "bhosts", "-R", tc.req)
		if code != exitLSF || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("bhosts -R %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.req, code, out, errOut, exitLSF, tc.want)
		}
	}
}
