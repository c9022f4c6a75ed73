package lang_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// corpusFindings lists every diagnostic the real corpus gives, as
// "line:col CODE". Each one is a genuine mistake in the file:
//   - the column-count mismatch and the End Hosts/Begin Host mismatches are
//     the mistakes the corpus's SOURCES.md names;
//   - ll.conf writes "LL_DEFAULT_QUEUE = myqueue": LSF's lsf.conf reader
//     rejects the whole file at that line and a shell sourcing the file
//     runs LL_DEFAULT_QUEUE as a command;
//   - the openlava-macosx lsb.params is a bare list of parameter names with
//     no section, which LSF ignores line by line.
var corpusFindings = map[string][]string{
	"LavaLite-Compute__lavalite/at-d348011/etc__lsb.hosts": {"18:33 error LSF109"},
	"LavaLite-Compute__lavalite/etc__ll.cluster.lavalite":  {"17:5 error LSF106"},
	"LavaLite-Compute__lavalite/etc__lsf.cluster.lavalite": {"20:5 error LSF106"},
	"LavaLite-Compute__lavalite/etc__ll.conf":              {"23:17 error LSF113"},
	"georgemarselis__openlava-macosx/lsb.params":           {"1:1 warning LSF117"},
}

// corpusFile is one configuration file of the real corpus.
type corpusFile struct {
	rel  string // path relative to corpus/real, with slashes
	kind lang.FileKind
	text string
}

// realCorpus returns the corpus's configuration files, Chef templates
// excluded (their ERB tags are not LSF syntax).
func realCorpus(t testing.TB) []corpusFile {
	dir := corpusDir(t, "real")
	var out []corpusFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".erb") {
			return nil
		}
		// Corpus files are named <dir>__<dir>__<file>.
		if i := strings.LastIndex(name, "__"); i >= 0 {
			name = name[i+2:]
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, corpusFile{rel: filepath.ToSlash(rel), kind: lang.KindOf(name), text: string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no files under %s", dir)
	}
	return out
}

func TestCorpusParses(t *testing.T) {
	for _, f := range realCorpus(t) {
		t.Run(f.rel, func(t *testing.T) {
			if f.kind == lang.KindUnknown {
				t.Fatalf("kind of %s not recognised", f.rel)
			}
			file, diags := lang.ParseConfig(lang.NewSource(f.rel, f.text), f.kind)
			var got []string
			for _, d := range diags {
				p := d.Span.StartPos()
				got = append(got, fmt.Sprintf("%d:%d %s %s", p.Line, p.Col, d.Severity, d.Code))
			}
			if want := corpusFindings[f.rel]; !slices.Equal(got, want) {
				var b strings.Builder
				diags.WriteText(&b)
				t.Errorf("findings mismatch\nwant %q\ngot  %q\n%s", want, got, b.String())
			}
			if len(file.Items) == 0 {
				t.Errorf("no items parsed")
			}
		})
	}
}
