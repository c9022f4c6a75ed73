package lint

import (
	"testing"

	"github.com/lsfc/lsfc/lang"
)

func TestFixes(t *testing.T) {
	src := lang.NewSource("lsb.queues", "Begin Queue\nPRIOTIRY = 30\nNICEE = 5\nEnd Queues\n")
	var ds lang.Diagnostics
	ds.Add(lang.Warning, "LSF201", src.SpanOf(12, 20), "key").SuggestSafe("k", src.SpanOf(12, 20), "PRIORITY")
	ds.Add(lang.Warning, "LSF201", src.SpanOf(26, 31), "key").SuggestSafe("k", src.SpanOf(26, 31), "NICE")
	// Overlaps the first fix: left out.
	ds.Add(lang.Warning, "LSF201", src.SpanOf(14, 18), "key").SuggestSafe("k", src.SpanOf(14, 18), "XX")
	// Not safe: never applied.
	ds.Add(lang.Error, "LSF306", src.SpanOf(36, 42), "end").Suggest("k", src.SpanOf(36, 42), "Queue")
	fixes := Fixes(ds)
	if len(fixes) != 1 {
		t.Fatalf("got %d files", len(fixes))
	}
	f := fixes[0]
	if got, want := string(f.Text), "Begin Queue\nPRIORITY = 30\nNICE = 5\nEnd Queues\n"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if len(f.Fixed) != 2 {
		t.Errorf("fixed %d findings, want 2", len(f.Fixed))
	}
}
