package compile_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/api"
)

// TestExitValuesAgreeWithDaemon compiles REQUEUE_EXIT_VALUES and
// SUCCESS_EXIT_VALUES and checks that compile takes exactly the values the
// daemon's parser (api.ParseExitValues, also bsub -Q's) takes, and that a
// ~code without all is LSF212 whose fix gives a value both take.
func TestExitValuesAgreeWithDaemon(t *testing.T) {
	for _, v := range []string{"3", "all ~3", "~3", "1 ~2", "EXCLUDE(4) ~5", "all", "ALL ~1 EXCLUDE(9) 4",
		"256", "+3", "-1", "x", "EXCLUDE(3", "EXCLUDE()", "EXCLUDE(3 300)", "3)", `"all ~3"`, `"~3"`} {
		for _, key := range []string{"REQUEUE_EXIT_VALUES", "SUCCESS_EXIT_VALUES"} {
			p, diags := compileArchive(t, "-- lsb.queues --\nBegin Queue\nQUEUE_NAME = q\n"+key+" = "+v+"\nEnd Queue\n")
			_, err := api.ParseExitValues(strings.Trim(v, `"`), key == "REQUEUE_EXIT_VALUES")
			if got := diags.HasErrors(); got != (err != nil) {
				t.Errorf("%s = %s: compile errors %v, daemon parser error %v: %v", key, v, got, err, diags)
				continue
			}
			if err == nil {
				if p.Queues[0].Settings[key] == nil {
					t.Errorf("%s = %s: taken but not set", key, v)
				}
				continue
			}
			d := diags[0]
			if d.Span.StartPos().Line != 3 {
				t.Errorf("%s = %s: finding %v not on the value's line", key, v, d)
			}
			if !strings.Contains(v, "~") || key != "REQUEUE_EXIT_VALUES" || strings.Contains(strings.ToLower(v), "all") {
				if d.Code != compile.CodeBadValue {
					t.Errorf("%s = %s: %v, want LSF202", key, v, d)
				}
				continue
			}
			if d.Code != compile.CodeExceptWithoutAll || d.Fix == nil || len(d.Fix.Edits) != 1 {
				t.Fatalf("%s = %s: %v, want LSF212 with a fix", key, v, d)
			}
			fixed := applyEdit(d.Fix.Edits[0], "-- lsb.queues --\n")
			if _, diags := compileArchive(t, fixed); diags.HasErrors() {
				t.Errorf("%s = %s: the fixed text still has errors: %v\n%s", key, v, diags, fixed)
			}
		}
	}
}

// applyEdit returns the text of an edit's file with the edit made, as a
// txtar archive under header.
func applyEdit(e lang.Edit, header string) string {
	r := e.Span.Root()
	text := string(r.Src.Text)
	return header + text[:r.Start] + e.NewText + text[r.End:]
}
