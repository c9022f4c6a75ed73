package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/runtime/api"
)

// An Array is a job array (bsub -J "name[1-100]%N"): one submission whose
// elements are jobs of their own, each with its own state, hosts and exit
// status. An element's ID holds the array's job ID and its index (see
// api.ElementID); the array's job ID is no job's.
type Array struct {
	ID   int64
	Name string
	// Limit is the most elements that may run at once (%N); 0 for none.
	Limit int
	// Elements are the elements the cluster still holds, in index order.
	Elements []*Job
	// Spec is the index list as submitted, End its largest index and Step
	// its first range's step (LSB_JOBINDEX_END, LSB_JOBINDEX_STEP).
	Spec      string
	End, Step int
	// spec is SpecString's answer, made when the limit changes.
	spec string
}

// Index returns the job's index in its array, 0 for a job that is no
// array's element.
func (j *Job) Index() int {
	_, i := api.SplitID(j.ID)
	return i
}

// JobID returns the job ID LSF shows for the job: an element's is its
// array's.
func (j *Job) JobID() int64 {
	id, _ := api.SplitID(j.ID)
	return id
}

// Array returns the array the job is an element of, or nil.
func (j *Job) Array() *Array { return j.array }

// SpecString returns the array's -J value: name[list], with %N when it
// has a running limit.
func (a *Array) SpecString() string {
	if a.spec == "" {
		a.spec = a.Name + "[" + a.Spec + "]"
		if a.Limit > 0 {
			a.spec += "%" + strconv.Itoa(a.Limit)
		}
	}
	return a.spec
}

// Label returns the job's ID as LSF prints it: 42, or 42[7].
func (j *Job) Label() string { return api.FormatJobID(j.ID) }

// Array returns the array whose job ID is id, or nil.
func (c *Cluster) Array(id int64) *Array { return c.arrays[id] }

// Arrays returns every array the cluster holds, in ID order.
func (c *Cluster) Arrays() []*Array {
	out := make([]*Array, 0, len(c.arrays))
	for _, a := range c.arrays {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *Array) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// MaxArrayElements is the most elements lsfc makes of one array, whatever
// MAX_JOB_ARRAY_SIZE allows: each element is a job.
const MaxArrayElements = 1_000_000

// ArraySizeLimit returns MAX_JOB_ARRAY_SIZE: the largest index, and the
// most elements, of an array.
func (c *Cluster) ArraySizeLimit() int {
	if n := c.Policy.Parameters.MaxJobArraySize; n > 0 {
		return n
	}
	return api.DefaultMaxArraySize
}

// CheckArraySpec reads an array's -J value against MAX_JOB_ARRAY_SIZE:
// the spec, or api.ErrBadJobName or api.ErrIndexTooLarge wrapped.
func (c *Cluster) CheckArraySpec(name string) (api.ArraySpec, error) {
	limit := c.ArraySizeLimit()
	spec, err := api.ParseArraySpec(name, limit)
	if err != nil {
		return spec, err
	}
	n := 0
	for _, r := range spec.Ranges {
		n += r.Count()
	}
	if n > limit || n > MaxArrayElements {
		return api.ArraySpec{}, fmt.Errorf("%w: %d elements, more than MAX_JOB_ARRAY_SIZE (%d) allows",
			api.ErrIndexTooLarge, n, min(limit, MaxArrayElements))
	}
	return spec, nil
}

// SubmitArray checks a submission as Submit does and, when a queue
// accepts it, adds one pending job per index of spec, in index order: an
// array of the job ID the next job would get. s.Name, s.Array and
// s.ArrayLimit are set from spec.
func (c *Cluster) SubmitArray(s Submission, spec api.ArraySpec, now Time) (*Array, error) {
	if !spec.IsArray() {
		return nil, fmt.Errorf("%q is not a job array", spec.Name)
	}
	s.Name, s.Array, s.ArrayLimit = spec.Name, spec.IndexList(), spec.Limit
	first, err := c.Submit(s, now)
	if err != nil {
		return nil, err
	}
	return c.expandArray(first, spec.Indices()), nil
}

// expandArray makes the elements of the array whose first job, first, is
// in the cluster under the array's plain job ID: that job becomes the
// first element, and the others are copies of it, one per index, each
// ordered after the one before.
func (c *Cluster) expandArray(first *Job, indices []int) *Array {
	id := first.ID
	delete(c.jobs, id)
	c.dequeue(first)
	a := c.arrayOf(id, first.Sub)
	a.Elements = make([]*Job, 0, len(indices))
	for k, idx := range indices {
		j := first
		if k > 0 {
			j = &Job{}
			*j = *first
			j.Seq = first.Seq + float64(k)
			j.reqUsed = nil
			j.ordered = false
			c.useRequirement(j)
			if c.byUser != nil && j.Name != "" {
				c.byUser[j.User] = append(c.byUser[j.User], j)
			}
		}
		j.ID = api.ElementID(id, idx)
		j.array = a
		c.putJob(j)
		a.Elements = append(a.Elements, j)
		if k > 0 {
			// The first is attached to its service class, and counted
			// in its job group, already.
			c.attachSLA(j)
			if j.jgroup != nil && !j.State.Finished() {
				j.jgroup.live++
			}
		}
		c.enqueue(j)
	}
	c.nextSeq = max(c.nextSeq, first.Seq+float64(len(indices)))
	c.nextID = max(c.nextID, id+1)
	return a
}

// arrayOf returns the array of job ID id, made from a submission when
// the cluster does not hold it yet.
func (c *Cluster) arrayOf(id int64, s Submission) *Array {
	if a := c.arrays[id]; a != nil {
		return a
	}
	if c.arrays == nil {
		c.arrays = map[int64]*Array{}
	}
	a := &Array{ID: id, Name: s.Name, Limit: s.ArrayLimit, Spec: s.Array, Step: 1}
	if spec, err := api.ParseArraySpec(s.Name+"["+s.Array+"]", api.MaxArrayIndex); err == nil {
		a.End, a.Step = spec.End(), spec.Step()
	}
	c.arrays[id] = a
	return a
}

// RestoreArray replays an array's submission: im is the array's image
// (its ID the array's job ID, its Sub.Array the index list), from which
// one pending element per index is made, as SubmitArray made them.
func (c *Cluster) RestoreArray(im JobImage) (*Array, string, error) {
	if c.arrays[im.ID] != nil {
		return nil, "", fmt.Errorf("job array %d is restored twice", im.ID)
	}
	spec, err := api.ParseArraySpec(im.Sub.Name+"["+im.Sub.Array+"]", api.MaxArrayIndex)
	if err != nil || !spec.IsArray() {
		return nil, "", fmt.Errorf("job array %d: bad index list %q", im.ID, im.Sub.Array)
	}
	n := 0
	for _, r := range spec.Ranges {
		if n += r.Count(); n > MaxArrayElements {
			return nil, "", fmt.Errorf("job array %d: more than %d elements", im.ID, MaxArrayElements)
		}
	}
	if im.ID <= 0 || im.ID > 1<<32-1 {
		return nil, "", fmt.Errorf("job array %d: the job ID is out of range", im.ID)
	}
	first, warn, err := c.Restore(im)
	if err != nil {
		return nil, warn, err
	}
	return c.expandArray(first, spec.Indices()), warn, nil
}

// joinArray links a restored element to its array.
func (c *Cluster) joinArray(j *Job) {
	id, idx := api.SplitID(j.ID)
	if idx == 0 {
		return
	}
	a := c.arrayOf(id, j.Sub)
	j.array = a
	// Snapshots list elements in index order: appending keeps the order.
	if n := len(a.Elements); n > 0 && a.Elements[n-1].Index() > idx {
		pos := 0
		for pos < n && a.Elements[pos].Index() < idx {
			pos++
		}
		a.Elements = append(a.Elements[:pos], append([]*Job{j}, a.Elements[pos:]...)...)
		return
	}
	a.Elements = append(a.Elements, j)
}

// leaveArray drops a forgotten element from its array, and the array
// once it has none.
func (c *Cluster) leaveArray(j *Job) {
	a := j.array
	if a == nil {
		return
	}
	for i, e := range a.Elements {
		if e == j {
			a.Elements = append(a.Elements[:i], a.Elements[i+1:]...)
			break
		}
	}
	if len(a.Elements) == 0 {
		delete(c.arrays, a.ID)
	}
}

// SetArrayLimit changes the most elements of an array that may run at
// once (bmod -J "%N"); 0 removes the limit. Elements already running go
// on running.
func (c *Cluster) SetArrayLimit(a *Array, n int) error {
	if n < 0 {
		return fmt.Errorf("job array %d: the running limit %d is negative", a.ID, n)
	}
	a.Limit, a.spec = n, ""
	for _, j := range a.Elements {
		j.Sub.ArrayLimit = n
	}
	return nil
}

// ArrayCounts are the elements of an array by state, as bjobs -A counts
// them.
type ArrayCounts struct {
	Total, Pend, Done, Run, Exit, SSusp, USusp, PSusp int
}

// Counts counts the array's elements by state.
func (a *Array) Counts() ArrayCounts {
	var n ArrayCounts
	for _, j := range a.Elements {
		n.Total++
		switch j.State {
		case Pend:
			n.Pend++
		case PSusp:
			n.PSusp++
		case Run, Unknown:
			n.Run++
		case SSusp:
			n.SSusp++
		case USusp:
			n.USusp++
		case Done:
			n.Done++
		case Exit, Zombie:
			n.Exit++
		}
	}
	return n
}

// started counts the array's elements that hold hosts.
func (a *Array) started() int {
	n := 0
	for _, j := range a.Elements {
		if j.State.Started() {
			n++
		}
	}
	return n
}
