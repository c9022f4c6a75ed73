package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// bsubDocumented is every option LSF 10.1 documents for bsub, with
// whether it takes an argument.
var bsubDocumented = map[string]bool{
	"a": true, "alloc_flags": true, "app": true, "ar": false, "B": false, "b": true, "C": true, "c": true,
	"clusters": true, "cn_cu": true, "cn_mem": true, "core_isolation": true, "csm": true, "cwd": true,
	"D": true, "data": true, "datachk": false, "datagrp": true, "E": true, "Ep": true, "e": true, "eo": true,
	"env": true, "eptl": true, "ext": true, "F": true, "f": true, "freq": true, "G": true, "g": true,
	"gpu": true, "H": false, "hl": false, "hostfile": true, "I": false, "Ip": false, "Is": false, "IS": false,
	"ISp": false, "ISs": false, "IX": false, "i": true, "is": true, "J": true, "Jd": true, "jobaff": true,
	"jsdl": true, "jsdl_strict": true, "json": true, "K": false, "k": true, "L": true, "Lp": true,
	"ln_mem": true, "ln_slots": true, "M": true, "m": true, "mig": true, "N": false, "Ne": false, "n": true,
	"network": true, "nnodes": true, "notify": true, "o": true, "oo": true, "outdir": true, "P": true,
	"p": true, "pack": true, "ptl": true, "Q": true, "q": true, "R": true, "r": false, "rn": false,
	"rnc": true, "S": true, "s": true, "sla": true, "smt": true, "sp": true, "stage": true,
	"step_cgroup": true, "T": true, "t": true, "ti": false, "tty": false, "U": true, "u": true, "ul": false,
	"V": false, "v": true, "W": true, "We": true, "w": true, "wa": true, "wt": true, "x": false, "XF": false,
	"yaml": true, "Zs": false,
}

// bsubImplemented gives, for each option lsfc implements, an argument and
// what the request must hold with it.
var bsubImplemented = map[string]struct {
	arg  string
	want func(r *bsubRequest) bool
}{
	"q":   {"night", func(r *bsubRequest) bool { return r.sub.Queue == "night" }},
	"R":   {"select[mem>1]", func(r *bsubRequest) bool { return r.sub.ResReq == "select[mem>1]" }},
	"n":   {"3", func(r *bsubRequest) bool { return r.sub.Slots == 3 }},
	"ar":  {"", func(r *bsubRequest) bool { return r.sub.AutoResize }},
	"rnc": {"/bin/notify", func(r *bsubRequest) bool { return r.sub.ResizeNotify == "/bin/notify" }},
	"J":   {"j1", func(r *bsubRequest) bool { return r.sub.Name == "j1" }},
	"o":   {"out", func(r *bsubRequest) bool { return r.sub.Stdout == "out" }},
	"oo":  {"out2", func(r *bsubRequest) bool { return r.sub.Stdout == "out2" }},
	"e":   {"err", func(r *bsubRequest) bool { return r.sub.Stderr == "err" }},
	"eo":  {"err2", func(r *bsubRequest) bool { return r.sub.Stderr == "err2" }},
	"cwd": {"/w", func(r *bsubRequest) bool { return r.cwd == "/w" }},
	"r":   {"", func(r *bsubRequest) bool { return r.sub.Rerunnable }},
	"app": {"big", func(r *bsubRequest) bool { return r.sub.App == "big" }},
	"sp":  {"7", func(r *bsubRequest) bool { return r.sub.Priority == 7 }},
	"m":   {"hostA hostB", func(r *bsubRequest) bool { return slices.Equal(r.sub.Hosts, []string{"hostA", "hostB"}) }},
	"W":   {"5", func(r *bsubRequest) bool { return r.sub.RunLimit == 300 }},
	"We":  {"1:30", func(r *bsubRequest) bool { return r.sub.Estimate == 5400 }},
	"M":   {"2GB", func(r *bsubRequest) bool { return r.sub.MemLimit == 2048 }},
	"H":   {"", func(r *bsubRequest) bool { return r.sub.Hold }},
	"w":   {"done(1)", func(r *bsubRequest) bool { return r.sub.Depend == "done(1)" }},
	"K":   {"", func(r *bsubRequest) bool { return r.wait }},
	"x":   {"", func(r *bsubRequest) bool { return r.sub.Exclusive }},
	"sla": {"gold", func(r *bsubRequest) bool { return r.sub.Sla == "gold" }},
	"P":   {"proj1", func(r *bsubRequest) bool { return r.sub.Project == "proj1" }},
	"G":   {"ug1", func(r *bsubRequest) bool { return r.sub.UserGroup == "ug1" }},
	"g":   {"/a/b", func(r *bsubRequest) bool { return r.sub.JobGroup == "/a/b" }},
	"U":   {"user1#0", func(r *bsubRequest) bool { return r.sub.Reservation == "user1#0" }},
	"E":   {"pre.sh", func(r *bsubRequest) bool { return r.sub.PreExec == "pre.sh" }},
	"Ep":  {"post.sh", func(r *bsubRequest) bool { return r.sub.PostExec == "post.sh" }},
	"b": {"2001:1:1:0:0", func(r *bsubRequest) bool {
		return r.sub.BeginTime == time.Date(2001, 1, 1, 0, 0, 0, 0, time.Local).Unix()
	}},
	"t": {"2099:1:1:0:0", func(r *bsubRequest) bool {
		return r.sub.TermTime == time.Date(2099, 1, 1, 0, 0, 0, 0, time.Local).Unix()
	}},
	"c":      {"1:30/hostA", func(r *bsubRequest) bool { return r.sub.CPULimit == 5400 && r.sub.CPUSpec == "hostA" }},
	"C":      {"0", func(r *bsubRequest) bool { v, ok := r.procLimits["CORELIMIT"]; return ok && v == 0 }},
	"D":      {"2048", func(r *bsubRequest) bool { return r.procLimits["DATALIMIT"] == 2048 }},
	"F":      {"10", func(r *bsubRequest) bool { return r.procLimits["FILELIMIT"] == 10 }},
	"S":      {"8192", func(r *bsubRequest) bool { return r.procLimits["STACKLIMIT"] == 8192 }},
	"v":      {"4096", func(r *bsubRequest) bool { return r.procLimits["SWAPLIMIT"] == 4096 }},
	"p":      {"4", func(r *bsubRequest) bool { return r.procLimits["PROCESSLIMIT"] == 4 }},
	"T":      {"64", func(r *bsubRequest) bool { return r.procLimits["THREADLIMIT"] == 64 }},
	"i":      {"in.%J", func(r *bsubRequest) bool { return r.sub.Input == "in.%J" && !r.sub.InputSpooled }},
	"is":     {"in.txt", func(r *bsubRequest) bool { return r.sub.Input == "in.txt" && r.sub.InputSpooled }},
	"L":      {"/bin/bash", func(r *bsubRequest) bool { return r.sub.LoginShell == "/bin/bash" }},
	"env":    {"none", func(r *bsubRequest) bool { return r.env != nil && r.env.none }},
	"outdir": {"out/%J", func(r *bsubRequest) bool { return r.sub.OutDir == "out/%J" }},
	"gpu":    {"num=2:mode=exclusive_process", func(r *bsubRequest) bool { return r.sub.GPU == "num=2:mode=exclusive_process" }},
	"I":      {"", func(r *bsubRequest) bool { return r.interactive == "I" }},
	"Ip":     {"", func(r *bsubRequest) bool { return r.interactive == "Ip" }},
	"Is":     {"", func(r *bsubRequest) bool { return r.interactive == "Is" }},
	"B":      {"", func(r *bsubRequest) bool { return r.sub.NotifyBegin }},
	"N":      {"", func(r *bsubRequest) bool { return r.sub.NotifyEnd && !r.sub.NotifyExit }},
	"Ne":     {"", func(r *bsubRequest) bool { return r.sub.NotifyExit && !r.sub.NotifyEnd }},
	"Jd":     {"nightly build", func(r *bsubRequest) bool { return r.sub.Description == "nightly build" }},
	"Q":      {"all ~1 EXCLUDE(9)", func(r *bsubRequest) bool { return r.sub.RequeueExitValues == "all ~1 EXCLUDE(9)" }},
	"u":      {"ann bob@example.com", func(r *bsubRequest) bool { return r.sub.MailUser == "ann bob@example.com" }},
	"tty":    {"", func(r *bsubRequest) bool { return r.tty && r.interactive == "I" }},
}

// TestBsubOptionTable goes through every option LSF documents for bsub:
// an implemented one sets its field; any other is refused with exit 255,
// and nothing is submitted.
func TestBsubOptionTable(t *testing.T) {
	known := map[string]bool{}
	for _, o := range slices.Concat(bsubOptionList(), bsubRefusedOptions()) {
		if known[o.name] {
			t.Errorf("-%s is listed twice", o.name)
		}
		known[o.name] = true
		takesArg, ok := bsubDocumented[o.name]
		switch {
		case !ok:
			t.Errorf("-%s is listed but not documented for bsub", o.name)
		case takesArg != (o.arg != ""):
			t.Errorf("-%s: takes an argument = %v, LSF documents %v", o.name, o.arg != "", takesArg)
		}
	}
	for name := range bsubDocumented {
		if !known[name] {
			t.Errorf("-%s is documented for bsub but neither implemented nor refused", name)
		}
	}

	f, dir := startFakeServe(t)
	for name, takesArg := range bsubDocumented {
		t.Run(name, func(t *testing.T) {
			impl, ok := bsubImplemented[name]
			argv := []string{"-" + name}
			if takesArg {
				argv = append(argv, "value")
				if ok {
					argv[1] = impl.arg
				}
			}
			// Options that need another: -tty is read with -I.
			argv = append(argv, map[string][]string{"tty": {"-I"}}[name]...)
			argv = append(argv, "true")
			if ok {
				r, err := parseBsub(argv)
				if err != nil {
					t.Fatalf("parseBsub(%q): %v", argv, err)
				}
				if !impl.want(r) || r.sub.Command != "true" {
					t.Errorf("parseBsub(%q) = %+v, wrong field", argv, *r)
				}
				return
			}
			before := f.submitted()
			code, stdout, stderr := runLSF(t, nil, append([]string{"bsub", "--state", dir}, argv...)...)
			want := "bsub: option -" + name + " is not supported by lsfc\n"
			if code != exitLSF || stdout != "" || stderr != want {
				t.Errorf("bsub %q: exit %d, stdout %q, stderr %q; want %d and %q", argv, code, stdout, stderr, exitLSF, want)
			}
			if f.submitted() != before {
				t.Errorf("bsub %q submitted a job", argv)
			}
		})
	}
	for name := range bsubImplemented {
		if _, ok := bsubDocumented[name]; !ok {
			t.Errorf("-%s is tested as implemented but not documented", name)
		}
	}
}

// TestBsubReportedOptions holds the command lines that were once read as
// a shorter option with an argument, and ran a command nobody wrote.
func TestBsubReportedOptions(t *testing.T) {
	f, dir := startFakeServe(t)
	for _, tc := range []struct {
		argv   []string
		code   int
		stderr string
	}{
		{[]string{"-env", "all, =x", "-o", "/dev/null", "true"}, exitLSF, "bsub: -env \"all, =x\": \"\" is not a variable name. Job not submitted\n"},
		{[]string{"-b", "25:99", "true"}, exitLSF, "bsub: -b \"25:99\": Bad time specification (minute must be 0-59). Job not submitted\n"},
		{[]string{"-t", "yesterday", "true"}, exitLSF, "bsub: -t \"yesterday\": Bad time specification (want [[year:][month:]day:]hour:minute). Job not submitted\n"},
		{[]string{"-gpu", "num=1:foo=2", "true"}, exitLSF, "bsub: -gpu: bad GPU requirement \"num=1:foo=2\" at column 7: unknown keyword \"foo\" (want one of num, mode, mps, j_exclusive, aff, block, gpack, glink, gvendor, gmodel, gtile, gmem, mig). Job not submitted\n"},
		{[]string{"-gpu", "num=two", "true"}, exitLSF, "bsub: -gpu: bad GPU requirement \"num=two\" at column 1: num=two: want a positive whole number of GPUs. Job not submitted\n"},
		{[]string{"-We", "10/hostA", "true"}, exitLSF, "bsub: -We \"10/hostA\": lsfc does not normalise run times by the CPU factor of \"hostA\"; give [hour:]minute. Job not submitted\n"},
		{[]string{"-n", "0", "true"}, exitLSF, "bsub: -n \"0\": want a positive whole number. Job not submitted\n"},
		{[]string{"-n", "8,2", "true"}, exitLSF, "bsub: Bad argument for option -n. Job not submitted\n"},
		{[]string{"-W", "1:75", "true"}, exitLSF, "bsub: -W \"1:75\": want [hours:]minutes, such as 90 or 1:30. Job not submitted\n"},
		{[]string{"-G", "~grp", "true"}, exitUsage, `bsub: -G "~grp": excluding fairshare groups (~group) is not supported by lsfc`},
		{[]string{"-q", "normal", "-ISs", "bash"}, exitLSF, "bsub: option -ISs is not supported by lsfc\n"},
		// Words that begin a longer option are never split.
		{[]string{"-envall", "true"}, exitUsage, `bsub: unknown option "-envall"`},
		{[]string{"-oout.log", "true"}, exitUsage, `bsub: unknown option "-oout.log"`},
		{[]string{"-Jdfoo", "true"}, exitUsage, `bsub: unknown option "-Jdfoo"`},
		{[]string{"-Wen", "true"}, exitUsage, `bsub: unknown option "-Wen"`},
		{[]string{"-gpux", "true"}, exitUsage, `bsub: unknown option "-gpux"`},
	} {
		code, stdout, stderr := runLSF(t, nil, append([]string{"bsub", "--state", dir}, tc.argv...)...)
		ok := stderr == tc.stderr || tc.code != exitLSF && strings.Contains(stderr, tc.stderr)
		if code != tc.code || stdout != "" || !ok {
			t.Errorf("bsub %q: exit %d, stdout %q, stderr %q; want %d and %q", tc.argv, code, stdout, stderr, tc.code, tc.stderr)
		}
	}
	if n := f.submitted(); n != 0 {
		t.Errorf("submitted %d jobs, want none", n)
	}

	// The attached forms that cannot be mistaken still work.
	r, err := parseBsub([]string{"-n4", "-qnormal", "-ohello.out", "-W10", "-Pproj", "true"})
	want := bsubRequest{sub: api.SubmitRequest{Command: "true", Slots: 4, Queue: "normal", Stdout: "hello.out", RunLimit: 600, Project: "proj"}}
	if err != nil || !reflect.DeepEqual(*r, want) {
		t.Errorf("attached forms: %+v, %v; want %+v", r, err, want)
	}
}

// TestBsubScriptRefusedOption checks that a #BSUB line with an option
// lsfc does not implement refuses the job script too.
func TestBsubScriptRefusedOption(t *testing.T) {
	f, dir := startFakeServe(t)
	var stdout, stderr strings.Builder
	e := env{stdin: strings.NewReader("#!/bin/sh\n#BSUB -q normal\n#BSUB -k /tmp/ckpt\nnvidia-smi\n"), stdout: &stdout, stderr: &stderr,
		getenv: func(string) string { return "" }}
	code := run([]string{"bsub", "--state", dir}, e)
	want := "bsub: #BSUB: option -k is not supported by lsfc\n"
	if code != exitLSF || stdout.String() != "" || stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout.String(), stderr.String(), exitLSF, want)
	}
	if n := f.submitted(); n != 0 {
		t.Errorf("submitted %d jobs, want none", n)
	}
}

// submitted returns how many jobs were submitted so far.
func (f *fakeServe) submitted() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}
