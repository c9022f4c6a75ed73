package lang_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// TestLimits checks that every limit gives an LSF102 error at the right
// place instead of exhausting anything.
func TestLimits(t *testing.T) {
	tests := []struct {
		name   string
		lim    lang.Limits
		kind   lang.FileKind
		text   string
		want   string // message substring
		line   int
		errors int
	}{
		{"file size", lang.Limits{MaxFileSize: 10}, lang.KindLSBParams,
			"Begin Parameters\nEnd Parameters\n", "more than the 10 bytes", 1, 1},
		{"logical line length", lang.Limits{MaxLineLen: 20}, lang.KindLSBQueues,
			"Begin Queue\nD = aaaaaaaaaa \\\nbbbbbbbbbbbbbbbb \\\ncc\nEnd Queue\n", "longer than 20 bytes", 2, 2},
		{"cells per row", lang.Limits{MaxCells: 3}, lang.KindLSBHosts,
			"Begin Host\nA B C\nh 1 2 3 4\nEnd Host\n", "more than 3 values", 3, 1},
		{"cell nesting", lang.Limits{MaxDepth: 2}, lang.KindLSBUsers,
			"Begin UserGroup\nGROUP_NAME GROUP_MEMBER\ng (((a)))\nEnd UserGroup\n", "deeper than 2", 3, 1},
		{"#if nesting", lang.Limits{MaxDepth: 1}, lang.KindLSBQueues,
			"#if a\n#if b\n#endif\n#endif\n", "deeper than 1", 2, 2},
		{"diagnostics", lang.Limits{MaxDiagnostics: 2}, lang.KindLSFConf,
			"a b\nc d\ne f\ng h\n", "2 more were not reported", 5, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := lang.ConfigParser{Limits: tt.lim}.Parse(lang.NewSource("f", tt.text), tt.kind)
			var found *lang.Diagnostic
			for _, d := range diags {
				if d.Code == lang.CodeTooLarge {
					found = d
				}
			}
			if found == nil || !strings.Contains(found.Message, tt.want) {
				t.Fatalf("no LSF102 %q in %v", tt.want, diags)
			}
			if got := found.Span.StartPos().Line; got != tt.line {
				t.Errorf("LSF102 on line %d, want %d", got, tt.line)
			}
			if got := diags.Count(lang.Error); got != tt.errors {
				t.Errorf("%d errors, want %d: %v", got, tt.errors, diags)
			}
		})
	}
}

// TestHugeInputs parses inputs built to be slow for a careless parser: very
// long lines, deep nesting, many sections, many unclosed sections.
func TestHugeInputs(t *testing.T) {
	inputs := map[string]string{
		"long line":        "Begin Queue\nD = " + strings.Repeat("x", 1<<20) + "\nEnd Queue\n",
		"deep parens":      "Begin HostGroup\nG M\ng " + strings.Repeat("(", 100000) + "\nEnd HostGroup\n",
		"many sections":    strings.Repeat("Begin Queue\nQUEUE_NAME = q\nEnd Queue\n", 20000),
		"unclosed":         strings.Repeat("Begin Queue\n", 20000),
		"stray ends":       strings.Repeat("End Queue\n", 20000),
		"continued lines":  "Begin Queue\nD = " + strings.Repeat("a \\\n", 50000) + "\nEnd Queue\n",
		"many #if":         strings.Repeat("#if x\n", 5000),
		"binary-ish utf8":  strings.Repeat("\xff\xfe", 100000),
		"only backslashes": strings.Repeat("\\", 100000),
	}
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			f, diags := lang.ParseConfig(lang.NewSource("f", text), lang.KindLSBQueues)
			if f == nil {
				t.Fatal("nil file")
			}
			if len(diags) > lang.DefaultMaxDiagnostics+1 {
				t.Errorf("%d diagnostics, more than the cap", len(diags))
			}
		})
	}
}
