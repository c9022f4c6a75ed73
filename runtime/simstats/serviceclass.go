package simstats

import (
	"fmt"
	"strconv"
	"strings"
)

// A ServiceClass holds the goal attainment of one time-based service class
// over a run.
type ServiceClass struct {
	Name     string `json:"name"`
	Priority int    `json:"priority"`
	// Jobs counts the jobs submitted to the class, Finished those that
	// ended.
	Jobs     int         `json:"jobs"`
	Finished int         `json:"finished"`
	Goals    []ClassGoal `json:"goals"`
}

// A ClassGoal is the attainment of one goal: the seconds it was active
// (its windows open, up to the last scheduling cycle) and of those the
// seconds it was delayed; Attainment is the share of its active time it
// was on time (1 when never active). Violations counts its control
// actions (CONTROL_ACTION).
type ClassGoal struct {
	Kind       string  `json:"kind"`
	Target     float64 `json:"target,omitempty"`
	Active     float64 `json:"active"`
	Delayed    float64 `json:"delayed"`
	Attainment float64 `json:"attainment"`
	Violations int     `json:"violations"`
}

// SummarizeClasses fills in the attainment of each goal and keeps the
// classes in the summary.
func (s *Summary) SummarizeClasses(classes []ServiceClass) {
	s.ServiceClasses = nil
	for _, c := range classes {
		for i := range c.Goals {
			g := &c.Goals[i]
			g.Attainment = 1
			if g.Active > 0 {
				g.Attainment = (g.Active - g.Delayed) / g.Active
			}
		}
		s.ServiceClasses = append(s.ServiceClasses, c)
	}
}

// writeClasses writes a table of the service classes' goals.
func writeClasses(b *strings.Builder, classes []ServiceClass) {
	if len(classes) == 0 {
		return
	}
	fmt.Fprintf(b, "\nService classes (%d)\n", len(classes))
	var rows [][]string
	for _, c := range classes {
		for i, g := range c.Goals {
			name, jobs := "", ""
			if i == 0 {
				name, jobs = c.Name, fmt.Sprintf("%d/%d", c.Finished, c.Jobs)
			}
			goal := g.Kind
			if g.Kind != "DEADLINE" {
				goal += " " + strconv.FormatFloat(g.Target, 'g', -1, 64)
			}
			rows = append(rows, []string{name, jobs, goal, fmtDur(g.Active), fmtDur(g.Delayed), fmtPct(g.Attainment),
				strconv.Itoa(g.Violations)})
		}
	}
	writeTable(b, [][]string{{"class", "finished/jobs", "goal", "active", "delayed", "on time", "violations"}}, rows)
}
