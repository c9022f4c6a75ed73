package lang_test

import (
	"sort"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
)

// BenchmarkParseCorpus parses every file of the real corpus once per
// iteration, on one goroutine.
func BenchmarkParseCorpus(b *testing.B) {
	files := realCorpus(b)
	size := 0
	for _, f := range files {
		size += len(f.text)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			lang.ParseConfig(lang.NewSource(f.rel, f.text), f.kind)
		}
	}
}

// BenchmarkParseSynthetic parses a generated tree of 2,000 queues and
// 20,000 hosts (lsf.cluster and lsb.hosts each list every host), one file
// after another on one goroutine.
func BenchmarkParseSynthetic(b *testing.B) {
	files := testkit.Synthetic(2000, 20000)
	names := make([]string, 0, len(files))
	size := 0
	for name, text := range files {
		names = append(names, name)
		size += len(text)
	}
	sort.Strings(names)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, name := range names {
			_, diags := lang.ParseConfig(lang.NewSource(name, files[name]), lang.KindOf(name))
			if len(diags) != 0 {
				b.Fatalf("%s: %v", name, diags.Err())
			}
		}
	}
}

// BenchmarkFormatSynthetic prints the synthetic tree in canonical form.
func BenchmarkFormatSynthetic(b *testing.B) {
	var parsed []*lang.File
	for name, text := range testkit.Synthetic(2000, 20000) {
		f, _ := lang.ParseConfig(lang.NewSource(name, text), lang.KindOf(name))
		parsed = append(parsed, f)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range parsed {
			lang.Format(f)
		}
	}
}
