package compile

import (
	"fmt"
	"strconv"
	"strings"
)

// A condensed is a host name written in LSF's condensed notation: literal
// text with bracket sets of non-negative numbers anywhere in it, such as
// "host[1-100].example.com" or "rack[1,3]n[01:16]". In a set, "a-b" and
// "a:b" are ranges and a leading zero pads every number of the range to
// the width of its lower bound.
type condensed struct {
	parts []condPart
}

// A condPart is literal text, or (when set is not nil) a bracket set.
type condPart struct {
	lit string
	set []numRange
}

// A numRange is one item of a bracket set: lo to hi, zero-padded to width
// when width is not 0.
type numRange struct{ lo, hi, width int }

// maxCondensed bounds how many names one condensed name may stand for
// when it is expanded.
const maxCondensed = 1 << 20

// parseCondensed reads a name in condensed notation. It reports false for
// a name without brackets, and an error for brackets that do not hold a
// set of numbers.
func parseCondensed(name string) (condensed, bool, error) {
	if !strings.ContainsAny(name, "[]") {
		return condensed{}, false, nil
	}
	var c condensed
	rest := name
	for rest != "" {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			if strings.IndexByte(rest, ']') >= 0 {
				return c, true, fmt.Errorf("%q has a \"]\" without \"[\"", name)
			}
			c.parts = append(c.parts, condPart{lit: rest})
			break
		}
		if open > 0 {
			lit := rest[:open]
			if strings.IndexByte(lit, ']') >= 0 {
				return c, true, fmt.Errorf("%q has a \"]\" without \"[\"", name)
			}
			c.parts = append(c.parts, condPart{lit: lit})
		}
		end := strings.IndexByte(rest[open:], ']')
		if end < 0 {
			return c, true, fmt.Errorf("%q has a \"[\" without \"]\"", name)
		}
		set, err := parseNumSet(rest[open+1 : open+end])
		if err != nil {
			return c, true, fmt.Errorf("%q: %v", name, err)
		}
		c.parts = append(c.parts, condPart{set: set})
		rest = rest[open+end+1:]
	}
	return c, true, nil
}

// parseNumSet reads "1-10,12,20:25".
func parseNumSet(s string) ([]numRange, error) {
	var out []numRange
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "-")
		if !isRange {
			lo, hi, isRange = strings.Cut(item, ":")
		}
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || lo[0] == '+' || hi[0] == '+' {
			return nil, fmt.Errorf("%q is not a number or a range a-b", item)
		}
		if b < a {
			return nil, fmt.Errorf("range %q runs backwards", item)
		}
		r := numRange{lo: a, hi: b}
		if len(lo) > 1 && lo[0] == '0' {
			r.width = len(lo)
		}
		out = append(out, r)
	}
	return out, nil
}

// size returns how many names c stands for, or maxCondensed+1 when more.
func (c condensed) size() int {
	n := 1
	for _, p := range c.parts {
		if p.set == nil {
			continue
		}
		k := 0
		for _, r := range p.set {
			k += r.hi - r.lo + 1
			if k > maxCondensed {
				return maxCondensed + 1
			}
		}
		n *= k
		if n > maxCondensed {
			return maxCondensed + 1
		}
	}
	return n
}

// expand returns every name c stands for, in order; the caller checks
// size first.
func (c condensed) expand() []string {
	names := []string{""}
	for _, p := range c.parts {
		if p.set == nil {
			for i := range names {
				names[i] += p.lit
			}
			continue
		}
		var next []string
		for _, prefix := range names {
			for _, r := range p.set {
				for n := r.lo; n <= r.hi; n++ {
					next = append(next, prefix+r.format(n))
				}
			}
		}
		names = next
	}
	return names
}

func (r numRange) format(n int) string {
	s := strconv.Itoa(n)
	if len(s) < r.width {
		s = strings.Repeat("0", r.width-len(s)) + s
	}
	return s
}

// match reports whether name is one of the names c stands for, without
// expanding c. It remembers the (part, offset) pairs that failed, so that
// a name with long runs of digits costs at most parts × length steps.
func (c condensed) match(name string) bool {
	failed := map[[2]int]bool{}
	var at func(part, off int) bool
	at = func(part, off int) bool {
		if part == len(c.parts) {
			return off == len(name)
		}
		key := [2]int{part, off}
		if failed[key] {
			return false
		}
		p := c.parts[part]
		ok := false
		if p.set == nil {
			ok = strings.HasPrefix(name[off:], p.lit) && at(part+1, off+len(p.lit))
		} else {
			digits := 0
			for off+digits < len(name) && name[off+digits] >= '0' && name[off+digits] <= '9' {
				digits++
			}
			// The number may end anywhere in the run of digits when
			// literal digits follow the set.
			for k := 1; k <= digits && k <= 19 && !ok; k++ {
				ok = inSet(p.set, name[off:off+k]) && at(part+1, off+k)
			}
		}
		if !ok {
			failed[key] = true
		}
		return ok
	}
	return at(0, 0)
}

// inSet reports whether the digits num are a number of set, written with
// the width the set gives it.
func inSet(set []numRange, num string) bool {
	n, err := strconv.Atoi(num)
	if err != nil {
		return false
	}
	padded := len(num) > 1 && num[0] == '0'
	for _, r := range set {
		if n < r.lo || n > r.hi {
			continue
		}
		if r.width == 0 && !padded || r.width > 0 && len(num) == r.width {
			return true
		}
	}
	return false
}
