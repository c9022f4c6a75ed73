package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/compile/units"
)

// parseJobTime reads the time of bsub -b and -t, [[year:][month:]day:]hour:minute,
// in the local time zone, as LSF reads it: two fields are hour:minute,
// three day:hour:minute, four month:day:hour:minute, five
// year:month:day:hour:minute. A time whose year is not given is the
// next one to come that matches the fields given (hour:minute already past
// today is tomorrow's); one with its year is the time written, past or
// not. The error is LSF's "Bad time specification" with what is wrong.
func parseJobTime(opt, s string, now time.Time) (time.Time, error) {
	return parseTimeSpec(opt, s, now, ". Job not submitted")
}

// parseTimeSpec reads [[year:][month:]day:]hour:minute as parseJobTime
// does (brsvadd -b and -e read it so too); tail ends the error's text.
func parseTimeSpec(opt, s string, now time.Time, tail string) (time.Time, error) {
	bad := func(why string) error {
		return fmt.Errorf("%s %s: Bad time specification (%s)%s", opt, strconv.Quote(s), why, tail)
	}
	fields := strings.Split(strings.TrimSpace(s), ":")
	if len(fields) < 2 || len(fields) > 5 {
		return time.Time{}, bad("want [[year:][month:]day:]hour:minute")
	}
	nums := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || f == "" || f[0] == '+' || f[0] == '-' || len(f) > 4 {
			return time.Time{}, bad(fmt.Sprintf("%q is not a number", f))
		}
		nums[i] = n
	}
	// From the right: minute, hour, day, month, year.
	get := func(k int) (int, bool) {
		if i := len(nums) - 1 - k; i >= 0 {
			return nums[i], true
		}
		return 0, false
	}
	minute, _ := get(0)
	hour, _ := get(1)
	day, hasDay := get(2)
	month, hasMonth := get(3)
	year, hasYear := get(4)
	switch {
	case minute > 59:
		return time.Time{}, bad("minute must be 0-59")
	case hour > 23:
		return time.Time{}, bad("hour must be 0-23")
	case hasDay && (day < 1 || day > 31):
		return time.Time{}, bad("day must be 1-31")
	case hasMonth && (month < 1 || month > 12):
		return time.Time{}, bad("month must be 1-12")
	case hasYear && year <= 1970:
		return time.Time{}, bad("year must be after 1970")
	}
	loc := now.Location()
	if !hasMonth {
		month = int(now.Month())
	}
	if !hasDay {
		day = now.Day()
	}
	if !hasYear {
		year = now.Year()
	}
	at := func(y, m int) (time.Time, bool) {
		t := time.Date(y, time.Month(m), day, hour, minute, 0, 0, loc)
		// A day past the end of its month (31 in April) is no date.
		return t, t.Day() == day
	}
	if hasYear {
		t, ok := at(year, month)
		if !ok {
			return time.Time{}, bad(fmt.Sprintf("month %d has no day %d", month, day))
		}
		return t, nil
	}
	// The next time to come that has the fields given: up to a day, a
	// month or a year on (four years for the 29th of February).
	for step := 0; step < 4*12+1; step++ {
		var t time.Time
		var ok bool
		switch {
		case !hasDay:
			t = time.Date(year, time.Month(month), now.Day()+step, hour, minute, 0, 0, loc)
			ok = true
		case !hasMonth:
			t, ok = at(year, month+step)
		default:
			t, ok = at(year+step, month)
		}
		if ok && !t.Before(now.Truncate(time.Minute)) {
			return t, nil
		}
	}
	return time.Time{}, bad(fmt.Sprintf("no month has day %d", day))
}

// A cpuLimit is bsub -c: minutes of CPU time, normalised to the CPU factor
// of a host or host model when one is named.
type cpuLimit struct {
	seconds float64
	spec    string // the host name or model after "/", "" for none
}

// parseCPULimit reads bsub -c [hour:]minute[/host_name|/host_model].
func parseCPULimit(s string) (cpuLimit, error) {
	bad := func(why string) error {
		return fmt.Errorf("-c %s: Bad CPU limit specification (%s). Job not submitted", strconv.Quote(s), why)
	}
	t, spec, hasSpec := strings.Cut(strings.TrimSpace(s), "/")
	if hasSpec && (spec == "" || strings.ContainsAny(spec, " \t/")) {
		return cpuLimit{}, bad("want a host name or host model after /")
	}
	h, m, hasHours := strings.Cut(t, ":")
	if !hasHours {
		h, m = "0", t
	}
	digits := func(x string) bool {
		return x != "" && len(x) <= 9 && strings.Trim(x, "0123456789") == ""
	}
	if !digits(h) || !digits(m) {
		return cpuLimit{}, bad("want [hour:]minute")
	}
	hours, _ := strconv.Atoi(h)
	mins, _ := strconv.Atoi(m)
	if hasHours && mins > 59 {
		return cpuLimit{}, bad("minute must be 0-59")
	}
	if hours*60+mins == 0 {
		return cpuLimit{}, bad("the limit must be more than zero")
	}
	return cpuLimit{seconds: float64(hours*60+mins) * 60, spec: spec}, nil
}

// An envSpec is bsub -env: which variables of the submission environment
// the job gets.
type envSpec struct {
	// all is "all": every variable, but for those in drop; otherwise only
	// those in keep (none for "none").
	all  bool
	none bool
	drop map[string]bool
	keep []string
	// set are the VAR=value assignments, in order.
	set [][2]string
}

// parseEnvSpec reads bsub -env: "all" or "none", or "all" followed by
// "~VAR" exclusions and "VAR=value" settings, or a list of "VAR" (its
// value at submission) and "VAR=value", separated by commas. A value may
// be quoted with ' or " to hold a comma.
func parseEnvSpec(s string) (envSpec, error) {
	bad := func(why string) error {
		return fmt.Errorf("-env %s: %s. Job not submitted", strconv.Quote(s), why)
	}
	items, err := splitEnvItems(s)
	if err != nil {
		return envSpec{}, bad(err.Error())
	}
	var e envSpec
	for i, it := range items {
		switch {
		case it == "":
			return envSpec{}, bad("empty variable")
		case strings.EqualFold(it, "none"):
			if len(items) > 1 {
				return envSpec{}, bad(`"none" must be given alone`)
			}
			e.none = true
		case strings.EqualFold(it, "all"):
			if i != 0 {
				return envSpec{}, bad(`"all" must come first`)
			}
			e.all = true
		case it[0] == '~':
			if !e.all {
				return envSpec{}, bad(`"~` + it[1:] + `" excludes a variable only after "all"`)
			}
			if !validEnvName(it[1:]) {
				return envSpec{}, bad(fmt.Sprintf("%q is not a variable name", it[1:]))
			}
			if e.drop == nil {
				e.drop = map[string]bool{}
			}
			e.drop[it[1:]] = true
		default:
			name, value, hasValue := strings.Cut(it, "=")
			if !validEnvName(name) {
				return envSpec{}, bad(fmt.Sprintf("%q is not a variable name", name))
			}
			if hasValue {
				e.set = append(e.set, [2]string{name, unquoteEnvValue(value)})
			} else if e.all {
				return envSpec{}, bad(fmt.Sprintf("%q after \"all\" needs a value (%s=value)", name, name))
			} else {
				e.keep = append(e.keep, name)
			}
		}
	}
	return e, nil
}

// splitEnvItems splits an -env value at the commas outside quotes,
// trimming each item's blanks.
func splitEnvItems(s string) ([]string, error) {
	var items []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
			cur.WriteByte(c)
		case c == ',':
			items = append(items, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	return append(items, strings.TrimSpace(cur.String())), nil
}

// unquoteEnvValue drops the quotes around a whole -env value.
func unquoteEnvValue(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// validEnvName reports whether name is a shell variable name.
func validEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// apply returns the job's environment from the submitter's (KEY=VALUE).
func (e envSpec) apply(environ []string) []string {
	var out []string
	switch {
	case e.none:
	case e.all:
		for _, kv := range environ {
			k, _, _ := strings.Cut(kv, "=")
			if !e.drop[k] {
				out = append(out, kv)
			}
		}
	default:
		for _, name := range e.keep {
			for _, kv := range environ {
				if strings.HasPrefix(kv, name+"=") {
					out = append(out, kv)
				}
			}
		}
	}
	for _, s := range e.set {
		out = setEnv(out, s[0], s[1])
	}
	return out
}

// setEnv sets name to value in env, replacing any value it had.
func setEnv(env []string, name, value string) []string {
	for i, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			env[i] = name + "=" + value
			return env
		}
	}
	return append(env, name+"="+value)
}

// procLimitOptions are bsub's limit options read as whole numbers, each
// with the name of the lsb.queues limit it matches; count is set for the
// limits that are counts (processes, threads) rather than sizes in
// LSF_UNIT_FOR_LIMITS.
var procLimitOptions = []struct {
	opt, name, what string
	count           bool
}{
	{"C", "CORELIMIT", "core file size", false},
	{"D", "DATALIMIT", "data segment size", false},
	{"F", "FILELIMIT", "file size", false},
	{"S", "STACKLIMIT", "stack segment size", false},
	{"v", "SWAPLIMIT", "swap", false},
	{"p", "PROCESSLIMIT", "process", true},
	{"T", "THREADLIMIT", "thread", true},
}

// parseProcLimit reads the value of a limit option: a whole number, 0 or
// more, in the cluster's LSF_UNIT_FOR_LIMITS for a size (-C, -D, -F, -S;
// -v more than 0), more than 0 for a count (-p, -T).
func parseProcLimit(opt, s string) (int64, error) {
	what, least, count := opt, int64(0), false
	for _, o := range procLimitOptions {
		if o.opt == opt {
			what, count = o.what, o.count
			if o.count || o.name == "SWAPLIMIT" {
				least = 1
			}
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case count && (err != nil || n < least || n > math.MaxInt64/1024):
		return 0, fmt.Errorf("-%s %s: Bad %s limit: want a whole number, 1 or more", opt, strconv.Quote(s), what)
	case err != nil || n < least:
		return 0, fmt.Errorf("-%s %s: Bad %s limit: want a whole number, %d or more, in LSF_UNIT_FOR_LIMITS (KB by default)", opt, strconv.Quote(s), what, least)
	}
	return n, nil
}

// procLimitsKB converts the size limits of l, given in unit, to KB; the
// counts stay as they are.
func procLimitsKB(l map[string]int64, unit units.Unit) (map[string]int64, error) {
	per := int64(math.Round(unit.Megabytes() * 1024))
	out := make(map[string]int64, len(l))
	for name, n := range l {
		if name == "PROCESSLIMIT" || name == "THREADLIMIT" {
			out[name] = n
			continue
		}
		if per > 0 && n > math.MaxInt64/1024/per {
			return nil, fmt.Errorf("%s %d: the limit is too large", name, n)
		}
		out[name] = n * per
	}
	return out, nil
}
