package main

import (
	"errors"
	"reflect"
	"slices"
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

func TestParseLSFArgsRefused(t *testing.T) {
	known := []lsfOption{{"o", "file"}, {"oo", "file"}, {"n", "slots"}, {"x", ""}}
	refused := []lsfOption{{"outdir", "dir"}, {"P", "project"}, {"nnodes", "n"}}
	for argv, want := range map[string]string{
		"-outdir /x": "option -outdir is not supported by lsfc",
		"-P p":       "option -P is not supported by lsfc",
		"-Pp":        "option -P is not supported by lsfc",
		"-nnodes 2":  "option -nnodes is not supported by lsfc",
		"-nn":        `unknown option "-nn"`,
		"-outdi":     `unknown option "-outdi"`,
		"-oofile":    `unknown option "-oofile"`,
		"-xa":        `unknown option "-xa"`,
	} {
		_, err := parseLSFArgs(strings.Fields(argv), known, refused, false)
		if err == nil || err.Error() != want {
			t.Errorf("parseLSFArgs(%q) error = %v, want %q", argv, err, want)
		}
		if _, ok := errors.AsType[*unsupportedOptionError](err); ok != strings.Contains(want, "not supported") {
			t.Errorf("parseLSFArgs(%q): refused = %v", argv, ok)
		}
	}
	a, err := parseLSFArgs([]string{"-n4", "-ofile", "-x"}, known, refused, false)
	if err != nil || a.value("n") != "4" || a.value("o") != "file" || !a.has("x") {
		t.Errorf("attached arguments: %v, %v", a, err)
	}
	if want := []string{"-n4", "-ofile", "-x"}; !reflect.DeepEqual(a.words, want) {
		t.Errorf("words = %q, want %q", a.words, want)
	}
}

// lsfDocumented is, for each LSF command lsfc provides besides bsub, the
// options LSF 10.1 documents for it and the ones lsfc implements.
var lsfDocumented = map[string]struct{ documented, implemented string }{
	"bjobs": {"A a aff app aps cname d data env fwd G g gpu hms hostfile J Jd json Lp l m N noheader o P p pe pei pi pn " +
		"p0 p1 p2 p3 plan prio psum q r rusage s script sla sum U u UF V W WF WL WP w X x",
		"A a app aps d fwd G g gpu J json l m noheader o P p prio q r s sla sum u UF w X x"},
	"bkill":   {"app b C d g J l m q r s sla stat u V", "app b C d g J l m q r s sla stat u"},
	"bstop":   {"a app C g J m q sla u V", "a app C g J m q sla u"},
	"bresume": {"app C g J m q sla u V", "app C g J m q sla u"},
	"bswitch": {"a J m q u V", "J m q u"},
	"btop":    {"u V", ""},
	"bbot":    {"u V", ""},
	"bmod": {"R n J W sp w m aps apsn q o oo e eo cwd r app M x sla a alloc_flags ar B b C c D E Ep env eptl ext F f " +
		"freq G g gpu hl hostfile i is Jd k L Lp mig N Ne network notify outdir P p ptl Q rn rnc S s smt stage T t ti " +
		"U u ul v We wa wt Zs Z appn arn Bn bn Cn cn cwdn Dn En Epn en eptln extn Fn fn freqn Gn gn gpun hostfilen in " +
		"isn Jdn Jn kn Ln Lpn Mn mn mign Nn Nen notifyn on outdirn Pn pn ptln Qn Rn rncn Sn sn slan smtn spn stagen " +
		"Tn tn Un un uln vn Wn Wen wn wan wtn Zsn V clusters cn_cu cn_mem core_isolation csm data datachk datagrp datan " +
		"jobaff ln_mem ln_slots nnodes step_cgroup", "q R n J W sp w m aps apsn P Pn G Gn g gn U Un B Bn N Ne Nn u un gpu gpun Jd Jdn"},
	"bqueues": {"alloc json l lr m noheader o r u V w", "json l r w"},
	"bhosts":  {"a aff alloc attr cname e gpu json l loc noheader o R rc rconly s sl V w X x", "gpu json l R s w"},
	"bhist": {"a aff app b C cname D d data e f G g gpu hostfile J Jd l Lp m N n P p q r S s T t u UF V w",
		"a C D d e f G g gpu J l m n P p q r S s T t u UF w"},
	"bparams":  {"a l V", "a l"},
	"badmin":   {"C f V v", "v"},
	"bacct":    {"aff app b C cname D d E e f gpu l Lp M m N P q rcacct rcalloc S sla U UF u V w x", "b C D d e f l m P q S u x"},
	"lsid":     {"V", ""},
	"lsadmin":  {"V", ""},
	"lshosts":  {"a alloc cname gpu json l loc o R s T V w", "gpu json l s w"},
	"lsload":   {"a E gpu gpuload I json l loc N n o R s V w", "json s w"},
	"bsla":     {"json N V", "json"},
	"busers":   {"alloc json o V w", "alloc json o w"},
	"bslots":   {"l n R W", "l n R W"},
	"bugroup":  {"l r V w", "l r w"},
	"blimits":  {"a A c C fwd gl json Lp m n o P q u V w", "a A c json m n P q u w"},
	"bmgroup":  {"cu l r V w", "cu l r w"},
	"bgadd":    {"L sla V", "L sla"},
	"bgmod":    {"L Ln u V", "L Ln u"},
	"bgdel":    {"c d u V", "c d u"},
	"bjgroup":  {"N s V", "N s"},
	"brequeue": {"a d e H J p r u V", "a d e H J r u"},
	"bpeek":    {"f J m q V", "f J m q"},
	"brsvadd":  {"o f d N nosusp q E Et Ep Ept u unit n m R b e t s p V", "o d N u unit n m R b e t s"},
	"brsvdel":  {"f V", ""},
	"brsvmod":  {"o on d u nosusp nonsuspn q qn E En Et Etn Ep Epn Ept Eptn b e t n m R f td tn V", "o on d u b e t n m R"},
	"brsvs":    {"l w p z c V", "l w p z c"},

	"bapp":       {"alloc l V w", "l w"},
	"lsclusters": {"l V w", "l w"},
	"lsinfo":     {"l M m r t V w", "l M m r t w"},
}

// TestLSFOptionTables gives each LSF command every option LSF documents
// for it: an implemented one is read as itself, never as unknown nor as a
// shorter option with an argument; any other is refused with exit 255.
func TestLSFOptionTables(t *testing.T) {
	_, dir := startFakeServe(t)
	for cmd, tc := range lsfDocumented {
		for _, name := range strings.Fields(tc.documented) {
			t.Run(cmd+"/-"+name, func(t *testing.T) {
				code, stdout, stderr := runLSF(t, nil, cmd, "--state", dir, "-"+name, "9999")
				refusal := cmd + ": option -" + name + " is not supported by lsfc\n"
				if slices.Contains(strings.Fields(tc.implemented), name) {
					if strings.Contains(stderr, "unknown option") || strings.Contains(stderr, "not supported") {
						t.Errorf("%s -%s: exit %d, stderr %q; want it read", cmd, name, code, stderr)
					}
					return
				}
				if code != exitLSF || stdout != "" || stderr != refusal {
					t.Errorf("%s -%s: exit %d, stdout %q, stderr %q; want %d and %q", cmd, name, code, stdout, stderr, exitLSF, refusal)
				}
			})
		}
	}
}

// TestLSFRefusedOptionsDocumented checks that each command refuses only
// options LSF documents for it, and none that lsfc implements.
func TestLSFRefusedOptionsDocumented(t *testing.T) {
	for cmd, refused := range map[string]func() []lsfOption{
		"bjobs": bjobsRefusedOptions, "bkill": bkillRefusedOptions, "bstop": bstopRefusedOptions,
		"bresume": bresumeRefusedOptions, "bswitch": bswitchRefusedOptions, "btop": btopRefusedOptions,
		"bbot": bbotRefusedOptions, "bmod": bmodRefusedOptions, "bqueues": bqueuesRefusedOptions,
		"bhosts": bhostsRefusedOptions, "bparams": bparamsRefusedOptions, "badmin": badminRefusedOptions,
		"bacct": bacctRefusedOptions, "lsid": lsidRefusedOptions, "lsadmin": lsadminRefusedOptions,
		"lshosts": lshostsRefusedOptions, "lsload": lsloadRefusedOptions, "bsla": bslaRefusedOptions,
		"busers": busersRefusedOptions, "blimits": blimitsRefusedOptions, "bugroup": bugroupRefusedOptions, "bmgroup": bmgroupRefusedOptions,
		"bgadd": bgaddRefusedOptions, "bgmod": bgmodRefusedOptions, "bgdel": bgdelRefusedOptions,
		"bjgroup": bjgroupRefusedOptions, "bhist": bhistRefusedOptions,
		"brequeue": brequeueRefusedOptions, "bpeek": bpeekRefusedOptions,
		"bapp": bappRefusedOptions, "lsclusters": lsclustersRefusedOptions, "lsinfo": lsinfoRefusedOptions,
	} {
		tc := lsfDocumented[cmd]
		seen := map[string]bool{}
		for _, o := range refused() {
			switch {
			case seen[o.name]:
				t.Errorf("%s refuses -%s twice", cmd, o.name)
			case !slices.Contains(strings.Fields(tc.documented), o.name):
				t.Errorf("%s refuses -%s, which is not documented for it", cmd, o.name)
			case slices.Contains(strings.Fields(tc.implemented), o.name):
				t.Errorf("%s refuses -%s, which lsfc implements", cmd, o.name)
			}
			seen[o.name] = true
		}
	}
}
