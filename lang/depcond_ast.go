package lang

import (
	"strconv"
	"strings"
)

// A DepCond is a job dependency expression, the argument of bsub -w: a
// logical expression over the states of other jobs.
type DepCond struct {
	Expr DepExpr
}

// A DepExpr is a node of a dependency expression: *DepLogic, *DepNot or
// *DepTest.
type DepExpr interface {
	depSpan() Span
}

// DepSpan returns the source span of a dependency expression node.
func DepSpan(e DepExpr) Span { return e.depSpan() }

// A DepLogic joins two or more conditions with && or ||. No term is
// itself a DepLogic of the same operator: brackets that only group terms
// of one operator are merged away.
type DepLogic struct {
	Op    string // "&&" or "||"
	Terms []DepExpr
	Span  Span
}

// A DepNot negates a condition (!).
type DepNot struct {
	X    DepExpr
	Span Span
}

// A DepTest is one condition on a job: done(job), exit(job, > 2),
// numdone(job, *), or a bare job reference (which tests done).
type DepTest struct {
	// Func is the condition's name in lower case: done, ended, exit,
	// started, post_done, post_err, external, numdone, numended, numexit,
	// numhold, numpend, numrun or numstart.
	Func string
	// Bare is set for a reference without a condition ("123" for
	// "done(123)").
	Bare bool
	Job  JobRef
	// Op and Value compare the exit code (exit) or the number of elements
	// (num*); Op is "" when the test gives none. All is set by "*" in
	// num* conditions: every element.
	Op    string
	Value int
	All   bool
	// Text is the status text of external().
	Text string
	Span Span
}

// A JobRef names the jobs a condition looks at: by number (with an
// optional array index) or by name, which may end with the wildcard "*".
type JobRef struct {
	ID    int64 // 0 when the job is named
	Name  string
	Index int // the array element, 0 for the whole job
	Span  Span
}

func (e *DepLogic) depSpan() Span { return e.Span }
func (e *DepNot) depSpan() Span   { return e.Span }
func (e *DepTest) depSpan() Span  { return e.Span }

// DepFuncs are the conditions of the dependency language, in the order
// the documentation lists them.
func DepFuncs() []string {
	return []string{"done", "ended", "exit", "external", "numdone", "numended", "numexit", "numhold",
		"numpend", "numrun", "numstart", "post_done", "post_err", "started"}
}

// IsCount reports whether a condition counts array elements (num*).
func (t *DepTest) IsCount() bool { return strings.HasPrefix(t.Func, "num") }

// Matches reports whether a job name matches the reference's name: equal,
// or starting with the part before a final "*".
func (r JobRef) Matches(name string) bool {
	if prefix, ok := strings.CutSuffix(r.Name, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return name == r.Name
}

// String prints the condition in canonical form: conditions with their
// arguments, job names quoted, single blanks around && and ||, and
// parentheses only where the precedence needs them. Parsing the result
// gives the same tree.
func (d *DepCond) String() string {
	var b strings.Builder
	printDep(&b, d.Expr, 0)
	return b.String()
}

// printDep writes e; prec is the binding of the context: 0 top, 1 inside
// ||, 2 inside &&, 3 under !.
func printDep(b *strings.Builder, e DepExpr, prec int) {
	switch e := e.(type) {
	case *DepLogic:
		own := 1
		if e.Op == "&&" {
			own = 2
		}
		if prec > own {
			b.WriteByte('(')
		}
		for i, t := range e.Terms {
			if i > 0 {
				b.WriteString(" " + e.Op + " ")
			}
			printDep(b, t, own)
		}
		if prec > own {
			b.WriteByte(')')
		}
	case *DepNot:
		b.WriteByte('!')
		printDep(b, e.X, 3)
	case *DepTest:
		b.WriteString(e.Func)
		b.WriteByte('(')
		b.WriteString(e.Job.String())
		switch {
		case e.Func == "external":
			b.WriteString(", " + depQuote(e.Text))
		case e.All:
			b.WriteString(", *")
		case e.Op != "":
			b.WriteString(", " + e.Op + " " + strconv.Itoa(e.Value))
		}
		b.WriteByte(')')
	}
}

// String prints the reference: the number, or the name in double quotes,
// with the array index.
func (r JobRef) String() string {
	s := depQuote(r.Name)
	if r.ID > 0 {
		s = strconv.FormatInt(r.ID, 10)
	}
	if r.Index > 0 {
		s += "[" + strconv.Itoa(r.Index) + "]"
	}
	return s
}

// depQuote quotes a name or text in double quotes, or in single quotes
// when it holds a double quote (the language has no escapes).
func depQuote(s string) string {
	if strings.Contains(s, `"`) {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}
