package api

import (
	"fmt"
	"strconv"
	"strings"
)

// ExitValues are parsed exit values of automatic job requeue
// (REQUEUE_EXIT_VALUES, bsub -Q) or of success (SUCCESS_EXIT_VALUES):
// listed codes, "all" codes but those written "~code", and the codes of
// EXCLUDE(...), which requeue the job away from the hosts it exited on.
type ExitValues struct {
	listed    map[int]bool
	all       bool
	except    map[int]bool
	exclusive map[int]bool
}

// An ExitValuesError says why exit values cannot be read and where: the
// byte offsets Start to End of the words at fault in the text read.
type ExitValuesError struct {
	Start, End int
	// ExceptWithoutAll marks a ~code given without "all", the one
	// mistake that can be told apart from a misspelled code: Start to
	// End cover the first ~code.
	ExceptWithoutAll bool
	Msg              string
}

func (e *ExitValuesError) Error() string { return e.Msg }

// ParseExitValues reads "[all] [~code ...] [code ...] [EXCLUDE(code ...)]",
// codes from 0 to 255 separated by spaces; all and ~code only when
// allowAll (requeue values, not success values), and ~code only with
// all. A value it cannot read gives an *ExitValuesError.
func ParseExitValues(s string, allowAll bool) (ExitValues, error) {
	v := ExitValues{listed: map[int]bool{}, except: map[int]bool{}, exclusive: map[int]bool{}}
	fail := func(start, end int, format string, args ...any) (ExitValues, error) {
		return ExitValues{}, &ExitValuesError{Start: start, End: end, Msg: fmt.Sprintf(format, args...)}
	}
	code := func(t string) (int, bool) {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 255 || t[0] == '+' {
			return 0, false
		}
		return n, true
	}
	exceptAt, exceptEnd := -1, -1
	for i := 0; ; {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		rest := s[i:]
		if len(rest) >= 8 && strings.EqualFold(rest[:8], "EXCLUDE(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return fail(i, len(s), "EXCLUDE( has no closing parenthesis")
			}
			inner := rest[8:end]
			if strings.TrimSpace(inner) == "" {
				return fail(i, i+end+1, "EXCLUDE() lists no exit code")
			}
			for j := 0; j < len(inner); {
				for j < len(inner) && (inner[j] == ' ' || inner[j] == '\t') {
					j++
				}
				k := j
				for k < len(inner) && inner[k] != ' ' && inner[k] != '\t' {
					k++
				}
				if t := inner[j:k]; t != "" {
					n, ok := code(t)
					if !ok {
						return fail(i+8+j, i+8+k, "%q is not an exit code from 0 to 255", t)
					}
					v.exclusive[n] = true
				}
				j = k
			}
			i += end + 1
			continue
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		t := rest[:end]
		switch {
		case allowAll && strings.EqualFold(t, "all"):
			v.all = true
		case allowAll && strings.HasPrefix(t, "~"):
			n, ok := code(t[1:])
			if !ok {
				return fail(i+1, i+end, "%q is not an exit code from 0 to 255", t[1:])
			}
			v.except[n] = true
			if exceptAt < 0 {
				exceptAt, exceptEnd = i, i+end
			}
		default:
			n, ok := code(t)
			if !ok {
				return fail(i, i+end, "%q is not an exit code from 0 to 255", t)
			}
			v.listed[n] = true
		}
		i += end
	}
	if exceptAt >= 0 && !v.all {
		return ExitValues{}, &ExitValuesError{Start: exceptAt, End: exceptEnd, ExceptWithoutAll: true,
			Msg: fmt.Sprintf("%s excludes a code from all, which is not given", s[exceptAt:exceptEnd])}
	}
	return v, nil
}

// Has reports whether code is one of the values, and whether it is one
// of EXCLUDE(...). "all" covers the codes 1 to 255: a job that exits 0
// succeeded.
func (v ExitValues) Has(code int) (in, exclusive bool) {
	switch {
	case v.exclusive[code]:
		return true, true
	case v.listed[code]:
		return true, false
	case v.all && code != 0 && !v.except[code]:
		return true, false
	}
	return false, false
}

// Empty reports whether the values name no code.
func (v ExitValues) Empty() bool {
	return len(v.listed) == 0 && len(v.exclusive) == 0 && !v.all
}
