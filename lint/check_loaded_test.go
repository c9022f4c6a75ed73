package lint_test

import (
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
)

// TestCheckLoaded: the loader's findings given to CheckLoaded are
// reported with the rest and go through the same suppression comments.
func TestCheckLoaded(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int // LSF105 findings
	}{
		{"reported", "Begin Parameters\nEnd Parameters\nEnd Parameters\n", 1},
		{"suppressed", "Begin Parameters\nEnd Parameters\n# lsfc:ignore LSF105 kept from an old edit\nEnd Parameters\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, loaded := lang.ParseConfig(lang.NewSource("lsb.params", tc.text), lang.KindLSBParams)
			if len(loaded) == 0 {
				t.Fatal("the parser found nothing to report")
			}
			res := lint.CheckLoaded(&compile.Tree{Files: []*lang.File{f}}, loaded, lint.Options{})
			n := 0
			for _, d := range res.Diagnostics {
				if d.Code == "LSF105" {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d LSF105 findings, want %d: %v", n, tc.want, res.Diagnostics)
			}
		})
	}
}
