package compile_test

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

func TestTruthLogic(t *testing.T) {
	all := []compile.Truth{compile.False, compile.True, compile.Unknown}
	for _, a := range all {
		for _, b := range all {
			// Kleene's logic is De Morgan's.
			if a.And(b).Not() != a.Not().Or(b.Not()) {
				t.Errorf("!(%v && %v) != !%v || !%v", a, b, a, b)
			}
			if a.And(b) != b.And(a) || a.Or(b) != b.Or(a) {
				t.Errorf("%v, %v: not commutative", a, b)
			}
		}
	}
	if compile.False.And(compile.Unknown) != compile.False || compile.True.Or(compile.Unknown) != compile.True ||
		compile.True.And(compile.Unknown) != compile.Unknown {
		t.Error("a known side does not decide")
	}
}

// partialValues returns what a static view might know of a host: each
// slot revealed with probability p, a revealed number as bounds that hold
// its value (exact, an upper bound, or a range around it).
func partialValues(env *compile.Env, v *compile.HostValues, rng *rand.Rand, p float64) *compile.StaticValues {
	s := env.NewStaticValues(v.Name)
	for slot, r := range env.Resources() {
		if rng.Float64() >= p {
			continue
		}
		s.Def[slot] = compile.TruthOf(v.Has[slot])
		if !v.Has[slot] {
			continue
		}
		switch r.Type {
		case compile.Numeric:
			x := v.Num[slot]
			switch rng.Intn(3) {
			case 0:
				s.Num[slot] = compile.Point(x)
			case 1:
				s.Num[slot] = compile.Bounds{Lo: math.Inf(-1), Hi: x}
			default:
				s.Num[slot] = compile.Bounds{Lo: x - 10*rng.Float64(), Hi: x + 10*rng.Float64()}
			}
		case compile.String:
			s.Str[slot], s.StrKnown[slot] = v.Str[slot], true
		}
	}
	return s
}

// checkStatic fails when a static verdict on part of a host's values
// contradicts the match on all of them, for the select and each clause: a
// static false never matches, and a static true always does on a host
// that defines every number and string the select reads.
func checkStatic(t *testing.T, env *compile.Env, sel *compile.SelectProgram, v *compile.HostValues, rng *rand.Rand) {
	t.Helper()
	res := env.Resources()
	defines := func(refs []int) bool {
		for _, slot := range refs {
			if res[slot].Type != compile.Boolean && !v.Has[slot] {
				return false
			}
		}
		return true
	}
	contradicts := func(got compile.Truth, match bool, refs []int) bool {
		return got == compile.False && match || got == compile.True && !match && defines(refs)
	}
	for _, p := range []float64{0, 0.5, 0.9, 1} {
		s := partialValues(env, v, rng, p)
		if got, match := sel.Judge(env, s), sel.Match(v); contradicts(got, match, sel.Refs) {
			t.Fatalf("select[%s] on %s (p=%v): static %v, but Match says %v", sel.Text, v.Name, p, got, match)
		}
		for _, c := range sel.Clauses {
			if got, match := c.Judge(env, s), c.Match(v); contradicts(got, match, c.Refs) {
				t.Fatalf("clause %s of select[%s] on %s (p=%v): static %v, but Match says %v", c.Text, sel.Text, v.Name, p, got, match)
			}
		}
	}
}

// corpusResReqs returns the requirements of the shared corpus, or none
// (with a note) when it is absent.
func corpusResReqs(t testing.TB) []string {
	dir := filepath.Join("..", "..", "shared", "corpus", "resreq")
	var out []string
	for _, name := range []string{"real.txt", "documented.tsv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Logf("corpus %s absent: %v", name, err)
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line, _, _ = strings.Cut(line, "\t"); strings.TrimSpace(line) != "" {
				out = append(out, line)
			}
		}
	}
	return out
}

// TestStaticNeverContradictsMatch judges the selects of the corpus, the
// differential and benchmark selects on partial views of the demo
// inventory's hosts and of generated ones: a static false never matches,
// a static true always does.
func TestStaticNeverContradictsMatch(t *testing.T) {
	texts := corpusResReqs(t)
	for _, s := range append(differentialSelects, benchSelects...) {
		texts = append(texts, "select["+s+"]")
	}
	demo, demoHosts := demoEnv(t)
	test := testEnv()
	envs := []struct {
		env   *compile.Env
		hosts []*compile.Host
	}{
		{demo, demoHosts},
		{test, append(testHosts(), randomHosts(30, 11)...)},
	}
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for _, e := range envs {
		table := e.env.Table(e.hosts)
		for _, text := range texts {
			r, ds := lang.ParseResReq(lang.NewSource("-R", text))
			if ds.HasErrors() {
				continue
			}
			for _, opts := range []compile.SelectOptions{{InConfig: true}, {FromType: "X86_64", LocalTypeDefault: true}} {
				req, _ := e.env.CompileResReq(r, opts)
				if req == nil {
					continue
				}
				for _, alt := range req.Alts {
					for _, term := range alt {
						if term.Simple.Select == nil {
							continue
						}
						checked++
						for _, v := range table.Values {
							checkStatic(t, e.env, term.Simple.Select, v, rng)
						}
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d selects compiled: the inputs are missing", checked)
	}
}

// BenchmarkSelectJudge judges the benchmark selects statically on hosts
// of which half the values are known; one op is one host.
func BenchmarkSelectJudge(b *testing.B) {
	env := testEnv()
	table := env.Table(randomHosts(1000, 2))
	rng := rand.New(rand.NewSource(3))
	vals := make([]*compile.StaticValues, len(table.Values))
	for i, v := range table.Values {
		vals[i] = partialValues(env, v, rng, 0.5)
	}
	progs := benchPrograms(b, env)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		progs[i%len(progs)].Judge(env, vals[i%len(vals)])
		i++
	}
}
