package lint

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// staticTree is the cluster the evaluator is tested on.
var staticTree = map[string]string{
	"lsf.shared": `Begin HostType
TYPENAME
X86_64
AARCH64
End HostType

Begin HostModel
MODELNAME  CPUFACTOR  ARCHITECTURE
Xeon       60.0       (x86_64)
End HostModel

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
gpu           Boolean  ()        ()          (GPUs)
bigmem        Boolean  ()        ()          (big memory)
fpga          Boolean  ()        ()          (FPGA boards)
dynbool       Boolean  60        ()          (reported by an elim)
ngpus         Numeric  ()        N           (GPUs in the host)
lic           Numeric  ()        N           (shared licenses)
scratch       Numeric  ()        N           (scratch, from an elim)
load2         Numeric  30        Y           (a site load index)
rack          String   ()        ()          (rack)
osrel         String   ()        ()          (OS release)
End Resource
`,
	"lsf.cluster.test": `Begin Host
HOSTNAME  model  type     server  RESOURCES
cn1       Xeon   X86_64   1       (ngpus=2 osrel=el8)
cn2       !      !        1       (!bigmem osrel=EL8)
arm1      Xeon   AARCH64  1       (gpu)
login1    Xeon   X86_64   0       ()
End Host

Begin ResourceMap
RESOURCENAME  LOCATION
ngpus         (4@[cn1 cn2])
lic           (10@[all])
scratch       ([default])
rack          (r1@[cn1] r2@[others])
fpga          ([arm1])
End ResourceMap
`,
}

// staticPass compiles staticTree and returns the facts of its hosts.
func staticPass(t *testing.T) (*Pass, *staticFacts) {
	t.Helper()
	tree := &compile.Tree{Cluster: "test"}
	for _, name := range []string{"lsf.shared", "lsf.cluster.test"} {
		f, ds := lang.ParseConfig(lang.NewSource(name, staticTree[name]), lang.KindOf(name))
		if ds.HasErrors() {
			t.Fatalf("%s: %v", name, ds)
		}
		tree.Files = append(tree.Files, f)
	}
	pol, ds := compile.Compile(tree, compile.Options{})
	if ds.HasErrors() {
		t.Fatalf("compile: %v", ds)
	}
	p := &Pass{Policy: pol, Tree: tree}
	f := newStaticFacts(p)
	if f == nil {
		t.Fatal("no static facts")
	}
	return p, f
}

// requirement compiles a requirement against the test cluster.
func requirement(t *testing.T, p *Pass, text string) *compile.Requirement {
	t.Helper()
	r, ds := lang.ParseResReq(lang.NewSource("-R", text))
	if ds.HasErrors() {
		t.Fatalf("%q: %v", text, ds)
	}
	req, ds := p.Policy.Env().CompileResReq(r, compile.SelectOptions{InConfig: true})
	if req == nil {
		t.Fatalf("%q: %v", text, ds)
	}
	return req
}

func TestStaticEval(t *testing.T) {
	p, f := staticPass(t)
	tests := []struct {
		sel  string
		want map[string]compile.Truth // by host; hosts not named are not checked
	}{
		// Booleans: present 1, absent 0; exclusive (!name) is present;
		// one the ResourceMap locates, or an elim reports, is unknown.
		{"gpu", map[string]compile.Truth{"cn1": compile.False, "arm1": compile.True}},
		{"!gpu", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.False}},
		{"bigmem", map[string]compile.Truth{"cn1": compile.False, "cn2": compile.True}},
		{"fpga", map[string]compile.Truth{"arm1": compile.Unknown, "cn1": compile.False}},
		{"dynbool", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"server", map[string]compile.Truth{"cn1": compile.True, "login1": compile.False}},
		{"gpu == bigmem", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.False}},

		// Type, model and name; "!" in lsf.cluster is unknown.
		{"type==X86_64", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.False, "cn2": compile.Unknown}},
		{"type!=X86_64", map[string]compile.Truth{"cn1": compile.False, "arm1": compile.True}},
		{"model==Xeon", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.Unknown}},
		{"type==any", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.True}},
		{"type!=any", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"type==local", map[string]compile.Truth{"cn1": compile.Unknown, "arm1": compile.Unknown}},
		{"type<X86_64", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"hname==cn1", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.False}},
		{"hname==CN1", map[string]compile.Truth{"cn1": compile.Unknown, "cn2": compile.False}},
		{`hname=="cn1.example.com"`, map[string]compile.Truth{"cn1": compile.Unknown, "cn2": compile.False}},

		// Static values: RESOURCES before the ResourceMap; a shared
		// value; an instance without a value (elim) is unknown; a host
		// no fact gives a value has it undefined: comparisons unknown,
		// defined() false. A number is at most its configured value, as
		// reservations lower it.
		{"ngpus<=2", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.Unknown}},
		{"ngpus==4", map[string]compile.Truth{"cn1": compile.False, "cn2": compile.Unknown}},
		{"ngpus==8", map[string]compile.Truth{"cn1": compile.False, "cn2": compile.False, "arm1": compile.Unknown}},
		{"ngpus!=8", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.Unknown}},
		{"ngpus", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"ngpus>0", map[string]compile.Truth{"arm1": compile.Unknown, "cn1": compile.Unknown}},
		{"defined(ngpus)", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.False}},
		{"lic>=10", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"lic>10", map[string]compile.Truth{"cn1": compile.False, "arm1": compile.False}},
		{"scratch>0", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"defined(scratch)", map[string]compile.Truth{"cn1": compile.True}},
		{"rack==r1", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.False, "arm1": compile.False}},
		{`rack=="r2"`, map[string]compile.Truth{"cn2": compile.True}},
		{"osrel==el8", map[string]compile.Truth{"cn1": compile.True, "cn2": compile.Unknown, "arm1": compile.Unknown}},
		{"defined(osrel)", map[string]compile.Truth{"arm1": compile.False}},

		// Load indices, dynamic site resources and static facts lsf.cluster
		// does not give are unknown.
		{"mem>1000", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"load2<1", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"ncpus>=1 && maxmem>0", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"defined(r15s)", map[string]compile.Truth{"cn1": compile.Unknown}},

		// Kleene's && || !: a known side decides.
		{"gpu && mem>1000", map[string]compile.Truth{"cn1": compile.False, "arm1": compile.Unknown}},
		{"gpu || mem>1000", map[string]compile.Truth{"cn1": compile.Unknown, "arm1": compile.True}},
		{"!(gpu && mem>1000)", map[string]compile.Truth{"cn1": compile.True, "arm1": compile.Unknown}},
		{"(type==AARCH64 || bigmem) && !server", map[string]compile.Truth{"arm1": compile.False, "login1": compile.False}},

		// Arithmetic; division by zero and memory units are unknown.
		{"2*3 == 6 && 3 > 2", map[string]compile.Truth{"cn1": compile.True}},
		{"ngpus*2 == 8", map[string]compile.Truth{"cn2": compile.Unknown}},
		{"ngpus + 10 > 14", map[string]compile.Truth{"cn1": compile.False, "cn2": compile.False}},
		{"ngpus - lic > 5", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"lic/0 > 1", map[string]compile.Truth{"cn1": compile.Unknown}},
		{"-ngpus < -3", map[string]compile.Truth{"cn2": compile.Unknown, "cn1": compile.False}},
		{"gpu + bigmem >= 1", map[string]compile.Truth{"cn1": compile.False, "cn2": compile.True}},
		{"maxmem > 4G", map[string]compile.Truth{"cn1": compile.Unknown}},

		// The legacy colon syntax, rewritten by the compiler.
		{"gpu:type=X86_64", map[string]compile.Truth{"arm1": compile.False, "cn1": compile.False}},
	}
	for _, tc := range tests {
		req := requirement(t, p, tc.sel)
		sel := req.Simple().Select
		for host, want := range tc.want {
			h := f.host(host)
			if h == nil {
				t.Fatalf("no host %s", host)
			}
			if got := f.judge(sel, h); got != want {
				t.Errorf("%q on %s = %v, want %v", tc.sel, host, got, want)
			}
		}
	}
}

func TestStaticFailing(t *testing.T) {
	p, f := staticPass(t)
	tests := []struct {
		req          string
		never        bool
		culprit, why string
	}{
		{"select[gpu && type==X86_64]", true, "gpu && type == X86_64", `"gpu" is false (it lacks gpu)`},
		{"select[hname!=cn2 && type==AARCH64 && hname!=arm1]", true, "hname != cn2 && type == AARCH64 && hname != arm1", `"type == AARCH64" is false (type is "X86_64")`},
		{"select[gpu] rusage[mem=10]", false, "", ""},
		{"{select[bigmem && gpu]} || {select[gpu]}", false, "", ""},
		{"{select[bigmem && gpu]} || {select[fpga && bigmem]}", true, "bigmem && gpu", ""},
		{"2*{select[gpu]} + 2*{select[type==X86_64 && gpu]}", true, "type == X86_64 && gpu", ""},
		{"rusage[mem=10] span[hosts=1]", false, "", ""},
	}
	for _, tc := range tests {
		r := requirement(t, p, tc.req)
		term, never := f.failing(r, f.hosts)
		if never != tc.never {
			t.Errorf("%q: never = %v, want %v", tc.req, never, tc.never)
			continue
		}
		if !never {
			continue
		}
		if got := term.prog.Text; got != tc.culprit {
			t.Errorf("%q: culprit %q, want %q", tc.req, got, tc.culprit)
		}
		if tc.why != "" {
			if got := f.explain(term.prog, f.hosts[0]); !strings.Contains(got, tc.why) {
				t.Errorf("%q: explanation %q, want %q", tc.req, got, tc.why)
			}
		}
	}
}

func TestStaticFactsNeedCluster(t *testing.T) {
	tree := &compile.Tree{}
	f, _ := lang.ParseConfig(lang.NewSource("lsf.shared", staticTree["lsf.shared"]), lang.KindLSFShared)
	tree.Files = append(tree.Files, f)
	pol, _ := compile.Compile(tree, compile.Options{})
	if newStaticFacts(&Pass{Policy: pol, Tree: tree}) != nil {
		t.Error("facts without lsf.cluster")
	}
}
