package compile_test

import (
	"fmt"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// benchSelects are ten representative select expressions.
var benchSelects = []string{
	"mem > 4000 && (type == LINUX || type == X86_64) && defined(gpu)",
	"mem > 4000",
	"type == LINUX && mem > 16000 && swp > 2000",
	"(ncpus >= 16 && !gpu) || (mem > 4*1024 && r1m < 2.5)",
	"defined(gpu) && gpu_count >= 2 && model != XeonE5",
	"ut < 0.8 && ls < 10 && it > 5 && tmp/ncpus > 100",
	"hname != 'h00001' || rack == r2",
	"(mem - 2000) * 2 >= maxmem / 4 && !fs",
	"type == any && (r15m < 1.0 || (r1m < 0.5 && pg < 2))",
	"!(type == AARCH64) && mem >= 1.5e3 && swp >= 0 && -r1m > -4",
}

func benchPrograms(b *testing.B, env *compile.Env) []*compile.SelectProgram {
	var progs []*compile.SelectProgram
	for _, s := range benchSelects {
		r, ds := lang.ParseResReq(lang.NewSource("-R", "select["+s+"]"))
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		req, ds := env.CompileResReq(r, compile.SelectOptions{})
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		progs = append(progs, req.Simple().Select)
	}
	return progs
}

// BenchmarkSelectEval evaluates ten representative selects over 10,000
// hosts; one op is one host evaluation. "fast" is the closure compiled from
// the checked CEL AST, "cel" cel-go's interpreter on the same checked AST
// with the slot activation.
func BenchmarkSelectEval(b *testing.B) {
	env := testEnv()
	table := env.Table(randomHosts(10000, 2))
	progs := benchPrograms(b, env)
	for _, engine := range []string{"fast", "cel"} {
		b.Run(engine, func(b *testing.B) {
			for i, p := range progs {
				b.Run(fmt.Sprintf("E%d", i+1), func(b *testing.B) {
					vals := table.Values
					n := len(vals)
					matched := 0
					b.ReportAllocs()
					b.ResetTimer()
					if engine == "fast" {
						for i := 0; i < b.N; i++ {
							if p.Match(vals[i%n]) {
								matched++
							}
						}
					} else {
						for i := 0; i < b.N; i++ {
							if p.MatchCEL(env, vals[i%n]) {
								matched++
							}
						}
					}
					_ = matched
				})
			}
		})
	}
}

// BenchmarkMatch50 matches 50 distinct requirements (select, order,
// rusage) against 10,000 hosts whose value tables exist; one op is all 50,
// compilation cached.
func BenchmarkMatch50(b *testing.B) {
	env := testEnv()
	table := env.Table(randomHosts(10000, 3))
	var reqs []*compile.Requirement
	for i := 0; i < 50; i++ {
		s := fmt.Sprintf("select[%s && mem > %d] order[r15s:pg] rusage[mem=%d]", benchSelects[i%10], 100*(i+1), 50*(i%7))
		r, ds := lang.ParseResReq(lang.NewSource("-R", s))
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		req, ds := env.CompileResReq(r, compile.SelectOptions{})
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		reqs = append(reqs, req)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, req := range reqs {
			env.Match(req, table, compile.MatchOptions{})
		}
	}
}

// BenchmarkCompileResReq parses and compiles one new requirement.
func BenchmarkCompileResReq(b *testing.B) {
	env := testEnv()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s := fmt.Sprintf("select[%s && mem > %d] order[r15s:pg] rusage[mem=100]", benchSelects[i%10], i)
		r, _ := lang.ParseResReq(lang.NewSource("-R", s))
		env.CompileResReq(r, compile.SelectOptions{})
	}
}
