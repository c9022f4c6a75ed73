package api

import (
	"errors"
	"testing"
)

func TestParseExitValues(t *testing.T) {
	v, err := ParseExitValues("all ~1 ~2 EXCLUDE(9 10) 4", true)
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[int][2]bool{0: {}, 1: {}, 2: {}, 3: {true, false}, 4: {true, false},
		9: {true, true}, 10: {true, true}, 255: {true, false}} {
		in, ex := v.Has(code)
		if in != want[0] || ex != want[1] {
			t.Errorf("Has(%d) = %v, %v; want %v", code, in, ex, want)
		}
	}
	v, err = ParseExitValues(" 3  17 exclude(5)", false)
	if err != nil {
		t.Fatal(err)
	}
	if in, _ := v.Has(17); !in {
		t.Error("17 not in")
	}
	if in, _ := v.Has(4); in {
		t.Error("4 in")
	}
	if _, ex := v.Has(5); !ex {
		t.Error("5 not exclusive")
	}
	for _, bad := range []string{"256", "-1", "x", "all", "~1", "all ~x", "EXCLUDE(3", "EXCLUDE()", "EXCLUDE(300)", "+3", "3)"} {
		if _, err := ParseExitValues(bad, bad != "all"); err == nil {
			t.Errorf("ParseExitValues(%q) took it", bad)
		}
	}
	if _, err := ParseExitValues("all", false); err == nil {
		t.Error("all taken among success values")
	}
}

// The error of a value that cannot be read covers the word at fault.
func TestExitValuesErrorSpan(t *testing.T) {
	for _, c := range []struct {
		in, word string
		noAll    bool
	}{
		{"3 ~4 ~5", "~4", true},
		{"EXCLUDE(9) ~4", "~4", true},
		{"3 x 4", "x", false},
		{"all ~y", "y", false},
		{"1 EXCLUDE(2 300)", "300", false},
		{"1 EXCLUDE( )", "EXCLUDE( )", false},
		{"1 EXCLUDE(2", "EXCLUDE(2", false},
	} {
		_, err := ParseExitValues(c.in, true)
		var e *ExitValuesError
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v is no *ExitValuesError", c.in, err)
			continue
		}
		if got := c.in[e.Start:e.End]; got != c.word || e.ExceptWithoutAll != c.noAll {
			t.Errorf("%q: error at %q (except without all %v), want %q (%v)", c.in, got, e.ExceptWithoutAll, c.word, c.noAll)
		}
	}
}

func FuzzParseExitValues(f *testing.F) {
	for _, s := range []string{"3", "all ~1 ~2 EXCLUDE(9)", "EXCLUDE(", "1 2 3 exclude(4 5)", "~", "all ~"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, allowAll bool) {
		v, err := ParseExitValues(s, allowAll)
		if e, ok := err.(*ExitValuesError); ok && (e.Start < 0 || e.Start > e.End || e.End > len(s)) {
			t.Fatalf("%q: error span %d-%d outside the text", s, e.Start, e.End)
		}
		if err != nil {
			return
		}
		for code := 0; code < 256; code++ {
			if in, ex := v.Has(code); ex && !in {
				t.Fatalf("%q: %d exclusive but not in", s, code)
			}
		}
	})
}
