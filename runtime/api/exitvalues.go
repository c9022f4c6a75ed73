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

// ParseExitValues reads "[all] [~code ...] [code ...] [EXCLUDE(code ...)]",
// codes from 0 to 255 separated by spaces; all and ~code only when
// allowAll (requeue values, not success values).
func ParseExitValues(s string, allowAll bool) (ExitValues, error) {
	v := ExitValues{listed: map[int]bool{}, except: map[int]bool{}, exclusive: map[int]bool{}}
	code := func(t string) (int, error) {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 255 || t[0] == '+' {
			return 0, fmt.Errorf("%q is not an exit code from 0 to 255", t)
		}
		return n, nil
	}
	rest := s
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		if len(rest) >= 8 && strings.EqualFold(rest[:8], "EXCLUDE(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return ExitValues{}, fmt.Errorf("EXCLUDE( has no closing parenthesis")
			}
			inner := strings.Fields(rest[8:end])
			if len(inner) == 0 {
				return ExitValues{}, fmt.Errorf("EXCLUDE() lists no exit code")
			}
			for _, t := range inner {
				n, err := code(t)
				if err != nil {
					return ExitValues{}, err
				}
				v.exclusive[n] = true
			}
			rest = rest[end+1:]
			continue
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		t := rest[:end]
		rest = rest[end:]
		switch {
		case allowAll && strings.EqualFold(t, "all"):
			v.all = true
		case allowAll && strings.HasPrefix(t, "~"):
			n, err := code(t[1:])
			if err != nil {
				return ExitValues{}, err
			}
			v.except[n] = true
		default:
			n, err := code(t)
			if err != nil {
				return ExitValues{}, err
			}
			v.listed[n] = true
		}
	}
	if len(v.except) > 0 && !v.all {
		return ExitValues{}, fmt.Errorf("~code excludes a code from all, which is not given")
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
