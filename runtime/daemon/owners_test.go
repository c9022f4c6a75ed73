package daemon

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestValidSubmitOwners checks what a submission may give as its project
// (bsub -P: up to 511 characters, on one line) and user group (bsub -G: a
// name), and that LSB_PROJECT_NAME given to a job is its project, not the
// submitter's.
func TestValidSubmitOwners(t *testing.T) {
	for _, tc := range []struct {
		project, group string
		ok             bool
	}{
		{"chem", "", true},
		{"a b", "ug1", true},
		{strings.Repeat("p", 511), "", true},
		{strings.Repeat("p", 512), "", false},
		{"a\nb", "", false},
		{"", "bad group", false},
		{"", "a/b", false},
	} {
		err := validSubmit(&api.SubmitRequest{Command: "true", Project: tc.project, UserGroup: tc.group})
		if (err == nil) != tc.ok {
			t.Errorf("project %.20q, group %q: %v, want ok %v", tc.project, tc.group, err, tc.ok)
		}
	}
	env := projectEnv([]string{"A=1", "LSB_PROJECT_NAME=mine", "B=2"}, "chem")
	if got := strings.Join(env, " "); got != "A=1 B=2 LSB_PROJECT_NAME=chem" {
		t.Errorf("projectEnv = %q", got)
	}
}
