package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Unit is a unit of memory, as LSF_UNIT_FOR_LIMITS in lsf.conf names it.
// Each unit is 1024 of the one before. The zero Unit is KB, which is also
// LSF's default for LSF_UNIT_FOR_LIMITS.
type Unit int

// The units, smallest first.
const (
	KB Unit = iota
	MB
	GB
	TB
	PB
	EB
	ZB
)

// String returns the LSF_UNIT_FOR_LIMITS spelling of u ("KB", "MB", ...),
// or "Unit(N)" for a value that is not one of the units.
func (u Unit) String() string {
	if !u.valid() {
		return fmt.Sprintf("Unit(%d)", int(u))
	}
	return string(memUnitLetter(u)) + "B"
}

func (u Unit) valid() bool { return u >= KB && u <= ZB }

// Megabytes returns the size of one u in megabytes: 1/1024 for KB, 1 for
// MB, 1024 for GB and so on. It returns NaN for a value that is not one of
// the units.
func (u Unit) Megabytes() float64 {
	if !u.valid() {
		return math.NaN()
	}
	return math.Ldexp(1, 10*(int(u)-int(MB)))
}

// memUnitLetter returns the one-letter suffix of a valid unit.
func memUnitLetter(u Unit) byte { return "KMGTPEZ"[u] }

// ParseUnit reads an LSF_UNIT_FOR_LIMITS value: KB, MB, GB, TB, PB, EB or
// ZB, in any case, with surrounding blanks ignored.
func ParseUnit(s string) (Unit, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if len(t) == 2 && t[1] == 'B' {
		if i := strings.IndexByte("KMGTPEZ", t[0]); i >= 0 {
			return Unit(i), nil
		}
	}
	return 0, fmt.Errorf("unknown unit %q (want KB, MB, GB, TB, PB, EB or ZB)", s)
}

// ParseMemory reads a memory amount and returns it in megabytes. The
// amount is a decimal number ("512", "1.5", ".5") followed, with no blank
// between, by an optional unit: K, M, G, T, P, E or Z, each optionally
// followed by B, in any case ("8G", "8gb", "512MB"). A number without a unit
// is in def. Blanks around the amount are ignored. Signs, exponents, hex,
// NaN, infinities, empty text, unknown units and text after the unit are
// errors, as are amounts too large for a float64 and an invalid def.
func ParseMemory(s string, def Unit) (mb float64, err error) {
	if !def.valid() {
		return 0, fmt.Errorf("invalid default unit %v", def)
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty memory amount")
	}
	if memNonFinite(t) {
		return 0, fmt.Errorf("memory amount %q is not a finite number", s)
	}
	num, suffix := SplitDecimal(t)
	if num == "" {
		if rest, ok := strings.CutPrefix(t, "-"); ok {
			if n, _ := SplitDecimal(rest); n != "" {
				return 0, fmt.Errorf("negative memory amount %q", s)
			}
		}
		return 0, fmt.Errorf("memory amount %q does not start with a number", s)
	}
	unit, ok := SuffixUnit(suffix, def)
	if !ok {
		return 0, fmt.Errorf("unknown unit %q in memory amount %q (want K, M, G, T, P, E or Z, optionally followed by B)", suffix, s)
	}
	v, err := strconv.ParseFloat(num, 64)
	mb = v * unit.Megabytes()
	if err != nil || math.IsInf(mb, 0) {
		return 0, fmt.Errorf("memory amount %q is too large", s)
	}
	return mb, nil
}

// memNonFinite reports whether t spells NaN or an infinity, with or without
// a sign, in any case.
func memNonFinite(t string) bool {
	t = strings.ToLower(strings.TrimLeft(t, "+-"))
	switch t {
	case "nan", "inf", "infinity", ".nan", ".inf":
		return true
	}
	return false
}

// SplitDecimal splits t into a leading unsigned decimal number (digits with
// at most one '.', at least one digit) and the rest. num is "" when t does
// not start with such a number.
func SplitDecimal(t string) (num, rest string) {
	digits, dot := 0, false
	i := 0
	for ; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' {
			digits++
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		break
	}
	if digits == 0 {
		return "", t
	}
	return t[:i], t[i:]
}

// SuffixUnit returns the unit a memory suffix names ("K", "MB" ... in any
// case); "" names def. ok is false for a suffix that names no unit.
func SuffixUnit(suffix string, def Unit) (Unit, bool) {
	if suffix == "" {
		return def, true
	}
	s := strings.ToUpper(suffix)
	if len(s) == 2 && s[1] == 'B' {
		s = s[:1]
	}
	if len(s) != 1 {
		return 0, false
	}
	i := strings.IndexByte("KMGTPEZ", s[0])
	return Unit(i), i >= 0
}

// FormatMemory formats an amount in megabytes for display, the way lshosts
// and lsload print memory: a number and a one-letter unit ("16G", "512M",
// "1.5G", "30.7G"). It picks the largest unit in which the amount is at
// least 1 and prints it whole, or with one decimal, when that is exact;
// otherwise the first smaller unit (down to K) in which it is whole and
// short (fewer than six digits, like "31993M"); otherwise the largest unit
// rounded to one decimal. Amounts under 1M are printed in K. 0 is "0M", a
// negative amount is "-" followed by its absolute value, and NaN and the
// infinities are "NaN", "Inf" and "-Inf".
func FormatMemory(mb float64) string {
	s, _ := formatMemory(mb)
	return s
}

// FormatMemoryPair formats two amounts in megabytes that are compared in one
// message ("the job reserves 4G but the queue allows at most 0.977G"):
// both in the unit FormatMemory picks for a, rounded to three decimals.
func FormatMemoryPair(a, b float64) (string, string) {
	_, u := formatMemory(a)
	return FormatMemoryIn(a, u), FormatMemoryIn(b, u)
}

// FormatMemoryIn formats an amount in megabytes in the unit u: the number
// rounded to three decimals, then the unit's letter ("0.977G", "1000M").
// NaN and the infinities are printed as FormatMemory prints them.
func FormatMemoryIn(mb float64, u Unit) string {
	if math.IsNaN(mb) || math.IsInf(mb, 0) || !u.valid() {
		return FormatMemory(mb)
	}
	v := math.Round(mb/u.Megabytes()*1000) / 1000
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + string(memUnitLetter(u))
}

// formatMemory is FormatMemory, also returning the unit it printed in (MB
// for 0 and for NaN and the infinities).
func formatMemory(mb float64) (string, Unit) {
	switch {
	case math.IsNaN(mb):
		return "NaN", MB
	case math.IsInf(mb, 1):
		return "Inf", MB
	case math.IsInf(mb, -1):
		return "-Inf", MB
	case mb < 0:
		s, u := formatMemory(-mb)
		return "-" + s, u
	case mb == 0:
		return "0M", MB
	}
	top := KB
	for u := ZB; u >= MB; u-- {
		if mb >= u.Megabytes() {
			top = u
			break
		}
	}
	for u := top; u >= KB; u-- {
		v := mb / u.Megabytes()
		if u < top && v >= 1e5 {
			break
		}
		if s, ok := memExactDecimal(v, u == top); ok {
			return s + string(memUnitLetter(u)), u
		}
	}
	s := strconv.FormatFloat(mb/top.Megabytes(), 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + string(memUnitLetter(top)), top
}

// memExactDecimal formats v whole, or with one decimal when decimal is
// set, when that loses nothing but rounding noise.
func memExactDecimal(v float64, decimal bool) (string, bool) {
	tol := 1e-9 * math.Max(1, v)
	if r := math.Round(v); math.Abs(v-r) <= tol {
		return strconv.FormatFloat(r, 'f', -1, 64), true
	}
	if r := math.Round(v*10) / 10; decimal && math.Abs(v-r) <= tol {
		return strconv.FormatFloat(r, 'f', 1, 64), true
	}
	return "", false
}
