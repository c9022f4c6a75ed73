package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// evilName is a job name that would plant a row and reset the terminal
// (ESC c) of whoever lists it, were it printed as it is. It has no "[":
// a name with one is a job array's.
const evilName = "a\nJOBID USER\x1bc"

// evilShown is evilName as the text layouts show it.
const evilShown = `a\nJOBID USER\033c`

func TestEscapeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name_1-x.y", "plain name_1-x.y"},
		{`back\slash \n`, `back\slash \n`},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{evilName, evilShown},
		{"a\r\tb\x00\x7f", `a\r\tb\000\177`},
		{"bad\xffbyte", `bad\377byte`},
		{"c1\u0085 bidi\u202e sep\u2028", `c1\u0085 bidi\u202e sep\u2028`},
	} {
		if got := escapeText(tc.in); got != tc.want {
			t.Errorf("escapeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := escapeText(escapeText(tc.in)); got != tc.want {
			t.Errorf("escapeText twice (%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// checkClean reports control characters other than the layout's own
// newlines, and a line that starts with the planted row.
func checkClean(t *testing.T, layout, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "JOBID USER") {
			t.Errorf("%s: planted row %q in:\n%s", layout, line, out)
		}
		if i := strings.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
			t.Errorf("%s: control character %q in line %q", layout, line[i], line)
		}
	}
}

// TestListingsEscaped submits a job whose name holds a newline and an
// escape sequence through a real daemon: every text layout of bjobs shows
// it escaped, -json exactly.
func TestListingsEscaped(t *testing.T) {
	res, err := lint.Run([]string{filepath.Join("..", "..", "testdata", "clusters", "demo")}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("demo tree: %v %v", err, res.Diagnostics.Err())
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := api.Dial(state)
	ctx := context.Background()
	sub, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Name: evilName, Hold: true, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"LSFC_STATE": state}
	// The layouts that cut names to their columns show a part of it.
	for _, tc := range []struct {
		args []string
		full bool
	}{
		{[]string{"bjobs"}, false}, {[]string{"bjobs", "-w"}, true}, {[]string{"bjobs", "-l"}, true},
		{[]string{"bjobs", "-p"}, false}, {[]string{"bjobs", "-p", "-w"}, true}, {[]string{"bjobs", "-o", "jobid job_name"}, true},
		{[]string{"bjobs", "-aps"}, false}, {[]string{"bjobs", "-prio"}, false},
	} {
		args := tc.args
		layout := strings.Join(args, " ")
		code, out, errOut := runLSF(t, vars, args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", layout, code, errOut)
			continue
		}
		checkClean(t, layout, out)
		if tc.full && !strings.Contains(out, evilShown) {
			t.Errorf("%s: the name is not shown as %s in:\n%s", layout, evilShown, out)
		}
	}
	code, out, errOut := runLSF(t, vars, "bjobs", "-json", "-o", "jobid job_name")
	if code != 0 {
		t.Fatalf("bjobs -json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Records []map[string]string `json:"RECORDS"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bjobs -json: %v in %s", err, out)
	}
	if len(doc.Records) != 1 || doc.Records[0]["JOB_NAME"] != evilName {
		t.Errorf("bjobs -json records = %q, want job %d named %q", doc.Records, sub.ID, evilName)
	}
}

// TestLayoutsEscaped gives every other text layout data whose names hold
// a newline and an escape sequence.
func TestLayoutsEscaped(t *testing.T) {
	jobs := fixtureJobs()
	jobs[0].Name, jobs[0].Command = evilName, evilName
	qs := fixtureQueues()
	qs[0].Name, qs[0].Description = evilName, evilName
	hs := fixtureHosts()
	hs[0].Name, hs[0].Resources = evilName, []string{evilName}
	// Each layout shows the whole name.
	for name, write := range map[string]func(*bytes.Buffer){
		"bacct":      func(b *bytes.Buffer) { writeAccounting(b, &jobs[0], false, time.UTC) },
		"bacct -l":   func(b *bytes.Buffer) { writeAccounting(b, &jobs[0], true, time.UTC) },
		"bqueues -w": func(b *bytes.Buffer) { writeQueues(b, qs, true) },
		"bqueues -l": func(b *bytes.Buffer) { writeQueuesLong(b, qs, false) },
		"bhosts":     func(b *bytes.Buffer) { writeBhosts(b, hs, true) },
		"bhosts -l":  func(b *bytes.Buffer) { writeBhostsLong(b, hs) },
		"lshosts":    func(b *bytes.Buffer) { writeLshosts(b, hs, true) },
		"lshosts -l": func(b *bytes.Buffer) { writeLshostsLong(b, hs) },
		"lsload":     func(b *bytes.Buffer) { writeLsload(b, hs, true) },
		"bsla": func(b *bytes.Buffer) {
			writeServiceClasses(b, []api.ServiceClass{{Name: evilName, Description: evilName}})
		},
		"badmin showstatus": func(b *bytes.Buffer) {
			writeShowStatus(b, &api.Status{Cluster: evilName, Master: evilName}, time.UTC)
		},
		"bparams -a": func(b *bytes.Buffer) { writeParamsAll(b, map[string]string{"X": evilName}) },
		"bapp -w":    func(b *bytes.Buffer) { writeApps(b, []api.App{{Name: evilName}}, true) },
		"bapp -l": func(b *bytes.Buffer) {
			writeAppsLong(b, []api.App{{Name: "a", Description: evilName, Params: []api.QueueParam{{Name: "PRE_EXEC", Value: evilName}}}})
		},
		"lsclusters -w": func(b *bytes.Buffer) {
			writeLsclusters(b, clusterRows(&api.ClusterInfo{Cluster: evilName, Admins: []string{evilName}}), true)
		},
		"lsclusters -l": func(b *bytes.Buffer) {
			info := &api.ClusterInfo{Cluster: "c", Admins: []string{evilName}, Peers: []api.ClusterPeer{{Cluster: "p", Servers: []string{evilName}}}}
			writeLsclustersLong(b, clusterRows(info), info)
		},
		"lsinfo -w": func(b *bytes.Buffer) {
			writeResources(b, []api.ResourceInfo{{Name: evilName, Description: evilName}}, true)
		},
		"lsinfo -l": func(b *bytes.Buffer) { writeResourcesLong(b, []api.ResourceInfo{{Name: "r", Description: evilName}}) },
		"lsinfo -M": func(b *bytes.Buffer) {
			writeHostModels(b, []api.HostModelInfo{{Name: "m", Architecture: []string{evilName}}})
		},
		"bslots -l": func(b *bytes.Buffer) {
			writeBackfillWindows(b, []api.BackfillWindow{{Slots: 1, Runtime: -1, Hosts: []api.HostSlots{{Host: evilName, Slots: 1}}}}, true)
		},
	} {
		var b bytes.Buffer
		write(&b)
		checkClean(t, name, b.String())
		if !strings.Contains(b.String(), evilShown) {
			t.Errorf("%s: the name is not shown as %s in:\n%s", name, evilShown, b.String())
		}
	}
	var b bytes.Buffer
	writeQueues(&b, qs, false) // names cut to 15 characters
	checkClean(t, "bqueues", b.String())
	// The data given is left as it was, for -json.
	if jobs[0].Name != evilName || qs[0].Name != evilName || hs[0].Resources[0] != evilName {
		t.Errorf("a layout changed its input")
	}
}

// TestTextSafeCopiesOnlyWhatChanges checks that textSafe escapes strings
// at any depth without touching the answer it was given (JSON output is
// written from it), and gives back what holds nothing to escape as it is.
func TestTextSafeCopiesOnlyWhatChanges(t *testing.T) {
	type inner struct {
		Names []string
		Attrs map[string]string
	}
	type outer struct {
		Plain string
		In    *inner
		Many  []inner
	}
	orig := []outer{
		{Plain: "ok", In: &inner{Names: []string{"x"}}},
		{Plain: "fine", Many: []inner{{Attrs: map[string]string{"k": evilName}}, {Names: []string{"y", evilName}}}},
	}
	got := textSafe(orig)
	if got[1].Many[0].Attrs["k"] != evilShown || got[1].Many[1].Names[1] != evilShown {
		t.Errorf("not escaped: %#v", got[1].Many)
	}
	if orig[1].Many[0].Attrs["k"] != evilName || orig[1].Many[1].Names[1] != evilName {
		t.Errorf("the original changed: %#v", orig[1].Many)
	}
	if got[0].In != orig[0].In {
		t.Error("a part with nothing to escape was copied")
	}
	clean := []outer{{Plain: "ok", In: &inner{Names: []string{"x"}}}}
	if again := textSafe(clean); &again[0] != &clean[0] {
		t.Error("a list with nothing to escape was copied")
	}
}
