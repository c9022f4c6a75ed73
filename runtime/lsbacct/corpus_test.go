package lsbacct

import (
	"bufio"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
)

// corpusFiles returns the lsb.acct files of the shared corpus, relative
// to dir, sorted.
func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.Contains(e.Name(), "lsb.acct") {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// TestCorpus reads every real lsb.acct file: the records each holds and
// the lines reported as bad, by file:line and field, are kept in a golden
// file. Every bad line there is a publisher's edit or a negative test
// (see the corpus's SOURCES.md).
func TestCorpus(t *testing.T) {
	dir := testkit.CorpusDir(t, "acct")
	var out strings.Builder
	for _, name := range corpusFiles(t, dir) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		s := NewScanner(f, filepath.ToSlash(name))
		versions := map[string]int{}
		n := 0
		for s.Scan() {
			n++
			versions[s.Record().Version]++
		}
		f.Close()
		if err := s.Err(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var vs []string
		for _, v := range slices.Sorted(maps.Keys(versions)) {
			vs = append(vs, fmt.Sprintf("%s×%d", v, versions[v]))
		}
		fmt.Fprintf(&out, "%s: %d records (%s)\n", filepath.ToSlash(name), n, strings.Join(vs, " "))
		for _, p := range s.Problems() {
			fmt.Fprintf(&out, "\t%v\n", p)
		}
	}
	testkit.CheckFile(t, "testdata/corpus.golden", out.String())
}

// TestCorpusRoundTrip reads each good record of the real files, writes it
// back and compares the fields written with the fields read, one by one:
// every field the record holds comes back as LSF wrote it, the version
// aside (Append writes 10.108's). The fields Append writes past the
// record's end (an older or shortened record) are the zero values.
func TestCorpusRoundTrip(t *testing.T) {
	dir := testkit.CorpusDir(t, "acct")
	checked := 0
	for _, name := range corpusFiles(t, dir) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, MaxLineLen)
		line := 0
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			r, err := ParseLine(text)
			if err != nil {
				continue // reported by TestCorpus
			}
			orig := fields(t, text)
			back := Append(nil, r)
			got := fields(t, strings.TrimSuffix(string(back), "\n"))
			if len(got) < len(orig) {
				t.Errorf("%s:%d: wrote %d fields, read %d", name, line, len(got), len(orig))
				continue
			}
			for i, want := range orig {
				if i == 1 {
					if got[1] != `"`+Version+`"` {
						t.Errorf("%s:%d: version written %s", name, line, got[1])
					}
					continue
				}
				if got[i] != want && !sameNumber(got[i], want) {
					t.Errorf("%s:%d: field %d: wrote %s, read %s", name, line, i+1, clip(got[i]), clip(want))
					break
				}
			}
			// Reading what was written gives the same record.
			again, err := ParseLine(string(back))
			if err != nil {
				t.Errorf("%s:%d: reading back: %v", name, line, err)
				continue
			}
			r.Version, again.Version = "", ""
			r.Fields, again.Fields = 0, 0
			if !equalRecords(r, again) {
				t.Errorf("%s:%d: the record read back differs:\n%s\n%s", name, line, clip(r.String()), clip(again.String()))
			}
			checked++
		}
		f.Close()
	}
	if checked < 1200 {
		t.Errorf("checked %d records, want the corpus's 1200 or so", checked)
	}
}

// sameNumber reports whether two bare numbers are the same value written
// with another precision, as older versions write some fields ("1.0" and
// "1", "-1.000000" and "-1").
func sameNumber(a, b string) bool {
	if strings.HasPrefix(a, `"`) || strings.HasPrefix(b, `"`) {
		return false
	}
	var x, y float64
	if _, err := fmt.Sscan(a, &x); err != nil {
		return false
	}
	if _, err := fmt.Sscan(b, &y); err != nil {
		return false
	}
	return x == y
}

func equalRecords(a, b *Record) bool {
	return a.String() == b.String() && fmt.Sprint(*a) == fmt.Sprint(*b)
}

// fields splits a line into its fields as written, quotes kept.
func fields(t *testing.T, line string) []string {
	t.Helper()
	var out []string
	for i := 0; i < len(line); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		if line[i] == '"' {
			j++
			for j < len(line) {
				if line[j] == '"' {
					if j+1 < len(line) && line[j+1] == '"' {
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
		} else {
			for j < len(line) && line[j] != ' ' {
				j++
			}
		}
		out = append(out, line[i:j])
		i = j
	}
	return out
}
