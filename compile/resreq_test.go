package compile_test

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// testEnv declares the site resources of the hand-written test hosts.
func testEnv() *compile.Env {
	return compile.NewEnv(compile.EnvConfig{
		Unit: compile.MB,
		Site: []compile.Resource{
			{Name: "fs", Type: compile.Boolean},
			{Name: "gpu", Type: compile.Boolean},
			{Name: "gpu_count", Type: compile.Numeric},
			{Name: "scratch", Type: compile.Numeric, Dynamic: true},
			{Name: "rack", Type: compile.String},
		},
		Types:  []string{"X86_64", "LINUX", "AARCH64"},
		Models: []string{"XeonE5", "EPYC", "N1"},
	})
}

// testHosts are three hosts covering defined and undefined resources.
func testHosts() []*compile.Host {
	return []*compile.Host{
		{Name: "alpha", Type: "X86_64", Model: "XeonE5", Ncpus: 8, Maxmem: 16000, Maxswp: 4000, Cpuf: 10, Server: true,
			Booleans: []string{"fs", "gpu"}, Numbers: map[string]float64{"gpu_count": 4}, Strings: map[string]string{"rack": "r1"},
			Load:     map[string]float64{"mem": 8000, "swp": 3000, "r15s": 0.2, "r1m": 0.5, "r15m": 0.4, "ut": 0.3, "pg": 1, "it": 0},
			Reserved: map[string]float64{"mem": 1000}, Slots: 4, MaxSlots: 8},
		{Name: "beta-1", Type: "LINUX", Model: "EPYC", Ncpus: 64, Maxmem: 256000, Cpuf: 20, Server: true,
			Booleans: []string{"fs"}, Strings: map[string]string{"rack": "r2"},
			Load:  map[string]float64{"mem": 200000, "r15s": 1.5, "r1m": 3, "r15m": 2, "ut": 0.9, "pg": 0, "it": 30, "scratch": 500},
			Slots: 60, MaxSlots: 64},
		{Name: "gamma", Type: "AARCH64", Model: "N1", Ncpus: 4, Maxmem: 8000, Cpuf: 5, Server: true,
			Load:  map[string]float64{"mem": 1000, "r15s": 0, "r1m": 0.1, "pg": 0, "ut": 0.05},
			Slots: 0, MaxSlots: 4, Status: "ok"},
	}
}

// compileReq parses and compiles s, failing the test on errors.
func compileReq(t *testing.T, env *compile.Env, s string, opts compile.SelectOptions) *compile.Requirement {
	t.Helper()
	r, ds := lang.ParseResReq(lang.NewSource("-R", s))
	if ds.HasErrors() {
		t.Fatalf("parse %q: %v", s, ds.Err())
	}
	req, ds := env.CompileResReq(r, opts)
	if ds.HasErrors() {
		t.Fatalf("compile %q: %v", s, ds.Err())
	}
	return req
}

// selected returns the names of the hosts whose select matches, checking
// that the closures and cel-go's interpreter agree on each.
func selected(t *testing.T, env *compile.Env, req *compile.Requirement, hosts []*compile.Host) []string {
	t.Helper()
	var out []string
	for _, h := range hosts {
		v := env.Values(h)
		sel := req.Simple().Select
		fast, ref := sel.Match(v), sel.MatchCEL(env, v)
		if fast != ref {
			t.Fatalf("%s on %s: closures say %v, cel-go says %v (CEL %s)", sel.Text, h.Name, fast, ref, sel.CELString())
		}
		if fast {
			out = append(out, h.Name)
		}
	}
	return out
}

func TestSelectEvaluation(t *testing.T) {
	env, hosts := testEnv(), testHosts()
	tests := []struct {
		sel  string
		opts compile.SelectOptions
		want string
	}{
		// Comparisons and precedence.
		{sel: "mem > 4000", want: "alpha beta-1"},
		{sel: "mem > 4000 && ncpus < 16", want: "alpha"},
		{sel: "mem > 4000 || ncpus < 8", want: "alpha beta-1 gamma"},
		{sel: "ncpus > 4 && mem > 100000 || type == AARCH64", want: "beta-1 gamma"},
		{sel: "(2*r15s + 3*r1m + r15m)/6 < 1.0", want: "alpha"},
		{sel: "mem - 500 * 2 >= 7000", want: "alpha beta-1"},
		{sel: "-r1m > -1", want: "alpha gamma"},
		{sel: "ut < 0.5 && pg <= 1", want: "alpha gamma"},
		// Memory units convert to the unit of bare numbers (MB here).
		{sel: "mem > 7.5G", want: "alpha beta-1"},
		{sel: "maxmem >= 250000MB", want: "beta-1"},
		// Strings: bare words, quoted values, hyphens.
		{sel: "type == X86_64 || type == LINUX", want: "alpha beta-1"},
		{sel: "hname != 'beta-1'", want: "alpha gamma"},
		{sel: `model == "EPYC"`, want: "beta-1"},
		{sel: "rack == r1", want: "alpha"},
		{sel: "type < LINUX", want: "gamma"}, // strings compare in byte order: AARCH64 < LINUX < X86_64
		// type==any and type==local.
		{sel: "type == any && mem > 4000", want: "alpha beta-1"},
		{sel: "type == local", opts: compile.SelectOptions{FromType: "AARCH64"}, want: "gamma"},
		{sel: "model == local", opts: compile.SelectOptions{FromModel: "EPYC"}, want: "beta-1"},
		// bsub's default type==local, lifted by a String or Boolean name.
		{sel: "mem > 500", opts: compile.SelectOptions{FromType: "LINUX", LocalTypeDefault: true}, want: "beta-1"},
		{sel: "mem > 500 && fs", opts: compile.SelectOptions{FromType: "LINUX", LocalTypeDefault: true}, want: "alpha beta-1"},
		{sel: "mem > 500 && hname != 'x'", opts: compile.SelectOptions{FromType: "LINUX", LocalTypeDefault: true}, want: "alpha beta-1 gamma"},
		// Booleans: a bare name tests presence; 0 or 1 in arithmetic.
		{sel: "fs", want: "alpha beta-1"},
		{sel: "!fs", want: "gamma"},
		{sel: "fs && !gpu", want: "beta-1"},
		{sel: "fs + gpu == 2", want: "alpha"},
		{sel: "defined(gpu)", want: "alpha"},
		// Numeric values select on non-zero.
		{sel: "it", want: "beta-1"},
		{sel: "!it", want: "alpha"}, // gamma does not define it
		// Undefined values fail the comparison unless && or || decides.
		{sel: "gpu_count > 2", want: "alpha"},
		{sel: "!(gpu_count > 2)", want: ""},
		{sel: "defined(gpu_count) || mem > 100000", want: "alpha beta-1"},
		{sel: "defined(scratch) && scratch > 100", want: "beta-1"},
		{sel: "scratch > 100 || mem > 500", want: "alpha beta-1 gamma"},
		{sel: "scratch > 100 && mem > 500", want: "beta-1"},
		{sel: "rack == r2 || ncpus == 4", want: "beta-1 gamma"},
		// Division by zero fails the host, as in LSF.
		{sel: "mem / slots > 100", want: "alpha beta-1"},
		// Legacy colon syntax: = is <= for increasing indices, >= for
		// decreasing ones, == for strings; -name is "not".
		{sel: "r1m=1:mem=2000", want: "alpha"},
		{sel: "type=LINUX:-gpu", want: "beta-1"},
		{sel: "-:mem", want: "alpha beta-1 gamma"},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			req := compileReq(t, env, "select["+tt.sel+"]", tt.opts)
			got := strings.Join(selected(t, env, req, hosts), " ")
			if got != tt.want {
				t.Errorf("select[%s] = %q, want %q (CEL %s)", tt.sel, got, tt.want, req.Simple().Select.CELString())
			}
		})
	}
}

func TestMatchOrderAndRusage(t *testing.T) {
	env, hosts := testEnv(), testHosts()
	tests := []struct {
		req   string
		slots int
		want  string
	}{
		// order[]: increasing indices lowest first, decreasing ones
		// highest first, "-" reverses; the leftmost key decides.
		{req: "order[r1m]", want: "alpha beta-1"},
		{req: "order[-r1m]", want: "beta-1 alpha"},
		{req: "order[mem]", want: "beta-1 alpha"},
		{req: "order[-mem]", want: "alpha beta-1"},
		{req: "order[slots]", want: "beta-1 alpha"},
		{req: "order[-slots]", want: "alpha beta-1"},
		{req: "order[mem:r1m]", want: "beta-1 alpha"},
		{req: "order[scratch]", want: "beta-1 alpha"}, // hosts without a value go last
		// Default order r15s:pg.
		{req: "select[mem > 0]", want: "alpha beta-1"},
		// gamma has no free slot: it never matches.
		// rusage: available = configured - max(reserved, used).
		// alpha: maxmem 16000, mem 8000 free, 1000 reserved -> 8000.
		{req: "rusage[mem=8000] order[r1m]", want: "alpha beta-1"},
		{req: "rusage[mem=8001] order[r1m]", want: "beta-1"},
		{req: "rusage[gpu_count=3]", want: "alpha"},
		{req: "rusage[gpu_count=5] || rusage[mem=150000]", want: "beta-1"},
		// span and slots.
		{req: "span[hosts=1] order[r1m]", slots: 10, want: "beta-1"},
		{req: "select[mem > 0] order[r1m]", slots: 100, want: ""},
		{req: "select[fs] same[type] order[r1m]", slots: 6, want: "beta-1"},
	}
	for _, tt := range tests {
		t.Run(tt.req, func(t *testing.T) {
			req := compileReq(t, env, tt.req, compile.SelectOptions{})
			res := env.Match(req, env.Table(hosts), compile.MatchOptions{Slots: tt.slots})
			var got []string
			for _, i := range res.Matched {
				got = append(got, hosts[i].Name)
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("%s matched %q, want %q (placement %q)", tt.req, s, tt.want, res.Placement)
			}
		})
	}
}

func TestMatchVerdicts(t *testing.T) {
	env, hosts := testEnv(), testHosts()
	tests := []struct {
		req  string
		want compile.Verdict
	}{
		{"select[type == X86_64]", compile.VerdictMatch},
		{"select[ncpus > 100]", compile.VerdictNever},
		{"select[mem > 300000]", compile.VerdictNow},
		{"select[ncpus > 100 && mem > 300000]", compile.VerdictNever},
		{"rusage[mem=500000]", compile.VerdictNow},
	}
	for _, tt := range tests {
		req := compileReq(t, env, tt.req, compile.SelectOptions{})
		res := env.Match(req, env.Table(hosts), compile.MatchOptions{})
		if res.Verdict != tt.want {
			t.Errorf("%s: verdict %v, want %v", tt.req, res.Verdict, tt.want)
		}
	}
	// The clause table counts each top-level clause on its own.
	req := compileReq(t, env, "select[fs && ncpus >= 8 && mem > 100000]", compile.SelectOptions{})
	res := env.Match(req, env.Table(hosts), compile.MatchOptions{Explain: true})
	var counts []string
	for _, c := range res.Clauses {
		counts = append(counts, fmt.Sprintf("%s=%d", c.Part, c.Matches))
	}
	want := "select[fs]=2 select[ncpus >= 8]=2 select[mem > 100000]=1 host status ok=3 a free job slot=2"
	if got := strings.Join(counts, " "); got != want {
		t.Errorf("clauses = %s\nwant      %s", got, want)
	}
	if r := res.Hosts[0].Terms[0].Reasons; len(r) != 1 || r[0].Values != "mem=8000M" {
		t.Errorf("alpha's reasons = %+v", r)
	}
}

func TestMerge(t *testing.T) {
	env := testEnv()
	parse := func(s string) *lang.ResReq {
		if s == "" {
			return nil
		}
		r, ds := lang.ParseResReq(lang.NewSource("-R", s))
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		return r
	}
	tests := []struct{ queue, app, job, want, diag string }{
		// LSF's documented examples: the job's value wins, the queue's
		// other resources and its duration and decay are kept.
		{queue: "rusage[mem=200:gpu_count=1]", job: "rusage[mem=100]", want: "rusage[mem=100:gpu_count=1]"},
		{queue: "rusage[mem=200:duration=20:decay=1]", job: "rusage[mem=100]", want: "rusage[mem=100:duration=20:decay=1]"},
		{queue: "select[type==any] order[r15s:pg]", job: "select[mem>100] order[ut]", want: "select[(mem > 100) && (type == any)] order[ut]"},
		{queue: "select[fs] span[ptile=2] same[type]", app: "span[hosts=1] same[model]", job: "select[mem > 1]",
			want: "select[(mem > 1) && (fs)] span[hosts=1] same[type:model]"},
		{queue: "order[r1m]", app: "rusage[gpu_count=1]", want: "order[r1m] rusage[gpu_count=1]"},
		{queue: "rusage[mem=100]", job: "rusage[mem=200]", want: "rusage[mem=200]", diag: "LSF419"},
		{queue: "select[fs]", job: "2*{select[gpu]} + 1*{-}", want: "2*{select[(gpu) && (fs)]} + 1*{select[(type == any) && (fs)]}"},
	}
	for _, tt := range tests {
		got, ds := env.Merge(parse(tt.queue), parse(tt.app), parse(tt.job))
		if s := got.String(); s != tt.want {
			t.Errorf("Merge(%q, %q, %q) = %q, want %q", tt.queue, tt.app, tt.job, s, tt.want)
		}
		var codes []string
		for _, d := range ds {
			codes = append(codes, string(d.Code))
		}
		if c := strings.Join(codes, " "); c != tt.diag {
			t.Errorf("Merge(%q, %q, %q) diagnostics %q, want %q", tt.queue, tt.app, tt.job, c, tt.diag)
		}
	}
}

// TestCheckGolden runs testdata/resreq/*.txtar: each line of "input" is a
// requirement compiled against testEnv; "want" the diagnostics.
func TestCheckGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "resreq", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no goldens")
	}
	env := testEnv()
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, f := range ar.Files {
				if f.Name == "want" {
					continue
				}
				for _, line := range strings.Split(strings.TrimRight(string(f.Data), "\n"), "\n") {
					r, ds := lang.ParseResReq(lang.NewSource("-R", line))
					if !ds.HasErrors() {
						_, more := env.CompileResReq(r, compile.SelectOptions{})
						ds = append(ds, more...)
					}
					if len(ds) == 0 {
						b.WriteString("ok: " + line + "\n")
					}
					ds.WriteText(&b)
				}
			}
			testkit.CheckWant(t, path, ar, b.String())
		})
	}
}

// randomHosts makes n hosts with random values, each resource left
// undefined now and then.
func randomHosts(n int, seed int64) []*compile.Host {
	rng := rand.New(rand.NewSource(seed))
	types := []string{"X86_64", "LINUX", "AARCH64"}
	models := []string{"XeonE5", "EPYC", "N1"}
	pick := func(p float64) bool { return rng.Float64() < p }
	hosts := make([]*compile.Host, n)
	for i := range hosts {
		h := &compile.Host{Name: fmt.Sprintf("h%05d", i), Type: types[rng.Intn(3)], Model: models[rng.Intn(3)],
			Ncpus: float64(int(1) << rng.Intn(7)), Maxmem: float64(1000 * (1 + rng.Intn(512))), Cpuf: float64(rng.Intn(50)),
			Server: true, Slots: float64(rng.Intn(9)), MaxSlots: 8,
			Numbers: map[string]float64{}, Strings: map[string]string{}, Load: map[string]float64{}}
		if pick(0.5) {
			h.Booleans = append(h.Booleans, "fs")
		}
		if pick(0.3) {
			h.Booleans = append(h.Booleans, "gpu")
			h.Numbers["gpu_count"] = float64(rng.Intn(9))
		}
		if pick(0.7) {
			h.Strings["rack"] = fmt.Sprintf("r%d", rng.Intn(4))
		}
		scale := map[string]float64{"r15s": 8, "r1m": 8, "r15m": 8, "ut": 1, "pg": 20, "ls": 10, "it": 120,
			"mem": h.Maxmem, "swp": 16000, "tmp": 100000, "scratch": 2000}
		for _, idx := range []string{"r15s", "r1m", "r15m", "ut", "pg", "ls", "it", "mem", "swp", "tmp", "scratch"} {
			if pick(0.9) {
				h.Load[idx] = math.Round(rng.Float64()*scale[idx]*100) / 100
			}
		}
		if pick(0.05) {
			h.Slots = 0
		}
		hosts[i] = h
	}
	return hosts
}

// differentialSelects are select expressions exercising every operator,
// conversion and undefined-value rule.
var differentialSelects = []string{
	"mem > 4000 && (type == LINUX || type == X86_64) && defined(gpu)",
	"(ncpus >= 16 && !gpu) || (mem > 4*1024 && r1m < 2.5)",
	"ut < 0.8 && ls < 10 && it > 5 && tmp/ncpus > 100",
	"!(gpu_count > 2)",
	"defined(gpu_count) || mem > 100",
	"scratch > 100 || !fs",
	"fs + gpu >= 1 && rack != r1",
	"rack < r2 || model == EPYC",
	"mem / slots > 500",
	"-r1m > -3 && !it",
	"it && mem",
	"(r15s + r1m + r15m) / 3 < 2 && maxmem >= 64000",
	"gpu_count * 2 == 8 || gpu_count == 0",
	"!(fs && gpu) || ncpus == 1",
	"type == any && cpuf > 10",
	"ls || ut",
}

// TestSelectDifferential checks that the closures and cel-go's interpreter
// agree on every host of a random inventory, for every select of the tests
// and of the corpus that compiles against the test environment.
func TestSelectDifferential(t *testing.T) {
	env := testEnv()
	hosts := randomHosts(2000, 1)
	sels := slices.Clone(differentialSelects)
	sels = append(sels, corpusSelects(t)...)
	checked := 0
	for _, s := range sels {
		r, ds := lang.ParseResReq(lang.NewSource("-R", "select["+s+"]"))
		if ds.HasErrors() {
			continue
		}
		req, ds := env.CompileResReq(r, compile.SelectOptions{FromType: "LINUX"})
		if ds.HasErrors() {
			continue
		}
		checked++
		for _, h := range hosts {
			v := env.Values(h)
			p := req.Simple().Select
			if fast, ref := p.Match(v), p.MatchCEL(env, v); fast != ref {
				t.Fatalf("select[%s] on %s: closures %v, cel-go %v (CEL %s)", s, h.Name, fast, ref, p.CELString())
			}
		}
	}
	if checked < len(differentialSelects) {
		t.Fatalf("only %d selects compiled", checked)
	}
}

// corpusSelects returns the select expressions of the resreq corpus.
func corpusSelects(t *testing.T) []string {
	dir := filepath.Join("..", "..", "shared", "corpus", "resreq")
	var out []string
	for _, name := range []string{"real.txt", "documented.tsv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Logf("corpus %s absent: testing the built-in selects only", name)
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line, _, _ = strings.Cut(line, "\t")
			r, ds := lang.ParseResReq(lang.NewSource("-R", line))
			if ds.HasErrors() || r.Simple() == nil {
				continue
			}
			if sec := r.Simple().Section(lang.SecSelect); sec != nil {
				out = append(out, sec.Select.String())
			}
		}
	}
	return out
}
