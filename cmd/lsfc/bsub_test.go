package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime/api"
)

func TestParseBsub(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		want bsubRequest
	}{
		{
			name: "toil",
			argv: []string{"-cwd", ".", "-J", "toil_job_0", "-R", "select[mem>200MB] rusage[mem=200MB]", "-M", "2147MB",
				"-n", "1", "-o", "/wd/toil_x.0.%J.out.log", "-e", "/wd/toil_x.0.%J.err.log",
				"_toil_worker root file:/js kind-root/instance-xxxx --context abc"},
			want: bsubRequest{cwd: ".", sub: api.SubmitRequest{
				Command: "_toil_worker root file:/js kind-root/instance-xxxx --context abc",
				Name:    "toil_job_0", ResReq: "select[mem>200MB] rusage[mem=200MB]", MemLimit: 2147, Slots: 1,
				Stdout: "/wd/toil_x.0.%J.out.log", Stderr: "/wd/toil_x.0.%J.err.log"}},
		},
		{
			name: "multi-letter options",
			argv: []string{"-app", "big", "-sp", "50", "-q", "normal", "-W", "1:30", "-m", "hostA hostB", "-m", "hostC",
				"-r", "-x", "-H", "-K", "-w", "done(12)", "./job.sh", "a", "b"},
			want: bsubRequest{wait: true, sub: api.SubmitRequest{Command: "./job.sh a b", App: "big", Priority: 50,
				Queue: "normal", RunLimit: 5400, Hosts: []string{"hostA", "hostB", "hostC"}, Rerunnable: true,
				Exclusive: true, Hold: true, Depend: "done(12)"}},
		},
		{
			name: "options end at the command",
			argv: []string{"-q", "short", "ls", "-l", "-q", "x"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "ls -l -q x", Queue: "short"}},
		},
		{
			name: "double dash",
			argv: []string{"-n", "4", "--", "-weird-command", "arg"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "-weird-command arg", Slots: 4}},
		},
		{
			name: "attached values and units",
			argv: []string{"-n4", "-qnormal", "-M", "2GB", "-W", "45", "echo", "hi"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "echo hi", Slots: 4, Queue: "normal", MemLimit: 2048,
				RunLimit: 2700}},
		},
		{
			name: "-M without a unit, -oo",
			argv: []string{"-M", "100", "-o", "a", "-oo", "b", "true"},
			want: bsubRequest{bareMem: 100, sub: api.SubmitRequest{Command: "true", Stdout: "b", OutOverwrite: true}},
		},
		{
			name: "hard -M with a unit",
			argv: []string{"-M", "512M!", "true"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "true", MemLimit: 512, MemHard: true}},
		},
		{
			name: "several -R",
			argv: []string{"-R", "select[mem>1]", "-R", "span[hosts=1]", "true"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "true", ResReq: "select[mem > 1] span[hosts=1]"}},
		},
		{
			name: "several -R selects and orders",
			argv: []string{"-R", "select[mem>1] order[r15m]", "-R", "swp>2 order[ut]", "-R", "rusage[mem=10]", "true"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "true", ResReq: "select[(mem > 1) && (swp > 2)] order[r15m:ut] rusage[mem=10]"}},
		},
		{
			name: "one -R as written",
			argv: []string{"-R", "select[mem>1]  order[r15m]", "true"},
			want: bsubRequest{sub: api.SubmitRequest{Command: "true", ResReq: "select[mem>1]  order[r15m]"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseBsub(tc.argv)
			if err != nil {
				t.Fatalf("parseBsub(%q): %v", tc.argv, err)
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("parseBsub(%q) mismatch\n got: %+v\nwant: %+v", tc.argv, *got, tc.want)
			}
		})
	}
}

func TestParseBsubErrors(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"-Z", "true"}, `unknown option "-Z"`},
		{[]string{"-q"}, "-q needs an argument (queue)"},
		{[]string{"-n", "0", "true"}, `-n "0": want a positive whole number`},
		{[]string{"-n", "2,x", "true"}, `-n "2,x": want a positive whole number or min,max`},
		{[]string{"-n", "8,2", "true"}, `Bad argument for option -n. Job not submitted`},
		{[]string{"-n", "0,2", "true"}, `-n "0,2": want a positive whole number or min,max`},
		{[]string{"-sp", "x", "true"}, `-sp "x"`},
		{[]string{"-W", "1:75", "true"}, `-W "1:75": want [hours:]minutes`},
		{[]string{"-W", "abc", "true"}, `-W "abc"`},
		{[]string{"-M", "lots", "true"}, "-M: memory amount"},
		{[]string{"-M", "0", "true"}, "must be more than zero"},
		{[]string{"-R", "span[hosts=1]", "-R", "span[ptile=2]", "true"}, "-R#2:1:1: error: span section given by two -R options"},
		{[]string{"-R", "select[a]", "-R", "select[b", "true"}, "-R#2:1:"},
	} {
		_, err := parseBsub(tc.argv)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseBsub(%q) error = %v, want %q", tc.argv, err, tc.want)
		}
	}
}

func TestMemUnit(t *testing.T) {
	for _, tc := range []struct {
		conf map[string]string
		want compile.Unit
	}{
		{nil, compile.KB},
		{map[string]string{"LSF_UNIT_FOR_LIMITS": "MB"}, compile.MB},
		{map[string]string{"LSF_UNIT_FOR_LIMITS": " gb "}, compile.GB},
	} {
		if got, err := memUnit(tc.conf); err != nil || got != tc.want {
			t.Errorf("memUnit(%v) = %v, %v; want %v", tc.conf, got, err, tc.want)
		}
	}
	if _, err := memUnit(map[string]string{"LSF_UNIT_FOR_LIMITS": "QB"}); err == nil || !strings.Contains(err.Error(), "LSF_UNIT_FOR_LIMITS") {
		t.Errorf("memUnit of an unknown unit: error %v, want one naming LSF_UNIT_FOR_LIMITS", err)
	}
}

func TestBsubRequest(t *testing.T) {
	sc := submitContext{environ: []string{"PATH=/bin", "OMP_NUM_THREADS=1"}, wd: "/home/ann/wf", umask: 0o27, host: "login1"}
	for _, tc := range []struct{ cwd, want string }{
		{"", "/home/ann/wf"},
		{".", "/home/ann/wf"},
		{"sub/dir", "/home/ann/wf/sub/dir"},
		{"/abs//x/", "/abs/x"},
	} {
		r := &bsubRequest{cwd: tc.cwd, sub: api.SubmitRequest{Command: "true"}}
		got := r.request(sc)
		if got.Cwd != tc.want {
			t.Errorf("-cwd %q: Cwd = %q, want %q", tc.cwd, got.Cwd, tc.want)
		}
		if !reflect.DeepEqual(got.Env, sc.environ) || got.Umask != 0o27 || got.FromHost != "login1" || got.Command != "true" {
			t.Errorf("request = %+v, want the process's environment, umask and host", got)
		}
	}
}

func TestSubmittedMessage(t *testing.T) {
	if got := submittedMessage(&api.SubmitResponse{ID: 1001, Queue: "normal", Default: true}); got != "Job <1001> is submitted to default queue <normal>." {
		t.Errorf("default queue: %q", got)
	}
	if got := submittedMessage(&api.SubmitResponse{ID: 7, Queue: "short"}); got != "Job <7> is submitted to queue <short>." {
		t.Errorf("named queue: %q", got)
	}
}

func TestJobScriptOptions(t *testing.T) {
	script := "#!/bin/sh\n#BSUB -J \"my job\" -n 2\n#BSUB -q night\n# a comment\n#BSUBX -q ignored\n\necho start\n#BSUB -q late\n"
	a, err := parseLSFArgs([]string{"-q", "normal"}, bsubOptionList(), bsubRefusedOptions(), true)
	if err != nil {
		t.Fatal(err)
	}
	a, err = withScriptOptions(a, script)
	if err != nil {
		t.Fatal(err)
	}
	r, err := bsubFromArgs(a)
	if err != nil {
		t.Fatal(err)
	}
	want := api.SubmitRequest{Command: script, Name: "my job", Slots: 2, Queue: "normal"}
	if !reflect.DeepEqual(r.sub, want) {
		t.Errorf("script submission mismatch\n got: %+v\nwant: %+v", r.sub, want)
	}
	if _, err := withScriptOptions(a, "#BSUB -J 'open\necho\n"); err == nil {
		t.Error("an unterminated quote in #BSUB was accepted")
	}
}

// TestMailOptions reads -B, -N, -Ne and -u, on the command line and in
// #BSUB lines, and refuses what LSF refuses.
func TestMailOptions(t *testing.T) {
	script := "#!/bin/sh\n#BSUB -B -N\n#BSUB -u \"ann bob@example.com\"\necho hi\n"
	a, err := parseLSFArgs(nil, bsubOptionList(), bsubRefusedOptions(), true)
	if err != nil {
		t.Fatal(err)
	}
	if a, err = withScriptOptions(a, script); err != nil {
		t.Fatal(err)
	}
	r, err := bsubFromArgs(a)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.sub; !s.NotifyBegin || !s.NotifyEnd || s.NotifyExit || s.MailUser != "ann bob@example.com" {
		t.Errorf("#BSUB mail options: %+v", s)
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"-N", "-Ne", "true"}, "-N and -Ne cannot be used together"},
		{[]string{"-u", " ", "true"}, "-u: the mail address is empty"},
		{[]string{"-u", strings.Repeat("a", 512), "true"}, "longer than 511 characters"},
	} {
		if _, err := parseBsub(c.argv); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bsub %q: %v, want an error with %q", c.argv, err, c.want)
		}
	}
}

func TestSplitShellWords(t *testing.T) {
	for in, want := range map[string][]string{
		`a b  c`:                 {"a", "b", "c"},
		` -R "rusage[mem=1]" -J`: {"-R", "rusage[mem=1]", "-J"},
		`'a b'"c d"e`:            {"a bc de"},
		`a\ b "x\"y" 'p\q'`:      {"a b", `x"y`, `p\q`},
		`""`:                     {""},
	} {
		got, err := splitShellWords(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("splitShellWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
