package compile_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
)

// demoEnv returns the Env of the bundled demo tree and the hosts of its
// inventory.
func demoEnv(t *testing.T) (*compile.Env, []*compile.Host) {
	t.Helper()
	tree, ds, err := compile.Load([]string{filepath.Join("..", "testdata", "clusters", "demo")}, compile.LoadOptions{})
	if err != nil || ds.HasErrors() {
		t.Fatalf("loading the demo tree: %v %v", err, ds)
	}
	env := compile.EnvFromTree(tree)
	b, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	inv, ids := inventory.Read(lang.NewSource("demo.yaml", string(b)), env.Unit)
	if ids.HasErrors() {
		t.Fatalf("reading the demo inventory: %v", ids)
	}
	return env, inv.Hosts
}

// explainStrings are requirements that exercise every way a host can fail
// or be left out: select, rusage, status, slots, span[], same[], compound
// terms and alternatives.
var explainStrings = []string{
	"select[ssd] same[rack] span[ptile=8]",
	"select[ssd] same[rack]",
	"select[ssd] span[hosts=1]",
	"span[ptile=4]",
	"select[mem > 200000] rusage[mem=300G]",
	"rusage[mem=100G:swp=1G] || rusage[tmp=500G]",
	"2*{select[gpu]} + 4*{select[ssd]}",
	"2*{select[gpu] span[hosts=1]} + 100*{select[ssd]}",
	"{select[ncpus > 1000]} || {select[gpu] rusage[mem=400G]}",
	"{select[ncpus > 1000]} || {select[model == nosuch]}",
	"1*{select[bigmem]} + 2*{-}",
	"select[type == any] order[-slots]",
}

// requirementStrings returns explainStrings and the strings of the
// resreq corpus, when it is present.
func requirementStrings(t *testing.T) []string {
	out := slices.Clone(explainStrings)
	dir := filepath.Join("..", "..", "shared", "corpus", "resreq")
	for _, name := range []string{"real.txt", "documented.tsv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Logf("corpus %s absent: checking the built-in strings only", name)
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			line, _, _ = strings.Cut(line, "\t")
			out = append(out, line)
		}
	}
	return out
}

// TestMatchExplainEveryHost checks the explanation's contract on many
// requirements against the demo inventory: every host has exactly one
// verdict per term of the alternative explained, numbered in order; a host
// the job uses has no reason and every other verdict has at least one; a
// host is OK exactly when it is matched.
func TestMatchExplainEveryHost(t *testing.T) {
	env, hosts := demoEnv(t)
	table := env.Table(hosts)
	checked := 0
	for _, s := range requirementStrings(t) {
		r, ds := lang.ParseResReq(lang.NewSource("-R", s))
		if ds.HasErrors() {
			continue
		}
		req, cds := env.CompileResReq(r, compile.SelectOptions{})
		if req == nil || cds.HasErrors() {
			continue
		}
		for _, slots := range []int{1, 8} {
			res := env.Match(req, table, compile.MatchOptions{Slots: slots, Explain: true})
			checkExplained(t, s, slots, req, res, len(hosts))
		}
		checked++
	}
	if checked < len(explainStrings) {
		t.Fatalf("only %d requirements compiled against the demo tree", checked)
	}
}

func checkExplained(t *testing.T, s string, slots int, req *compile.Requirement, res *compile.MatchResult, nhosts int) {
	t.Helper()
	if len(res.Hosts) != nhosts {
		t.Errorf("%q -n %d: %d hosts explained, want %d", s, slots, len(res.Hosts), nhosts)
		return
	}
	terms := 1
	if len(req.Alts) > 0 {
		if res.Explained < 0 || res.Explained >= len(req.Alts) {
			t.Errorf("%q -n %d: explained alternative %d of %d", s, slots, res.Explained, len(req.Alts))
			return
		}
		terms = len(req.Alts[res.Explained])
	}
	if res.Alt >= 0 && res.Alt != res.Explained {
		t.Errorf("%q -n %d: alternative %d matched, %d explained", s, slots, res.Alt, res.Explained)
	}
	matched := map[int]bool{}
	for _, i := range res.Matched {
		matched[i] = true
	}
	for i, hm := range res.Hosts {
		if len(hm.Terms) != terms {
			t.Errorf("%q -n %d: host %s has %d verdicts, want one for each of %d terms", s, slots, hm.Host.Name, len(hm.Terms), terms)
			continue
		}
		used := false
		for k, tv := range hm.Terms {
			if tv.Term != k+1 {
				t.Errorf("%q -n %d: host %s: verdict %d is for term %d", s, slots, hm.Host.Name, k+1, tv.Term)
			}
			switch {
			case tv.Outcome == compile.OutcomeUsed && len(tv.Reasons) > 0:
				t.Errorf("%q -n %d: host %s term %d is used but has reasons %+v", s, slots, hm.Host.Name, tv.Term, tv.Reasons)
			case tv.Outcome != compile.OutcomeUsed && len(tv.Reasons) == 0:
				t.Errorf("%q -n %d: host %s term %d is %v without a reason", s, slots, hm.Host.Name, tv.Term, tv.Outcome)
			}
			used = used || tv.Outcome == compile.OutcomeUsed
		}
		if hm.OK != used || hm.OK != matched[i] {
			t.Errorf("%q -n %d: host %s: OK %v, used by a term %v, matched %v", s, slots, hm.Host.Name, hm.OK, used, matched[i])
		}
	}
}

// TestMatchExplainPlacement checks the reasons placement gives for the
// hosts it leaves out.
func TestMatchExplainPlacement(t *testing.T) {
	env, hosts := demoEnv(t)
	table := env.Table(hosts)
	tests := []struct {
		req   string
		slots int
		host  string
		want  string // outcome: part: values
	}{
		{"select[ssd] same[rack] span[ptile=8]", 1, "cn02", "not placed: same[rack]: rack=r01; the job is placed on rack=r03"},
		{"select[ssd] same[rack] span[ptile=8]", 1, "arm01", "matches: "},
		{"select[ssd] span[hosts=1]", 30, "cn01", "not placed: span[hosts=1]: 8 free slots, 30 needed on one host"},
		{"select[ssd] span[hosts=1]", 500, "cn02", "not placed: placement: span[hosts=1]: no host has 500 free slots"},
		{"rusage[mem=300G]", 1, "cn01", "rejected: rusage: mem available 120G, the job reserves 300G"},
		{"select[mem > 200000]", 1, "cn01", "rejected: mem > 200000: mem=122880M"},
		{"select[mem > 0.2T]", 1, "cn01", "rejected: mem > 0.2T: mem=0.117T"}, // in the clause's unit
	}
	for _, tt := range tests {
		req := compileReq(t, env, tt.req, compile.SelectOptions{})
		res := env.Match(req, table, compile.MatchOptions{Slots: tt.slots, Explain: true})
		var got string
		for _, hm := range res.Hosts {
			if hm.Host.Name != tt.host {
				continue
			}
			tv := hm.Terms[0]
			var parts []string
			for _, r := range tv.Reasons {
				parts = append(parts, r.Part+": "+r.Values)
			}
			got = tv.Outcome.String() + ": " + strings.Join(parts, "; ")
		}
		if got != tt.want {
			t.Errorf("%s -n %d on %s:\n got %q\nwant %q", tt.req, tt.slots, tt.host, got, tt.want)
		}
	}
}
