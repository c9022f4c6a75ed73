package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/api"
)

// A dependency is a job's -w condition with its job references resolved
// at submission: a job named by number must exist; a name stands for the
// submitter's jobs of that name submitted before (the most recent one
// only with JOB_DEP_LAST_SUB=1).
type dependency struct {
	root *depNode
}

// depNode is a node of a resolved condition: op is '&' or '|' over kids,
// '!' over one kid, or 't' for a test over jobs (every one of which must
// pass it).
type depNode struct {
	op   byte
	kids []*depNode
	test *lang.DepTest
	jobs []*Job
}

// resolveDependency parses and resolves a -w condition for a job of user.
func (c *Cluster) resolveDependency(text, user string) (*dependency, error) {
	cond, ds := lang.ParseDepCond(lang.NewSource("-w", text))
	if ds.HasErrors() {
		return nil, fmt.Errorf("bad dependency condition: %w", ds.Err())
	}
	var resolve func(e lang.DepExpr) (*depNode, error)
	resolve = func(e lang.DepExpr) (*depNode, error) {
		switch e := e.(type) {
		case *lang.DepLogic:
			n := &depNode{op: '&'}
			if e.Op == "||" {
				n.op = '|'
			}
			for _, t := range e.Terms {
				k, err := resolve(t)
				if err != nil {
					return nil, err
				}
				n.kids = append(n.kids, k)
			}
			return n, nil
		case *lang.DepNot:
			k, err := resolve(e.X)
			if err != nil {
				return nil, err
			}
			return &depNode{op: '!', kids: []*depNode{k}}, nil
		case *lang.DepTest:
			jobs, err := c.depJobs(e.Job, user)
			if err != nil {
				return nil, err
			}
			return &depNode{op: 't', test: e, jobs: jobs}, nil
		}
		return nil, fmt.Errorf("bad dependency condition %q", text)
	}
	root, err := resolve(cond.Expr)
	if err != nil {
		return nil, err
	}
	return &dependency{root: root}, nil
}

// depJobs finds the jobs a reference names.
func (c *Cluster) depJobs(r lang.JobRef, user string) ([]*Job, error) {
	if r.ID > 0 {
		if r.Index > 0 {
			if j := c.jobs[api.ElementID(r.ID, r.Index)]; j != nil {
				return []*Job{j}, nil
			}
			if c.arrays[r.ID] == nil {
				return nil, fmt.Errorf("dependency condition: %s: job %d is not a job array", r, r.ID)
			}
			return nil, fmt.Errorf("dependency condition: job %s is not found", api.FormatJobID(api.ElementID(r.ID, r.Index)))
		}
		if a := c.arrays[r.ID]; a != nil {
			return slices.Clone(a.Elements), nil
		}
		j := c.jobs[r.ID]
		if j == nil {
			return nil, fmt.Errorf("dependency condition: job %d is not found", r.ID)
		}
		return []*Job{j}, nil
	}
	var out []*Job
	for _, j := range c.byUser[user] {
		if r.Matches(j.Name) && (r.Index == 0 || j.Index() == r.Index) {
			out = append(out, j)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dependency condition: no job of user %s is named %q", user, r.Name)
	}
	if c.DepLastSub {
		// The last submission: a job, or every element of an array.
		last := out[len(out)-1]
		if last.array != nil {
			out = slices.DeleteFunc(out, func(j *Job) bool { return j.array != last.array })
		} else {
			out = out[len(out)-1:]
		}
	}
	return out, nil
}

// eval returns whether the condition holds now, and whether that can no
// longer change (the jobs it looks at are over).
func (n *depNode) eval() (holds, final bool) {
	switch n.op {
	case '!':
		v, f := n.kids[0].eval()
		return !v, f
	case '&':
		// && holds when every term does, and is settled by a settled
		// false term.
		holds, final = true, true
		for _, k := range n.kids {
			v, f := k.eval()
			if !v && f {
				return false, true
			}
			holds, final = holds && v, final && f
		}
		return holds, final
	case '|':
		// || holds when a term does, and is settled by a settled true
		// term.
		final = true
		for _, k := range n.kids {
			v, f := k.eval()
			if v && f {
				return true, true
			}
			holds, final = holds || v, final && f
		}
		return holds, final
	}
	if n.test.IsCount() {
		return n.count()
	}
	holds, final = true, true
	for _, j := range n.jobs {
		v, f := n.testJob(j)
		if !v && f {
			return false, true
		}
		holds = holds && v
		final = final && f
	}
	return holds, final
}

// PostRunning is Job.PostExec while a finished job's post-execution
// commands run on (JOB_INCLUDE_POSTPROC=N).
const PostRunning = "POST_RUN"

// testJob applies the node's test to one job. A finished job's
// post-processing is over once its post-execution commands have ended
// (with the job, or after it when they run on): post_done holds unless
// they failed (POST_ERR), post_err only then.
func (n *depNode) testJob(j *Job) (holds, final bool) {
	t, s := n.test, j.State
	over := s.Finished()
	switch t.Func {
	case "done":
		return s == Done, over
	case "ended":
		return over, over
	case "post_done":
		post := over && j.PostExec != PostRunning
		return post && j.PostExec != "POST_ERR", post
	case "post_err":
		post := over && j.PostExec != PostRunning
		return post && j.PostExec == "POST_ERR", post
	case "exit":
		hit := s == Exit || s == Zombie
		if hit && t.Op != "" {
			hit = compare(j.ExitCode, t.Op, t.Value)
		}
		return hit, over
	case "started":
		hit := s.Started() || over
		return hit, hit
	case "external":
		status := j.ExternalStatus
		first, _, _ := strings.Cut(status, " ")
		return status == t.Text || first == t.Text, false
	}
	return false, over
}

// count applies a num* condition: it counts the elements (of the arrays
// the node names; a job that is no array is one element) in the state
// the condition names, and compares the count, or with "*" asks that
// every element be in that state. The answer is settled once every
// element is over.
func (n *depNode) count() (holds, final bool) {
	t := n.test
	count, over := 0, 0
	for _, j := range n.jobs {
		s := j.State
		if s.Finished() {
			over++
		}
		var in bool
		switch t.Func {
		case "numdone":
			in = s == Done
		case "numended":
			in = s.Finished()
		case "numexit":
			in = s == Exit || s == Zombie
		case "numhold":
			in = s == PSusp
		case "numpend":
			in = s.Pending()
		case "numrun":
			in = s == Run
		case "numstart":
			in = s.Started()
		}
		if in {
			count++
		}
	}
	final = over == len(n.jobs)
	if t.All {
		return count == len(n.jobs), final
	}
	return compare(count, t.Op, t.Value), final
}

func compare(x int, op string, y int) bool {
	c := cmp.Compare(x, y)
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	}
	return false
}
