package lang_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// checkSpan fails when sp does not lie inside its root source.
func checkSpan(t *testing.T, what string, sp lang.Span) {
	t.Helper()
	if !sp.IsValid() {
		return
	}
	r := sp.Root()
	if r.Start < 0 || r.End < r.Start || r.End > len(r.Src.Text) {
		t.Fatalf("%s span [%d,%d) outside input of %d bytes", what, r.Start, r.End, len(r.Src.Text))
	}
}

// FuzzParseConfig checks the configuration parser on any input: no panic,
// every span inside the input, rendering never fails, and formatting a file
// without errors keeps its tree and is idempotent.
func FuzzParseConfig(f *testing.F) {
	if dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpus", "real")); err == nil {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".md") {
				if b, err := os.ReadFile(path); err == nil {
					name := filepath.Base(path)
					if i := strings.LastIndex(name, "__"); i >= 0 {
						name = name[i+2:]
					}
					f.Add(b, uint8(lang.KindOf(name)))
				}
			}
			return nil
		})
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if file.Name != "want" {
				f.Add(file.Data, uint8(lang.KindOf(file.Name)))
			}
		}
	}
	f.Add([]byte("Begin Queue\nQUEUE_NAME = q\nEnd Queue\n"), uint8(lang.KindLSBQueues))
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		kind := lang.FileKind(k % uint8(lang.KindLSBOther+1))
		file, diags := lang.ParseConfig(lang.NewSource("fuzz", string(data)), kind)
		for _, d := range diags {
			checkSpan(t, "diagnostic", d.Span)
			for _, r := range d.Related {
				checkSpan(t, "related", r.Span)
			}
			if d.Fix != nil {
				for _, e := range d.Fix.Edits {
					checkSpan(t, "edit", e.Span)
				}
			}
		}
		var check func(items []lang.Item)
		check = func(items []lang.Item) {
			for _, it := range items {
				checkSpan(t, "item", it.Span())
				checkSpan(t, "line", it.Line().Whole)
				if s, ok := it.(*lang.Section); ok {
					check(s.Body)
				}
				if a, ok := it.(*lang.Assignment); ok {
					checkSpan(t, "value", a.Value.Span)
					checkSpan(t, "value source", a.Value.Src.SpanOf(0, len(a.Value.Text)))
				}
			}
		}
		check(file.Items)
		if err := diags.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := diags.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
		if !diags.HasErrors() {
			checkFormat(t, "fuzz", kind, string(data))
		}
	})
}

// FuzzParseResReq checks the resource requirement parser on any input: no
// panic, every span inside the input, rendering never fails, and the
// canonical form parses back to the same tree.
func FuzzParseResReq(f *testing.F) {
	if dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpus", "resreq")); err == nil {
		for _, name := range []string{"real.txt", "documented.tsv"} {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			for _, line := range strings.Split(string(b), "\n") {
				line, _, _ = strings.Cut(line, "\t")
				f.Add(line)
			}
		}
	}
	ar, _ := txtar.ParseFile(filepath.Join("testdata", "resreq", "syntax.txtar"))
	if ar != nil {
		for _, file := range ar.Files {
			if file.Name == "input" {
				for _, line := range strings.Split(string(file.Data), "\n") {
					f.Add(line)
				}
			}
		}
	}
	f.Add("select[mem > 4000 && (type == LINUX || type == X86_64)] order[-r1m:mem] rusage[mem=2000:duration=10] span[hosts=1] same[type]")
	f.Fuzz(func(t *testing.T, s string) {
		src := lang.NewSource("-R", s)
		r, ds := lang.ParseResReq(src)
		for _, d := range ds {
			checkSpan(t, "diagnostic", d.Span)
			for _, rel := range d.Related {
				checkSpan(t, "related", rel.Span)
			}
		}
		if err := ds.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if r == nil {
			if !ds.HasErrors() {
				t.Fatal("no tree and no error")
			}
			return
		}
		if ds.HasErrors() {
			return
		}
		checkResReqRoundTrip(t, s, r)
	})
}

// FuzzJoinResReqs checks the joining of several -R options on any input:
// no panic, diagnostics rendered, and a joined requirement whose canonical
// form parses without error.
func FuzzJoinResReqs(f *testing.F) {
	ar, _ := txtar.ParseFile(filepath.Join("testdata", "join", "join.txtar"))
	if ar != nil {
		for _, file := range ar.Files {
			if file.Name == "input" {
				for _, line := range strings.Split(string(file.Data), "\n") {
					a, b, _ := strings.Cut(line, " ;; ")
					f.Add(a, b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		r, ds := lang.ParseResReqOptions([]string{a, b})
		if err := ds.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if r == nil {
			if !ds.HasErrors() {
				t.Fatal("no requirement and no error")
			}
			return
		}
		text := r.String()
		if _, pds := lang.ParseResReq(lang.NewSource("joined", text)); pds.HasErrors() {
			var b strings.Builder
			pds.WriteText(&b)
			t.Fatalf("joined %q does not parse:\n%s", text, b.String())
		}
	})
}

// FuzzParseGPUReq checks that any GPU requirement either parses to a value
// that writes back to the same value, or fails with an error naming a
// column inside the text.
func FuzzParseGPUReq(f *testing.F) {
	for _, s := range []string{"num=2:mode=exclusive_process:mps=yes,shared:j_exclusive=yes", "gmodel=TeslaV100-16G:gmem=8G",
		"num=1/task:gtile='!'", "mig=3/1", "num=2:foo=1", "::", "num=", "gmem=1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := lang.ParseGPUReq(s)
		if err != nil {
			e, ok := err.(*lang.GPUReqError)
			if !ok || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("lang.ParseGPUReq(%q): error %v has no column inside the text", s, err)
			}
			return
		}
		back, err := lang.ParseGPUReq(g.String())
		if err != nil {
			t.Fatalf("lang.ParseGPUReq(%q).String() = %q does not parse: %v", s, g.String(), err)
		}
		if back.String() != g.String() {
			t.Fatalf("lang.ParseGPUReq(%q): %q reads back as %q", s, g.String(), back.String())
		}
	})
}
