package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLSFArgs(t *testing.T) {
	opts := []lsfOption{{"a", ""}, {"u", "user"}, {"o", "fields"}, {"noheader", ""}, {"json", ""}}
	a, err := parseLSFArgs([]string{"-json", "12", "-o", "jobid stat", "--state", "/s", "-uall", "-noheader", "13", "-h"}, opts, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !a.has("json") || !a.has("noheader") || a.has("a") || a.value("o") != "jobid stat" || a.value("u") != "all" {
		t.Errorf("options = %v", a.opts)
	}
	if !reflect.DeepEqual(a.operands, []string{"12", "13"}) || a.state != "/s" || !a.help {
		t.Errorf("operands %q, state %q, help %v", a.operands, a.state, a.help)
	}

	a, err = parseLSFArgs([]string{"--state=/x", "-a", "cmd", "-a"}, opts, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if a.state != "/x" || !reflect.DeepEqual(a.operands, []string{"cmd", "-a"}) || len(a.values("a")) != 1 {
		t.Errorf("stopAtOperand: state %q, operands %q, -a %d times", a.state, a.operands, len(a.values("a")))
	}

	for argv, want := range map[string]string{
		"-x":      `unknown option "-x"`,
		"-nohead": `unknown option "-nohead"`,
		"-u":      "-u needs an argument (user)",
		"--state": "--state needs a directory",
	} {
		if _, err := parseLSFArgs(strings.Fields(argv), opts, nil, false); err == nil || err.Error() != want {
			t.Errorf("parseLSFArgs(%q) error = %v, want %q", argv, err, want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want []string
	}{
		{[]string{"/usr/bin/lsfc", "bjobs", "-a"}, []string{"bjobs", "-a"}},
		{[]string{"/usr/local/bin/bsub", "-q", "normal", "true"}, []string{"bsub", "-q", "normal", "true"}},
		{[]string{"bkill", "12"}, []string{"bkill", "12"}},
		{[]string{"lsid"}, []string{"lsid"}},
		{[]string{"/opt/lsfc/lsfc-1.2"}, []string{}},
	} {
		if got := commandLine(tc.argv); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("commandLine(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

func TestParseJobID(t *testing.T) {
	for in, want := range map[string]int64{
		"12": 12,
		"Job <1001> is submitted to queue <normal>.":      1001,
		"Job <7> is submitted to default queue <normal>.": 7,
	} {
		if got, err := parseJobID(in); err != nil || got != want {
			t.Errorf("parseJobID(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-3", "abc", "12[1]", "Job <x> is submitted"} {
		if _, err := parseJobID(in); err == nil || !strings.HasSuffix(err.Error(), ": Illegal job ID.") {
			t.Errorf("parseJobID(%q) error = %v, want Illegal job ID", in, err)
		}
	}
}
