package api

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A job array's elements share the array's job ID and are told apart by
// their index. Inside lsfc an element has an ID of its own, made as LSF's
// API makes it: the index in the high 32 bits, the array's job ID in the
// low ones. A job that is no array has index 0, and its ID is its job ID.
const (
	// indexShift is where the index starts in an element's ID.
	indexShift = 32
	// jobIDMask keeps the job ID of an element's ID.
	jobIDMask = 1<<indexShift - 1
)

// DefaultMaxArraySize is MAX_JOB_ARRAY_SIZE when lsb.params does not set
// it: the largest index an array may have.
const DefaultMaxArraySize = 1000

// MaxArrayIndex is the largest index MAX_JOB_ARRAY_SIZE may allow.
const MaxArrayIndex = 2147483646

// ElementID returns the ID of element index of array job id; index 0
// gives id itself.
func ElementID(id int64, index int) int64 { return int64(index)<<indexShift | id&jobIDMask }

// SplitID returns the job ID and the array index (0 for a job that is no
// array) of an ID made by ElementID.
func SplitID(id int64) (job int64, index int) { return id & jobIDMask, int(id >> indexShift) }

// FormatJobID writes an ID as LSF's commands print it: 42, or 42[7] for
// an element of an array.
func FormatJobID(id int64) string {
	job, index := SplitID(id)
	if index == 0 {
		return strconv.FormatInt(job, 10)
	}
	return strconv.FormatInt(job, 10) + "[" + strconv.Itoa(index) + "]"
}

// An IndexRange is one item of an array's index list: Start to End by
// Step (a single index has Start == End and Step 1).
type IndexRange struct {
	Start, End, Step int
}

// Count returns the number of indices the range holds.
func (r IndexRange) Count() int { return (r.End-r.Start)/r.Step + 1 }

func (r IndexRange) String() string {
	switch {
	case r.Start == r.End:
		return strconv.Itoa(r.Start)
	case r.Step == 1:
		return fmt.Sprintf("%d-%d", r.Start, r.End)
	}
	return fmt.Sprintf("%d-%d:%d", r.Start, r.End, r.Step)
}

// An ArraySpec is a job name as bsub -J reads it: Name, and for a job
// array its index list and the most elements that may run at once (%N,
// 0 for no limit). Ranges is empty for a job that is no array.
type ArraySpec struct {
	Name   string
	Ranges []IndexRange
	Limit  int
}

// IsArray reports whether the spec makes a job array.
func (s ArraySpec) IsArray() bool { return len(s.Ranges) > 0 }

// IndexList returns the index list as written back: "1-10:2,20".
func (s ArraySpec) IndexList() string {
	parts := make([]string, len(s.Ranges))
	for i, r := range s.Ranges {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// String writes the spec back as -J takes it: name[list]%limit.
func (s ArraySpec) String() string {
	if !s.IsArray() {
		return s.Name
	}
	out := s.Name + "[" + s.IndexList() + "]"
	if s.Limit > 0 {
		out += "%" + strconv.Itoa(s.Limit)
	}
	return out
}

// Indices returns every index of the array, in increasing order, each
// once.
func (s ArraySpec) Indices() []int {
	n := 0
	for _, r := range s.Ranges {
		n += r.Count()
	}
	out := make([]int, 0, n)
	for _, r := range s.Ranges {
		for i := r.Start; i <= r.End; i += r.Step {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// End returns the largest index (LSB_JOBINDEX_END), and Step the step of
// the index list (LSB_JOBINDEX_STEP): the first range's, 1 when it has
// none.
func (s ArraySpec) End() int {
	end := 0
	for _, r := range s.Ranges {
		end = max(end, r.Start+(r.Count()-1)*r.Step)
	}
	return end
}

// Step returns the step of the array's first range.
func (s ArraySpec) Step() int {
	if len(s.Ranges) == 0 {
		return 1
	}
	return s.Ranges[0].Step
}

// The errors of a bad -J, in bsub's words; bsub prints them followed by
// ". Job not submitted.".
var (
	// ErrBadJobName is a job name or index list of the wrong form.
	//lint:ignore ST1005 LSF's own words, which bsub prints
	ErrBadJobName = errors.New("Bad job name")
	// ErrIndexTooLarge is an index past MAX_JOB_ARRAY_SIZE.
	ErrIndexTooLarge = errors.New("Job array index too large")
)

// maxSpecLen is the longest array specification LSF takes; maxNameLen
// the longest job name.
const (
	maxSpecLen = 255
	maxNameLen = 4094
)

// ParseArraySpec reads a -J value. A name without "[" is a plain job
// name (any text up to 4094 characters but a newline). Otherwise it is
// name[list]%N: a name of letters, digits, ".", "-" and "_"; a list of
// start[-end[:step]] items joined by commas, each number a positive
// integer, end not below start, no index past maxIndex (the array's
// MAX_JOB_ARRAY_SIZE); and an optional positive running limit. A bad
// form is ErrBadJobName, an index too large ErrIndexTooLarge, both
// wrapped with what is wrong.
func ParseArraySpec(s string, maxIndex int) (ArraySpec, error) {
	bad := func(format string, args ...any) (ArraySpec, error) {
		return ArraySpec{}, fmt.Errorf("%w: %s", ErrBadJobName, fmt.Sprintf(format, args...))
	}
	open := strings.IndexByte(s, '[')
	if open < 0 {
		switch {
		case len(s) > maxNameLen:
			return bad("the name is longer than %d characters", maxNameLen)
		case strings.ContainsAny(s, "\n\x00]"):
			return bad("%q holds a character a job name cannot hold", s)
		}
		return ArraySpec{Name: s}, nil
	}
	if len(s) > maxSpecLen {
		return bad("the array specification is longer than %d characters", maxSpecLen)
	}
	name := s[:open]
	if name == "" {
		return bad("%q: the array has no name", s)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return bad("%q: an array name holds letters, digits, '.', '-' and '_' only", name)
		}
	}
	rest := s[open+1:]
	close := strings.IndexByte(rest, ']')
	if close < 0 {
		return bad("%q: the index list has no closing ']'", s)
	}
	list, tail := rest[:close], rest[close+1:]
	spec := ArraySpec{Name: name}
	if tail != "" {
		limit, ok := strings.CutPrefix(tail, "%")
		n, err := strconv.Atoi(limit)
		if !ok || err != nil || n <= 0 || !allDigits(limit) {
			return bad("%q: after ']' only %%N, a positive running limit, may follow", s)
		}
		spec.Limit = n
	}
	if strings.TrimSpace(list) == "" {
		return bad("%q: the index list is empty", s)
	}
	for _, item := range strings.Split(list, ",") {
		r, err := parseIndexRange(strings.TrimSpace(item), maxIndex)
		if err != nil {
			return ArraySpec{}, err
		}
		spec.Ranges = append(spec.Ranges, r)
	}
	return spec, nil
}

// parseIndexRange reads one start[-end[:step]] item.
func parseIndexRange(item string, maxIndex int) (IndexRange, error) {
	bad := func(format string, args ...any) (IndexRange, error) {
		return IndexRange{}, fmt.Errorf("%w: %s", ErrBadJobName, fmt.Sprintf(format, args...))
	}
	num := func(s, what string) (int, error) {
		if !allDigits(s) {
			_, err := bad("%q: the %s is not a positive integer", item, what)
			return 0, err
		}
		n, err := strconv.Atoi(s)
		if err != nil || n > maxIndex {
			return 0, fmt.Errorf("%w: %q: an index is past MAX_JOB_ARRAY_SIZE (%d)", ErrIndexTooLarge, item, maxIndex)
		}
		if n == 0 {
			_, err := bad("%q: the %s is not a positive integer", item, what)
			return 0, err
		}
		return n, nil
	}
	startText, rest, ranged := strings.Cut(item, "-")
	start, err := num(startText, "start")
	if err != nil {
		return IndexRange{}, err
	}
	r := IndexRange{Start: start, End: start, Step: 1}
	if !ranged {
		return r, nil
	}
	endText, stepText, stepped := strings.Cut(rest, ":")
	if r.End, err = num(endText, "end"); err != nil {
		return IndexRange{}, err
	}
	if stepped {
		if !allDigits(stepText) {
			return bad("%q: the step is not a positive integer", item)
		}
		step, err := strconv.Atoi(stepText)
		if err != nil || step <= 0 {
			return bad("%q: the step is not a positive integer", item)
		}
		r.Step = step
	}
	if r.End < r.Start {
		return bad("%q: the end is below the start", item)
	}
	return r, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ParseJobIDList reads a job operand of bjobs, bkill and the other
// commands: 42 (the job, or every element of array 42), 42[3], or
// 42[1-10:2,15]. It returns the job ID and, for an element list, the
// indices; nil indices stand for the whole job. A malformed operand is
// LSF's "Illegal job ID." error.
func ParseJobIDList(s string) (job int64, indices []int, err error) {
	//lint:ignore ST1005 LSF's own message, word for word
	illegal := fmt.Errorf("%s: Illegal job ID.", s)
	idText, list, isList := strings.Cut(s, "[")
	if !allDigits(idText) {
		return 0, nil, illegal
	}
	job, perr := strconv.ParseInt(idText, 10, 64)
	if perr != nil || job <= 0 || job > jobIDMask {
		return 0, nil, illegal
	}
	if !isList {
		return job, nil, nil
	}
	list, ok := strings.CutSuffix(list, "]")
	if !ok || list == "" || len(s) > maxSpecLen {
		return 0, nil, illegal
	}
	spec := ArraySpec{}
	for _, item := range strings.Split(list, ",") {
		r, err := parseIndexRange(item, MaxArrayIndex)
		if err != nil {
			return 0, nil, illegal
		}
		spec.Ranges = append(spec.Ranges, r)
	}
	n := 0
	for _, r := range spec.Ranges {
		n += r.Count()
		if n > 1_000_000 {
			return 0, nil, illegal
		}
	}
	return job, spec.Indices(), nil
}

// ArraySpecMessage returns what bsub prints for a -J value that
// ParseArraySpec (or the daemon) refused: what is wrong, then LSF's
// words ("Bad job name. Job not submitted.").
func ArraySpecMessage(value string, err error) string {
	base := ErrBadJobName
	if errors.Is(err, ErrIndexTooLarge) {
		base = ErrIndexTooLarge
	}
	detail := strings.TrimPrefix(err.Error(), base.Error()+": ")
	return fmt.Sprintf("-J %q: %s\n%s. Job not submitted.", value, detail, base)
}
