package runtime

import "testing"

// TestDependencyEval checks each condition, and the logic joining them,
// on jobs in every state: whether it holds and whether that is settled.
func TestDependencyEval(t *testing.T) {
	c := &Cluster{jobs: map[int64]*Job{}}
	add := func(id int64, name string, s JobState, code int, status string) {
		j := &Job{ID: id, Name: name, User: "u", State: s, ExitCode: code, ExternalStatus: status}
		c.jobs[id] = j
		if name != "" {
			if c.byUser == nil {
				c.byUser = map[string][]*Job{}
			}
			c.byUser["u"] = append(c.byUser["u"], j)
		}
	}
	add(1, "a1", Done, 0, "")
	add(2, "a2", Exit, 3, "")
	add(3, "b", Pend, 0, "ready to go")
	add(4, "", Run, 0, "")
	add(5, "", PSusp, 0, "")
	tests := []struct {
		cond           string
		holds, settled bool
	}{
		{"done(1)", true, true},
		{"1", true, true},
		{"done(2)", false, true},
		{"done(3)", false, false},
		{"ended(2)", true, true},
		{"ended(4)", false, false},
		{"exit(2)", true, true},
		{"exit(2, == 3)", true, true},
		{"exit(2, > 3)", false, true},
		{"exit(1)", false, true},
		{"exit(4)", false, false},
		{"started(4)", true, true},
		{"started(1)", true, true},
		{"started(3)", false, false},
		{"post_done(2)", true, true},
		{"post_err(1)", false, true},
		{`external(3, "ready")`, true, false},
		{`external(3, "ready to go")`, true, false},
		{`external(3, "go")`, false, false},
		{"numdone(1, *)", true, true},
		{"numdone(3, == 0)", true, false},
		{"numexit(2, >= 1)", true, true},
		{"numhold(5, == 1)", true, false},
		{"numpend(5, == 1)", true, false},
		{"numrun(4, > 0)", true, false},
		{"numstart(4, == 1)", true, false},
		{"numended(4, *)", false, false},
		// Names: every job of the name, the wildcard.
		{"done(a1)", true, true},
		{`done("a*")`, false, true},
		{`ended("a*")`, true, true},
		// Logic.
		{"!done(3)", true, false},
		{"!done(2)", true, true},
		{"done(1) && done(3)", false, false},
		{"done(2) && done(3)", false, true},
		{"done(1) || done(3)", true, true},
		{"done(3) || done(2)", false, false},
		{"done(2) || exit(1)", false, true},
		{"!(done(2) || done(3))", true, false},
	}
	for _, tt := range tests {
		dep, err := c.resolveDependency(tt.cond, "u")
		if err != nil {
			t.Errorf("%s: %v", tt.cond, err)
			continue
		}
		holds, settled := dep.root.eval()
		if holds != tt.holds || settled != tt.settled {
			t.Errorf("%s = %v (settled %v), want %v (settled %v)", tt.cond, holds, settled, tt.holds, tt.settled)
		}
	}
	for cond, want := range map[string]string{
		"done(9)":       "dependency condition: job 9 is not found",
		"done(zz)":      `dependency condition: no job of user u is named "zz"`,
		"done(1[2])":    "dependency condition: 1[2]: job 1 is not a job array",
		"done(1) & x":   `bad dependency condition: -w:1:9: error: single "&" is not an operator: write "&&" [LSF405]`,
		"numdone(1, 1)": "bad dependency condition",
	} {
		_, err := c.resolveDependency(cond, "u")
		if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
			t.Errorf("%s: error %v, want %q", cond, err, want)
		}
	}
}
