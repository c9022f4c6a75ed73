package schema_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile/schema"
)

// TestSchemaComplete checks that every file, section and key has what the
// compiler needs: a type, a doc, a well-formed range, an enum for enum
// keys, a syntax for special keys, and no name twice.
func TestSchemaComplete(t *testing.T) {
	files := schema.Files()
	if len(files) != 11 {
		t.Fatalf("%d files, want 11", len(files))
	}
	for _, f := range files {
		if f.Doc == "" {
			t.Errorf("%v: no doc", f.Kind)
		}
		seenSec := map[string]bool{}
		for _, s := range f.Sections {
			where := f.Kind.String() + " " + s.Name
			if seenSec[strings.ToLower(s.Name)] {
				t.Errorf("%s: section twice", where)
			}
			seenSec[strings.ToLower(s.Name)] = true
			if s.Doc == "" || s.Form == 0 {
				t.Errorf("%s: no doc or form", where)
			}
			if len(s.Keys) == 0 {
				t.Errorf("%s: no keys", where)
			}
			seen := map[string]bool{}
			for _, k := range s.Keys {
				kw := where + " " + k.Name
				if seen[strings.ToLower(k.Name)] {
					t.Errorf("%s: key twice", kw)
				}
				seen[strings.ToLower(k.Name)] = true
				if k.Type == 0 || k.Type.String() == "unknown" {
					t.Errorf("%s: no type", kw)
				}
				if k.Doc == "" {
					t.Errorf("%s: no doc", kw)
				}
				if _, err := schema.ParseRange(k.Range); err != nil {
					t.Errorf("%s: %v", kw, err)
				}
				if (k.Type == schema.Enum || k.Type == schema.EnumList) && len(k.Enum) == 0 {
					t.Errorf("%s: enum without values", kw)
				}
				if k.Type == schema.Special && k.Syntax == "" {
					t.Errorf("%s: special without syntax", kw)
				}
			}
		}
	}
}

func TestRanges(t *testing.T) {
	tests := []struct {
		r    string
		in   []float64
		out  []float64
		text string
	}{
		{"1..100", []float64{1, 50, 100}, []float64{0, 101}, "1 to 100"},
		{">=0", []float64{0, 5}, []float64{-1}, "at least 0"},
		{">0", []float64{0.5}, []float64{0}, "more than 0"},
		{"<=10", []float64{10, -3}, []float64{11}, "at most 10"},
		{"<1", []float64{0.99}, []float64{1}, "less than 1"},
		{"", []float64{-1e9, 1e9}, nil, "any number"},
	}
	for _, tt := range tests {
		b, err := schema.ParseRange(tt.r)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tt.in {
			if !b.Contains(x) {
				t.Errorf("%q excludes %v", tt.r, x)
			}
		}
		for _, x := range tt.out {
			if b.Contains(x) {
				t.Errorf("%q includes %v", tt.r, x)
			}
		}
		if b.String() != tt.text {
			t.Errorf("%q prints %q", tt.r, b.String())
		}
	}
	if _, err := schema.ParseRange("1-5"); err == nil {
		t.Error(`"1-5" accepted`)
	}
}
