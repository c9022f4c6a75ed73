package lint

import (
	"testing"

	"github.com/lsfc/lsfc/lang"
)

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"lsb.queues", "lsbatch/x/configdir/lsb.queues", true},
		{"lsb.*", "conf/lsb.hosts", true},
		{"**/lsb.queues", "lsb.queues", true},
		{"**/lsb.queues", "a/b/c/lsb.queues", true},
		{"lsbatch/*/configdir/lsb.queues", "lsbatch/east/configdir/lsb.queues", true},
		{"lsbatch/*/configdir/lsb.queues", "lsbatch/east/lsb.queues", false},
		{"conf/**", "conf/a/b", true},
		{"conf/**", "other/a", false},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
	} {
		if got := matchPattern(c.pattern, c.name); got != c.want {
			t.Errorf("matchPattern(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestParseConfig(t *testing.T) {
	cfg, diags := ParseConfig(lang.NewSource(".lsfc.yaml", `rules:
  LSF201: error
  lsf504: off
  LSF503: false
paths:
  - path: "conf/*.queues"
    rules:
      LSF509: warning
`))
	if len(diags) != 0 {
		t.Fatalf("unexpected: %v", diags)
	}
	if cfg.Rules["LSF201"].Severity != lang.Error || !cfg.Rules["LSF504"].Off || !cfg.Rules["LSF503"].Off {
		t.Errorf("rules %+v", cfg.Rules)
	}
	if len(cfg.Paths) != 1 || cfg.Paths[0].Pattern != "conf/*.queues" || cfg.Paths[0].Rules["LSF509"].Severity != lang.Warning {
		t.Errorf("paths %+v", cfg.Paths)
	}
	if !cfg.offEverywhere("LSF504") || cfg.offEverywhere("LSF201") {
		t.Error("offEverywhere")
	}
	for _, bad := range []string{"rules: [1, 2]\n", "paths:\n  - rules: {}\n", "colour: red\n", "rules:\n  LSF201: loud\n", ": : :\n"} {
		if _, diags := ParseConfig(lang.NewSource(".lsfc.yaml", bad)); len(diags) == 0 {
			t.Errorf("%q: no diagnostic", bad)
		}
	}
	if cfg, diags := ParseConfig(lang.NewSource(".lsfc.yaml", "")); len(diags) != 0 || len(cfg.Rules) != 0 {
		t.Errorf("empty file: %v %v", cfg, diags)
	}
}
