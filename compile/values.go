package compile

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// A word is one blank-separated word of a value and its span.
type word struct {
	text string
	span lang.Span
}

// words splits a value into blank-separated words, keeping brackets and
// parentheses together with what they hold ("USER_SHARES[[a, 1] [b, 2]]"
// is one word).
func words(v lang.Value) []word {
	text := v.Text
	var out []word
	depth := 0
	start := -1
	for i := 0; i <= len(text); i++ {
		c := byte(' ')
		if i < len(text) {
			c = text[i]
		}
		switch {
		case c == '[' || c == '(':
			depth++
		case (c == ']' || c == ')') && depth > 0:
			depth--
		}
		if (c == ' ' || c == '\t') && depth == 0 || i == len(text) {
			if start >= 0 {
				out = append(out, word{text[start:i], v.Src.SpanOf(start, i)})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// unparen returns a value without LSF's optional enclosing parentheses:
// "KEY = (a b)" reads as "a b".
func unparen(v lang.Value) lang.Value {
	t := v.Text
	if len(t) >= 2 && t[0] == '(' && t[len(t)-1] == ')' {
		inner := v.Src.SpanOf(1, len(t)-1)
		return lang.Value{Text: t[1 : len(t)-1], Span: inner.Root(), Src: v.Src.Derive(t[1:len(t)-1], []lang.Segment{{Off: 0, ParentOff: 1}})}
	}
	return v
}

// valueError reports a value that cannot be read.
func (c *compiler) valueError(sp lang.Span, key, format string, args ...any) *lang.Diagnostic {
	return c.diags.Add(lang.Error, CodeBadValue, sp, "%s: %s", key, fmt.Sprintf(format, args...))
}

// maxNumber bounds the numbers lsfc reads: LSF reads most values with
// atoi or atof, and anything beyond 2^53 is no longer exact in a float64.
const maxNumber = 1 << 53

// parseNumber reads a decimal number as LSF writes them: an optional sign,
// digits, and an optional fraction; no exponent, no hexadecimal, at most
// maxNumber in size.
func parseNumber(s string) (float64, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Abs(x) > maxNumber {
		return 0, false
	}
	return x, true
}

// finite reports whether a product of parsed numbers stayed within
// maxNumber (a time in seconds, a memory amount in MB).
func finite(x float64) bool { return !math.IsNaN(x) && math.Abs(x) <= maxNumber*3600 }

// number reads a number key with its range; integer keys must be whole.
func (c *compiler) number(v lang.Value, k *schema.Key, integer bool) (float64, bool) {
	x, ok := parseNumber(strings.TrimSpace(v.Text))
	if !ok {
		what := "a number"
		if integer {
			what = "a whole number"
		}
		c.valueError(v.Span, k.Name, "%q is not %s", v.Text, what)
		return 0, false
	}
	if integer && x != math.Trunc(x) {
		c.valueError(v.Span, k.Name, "%q is not a whole number", v.Text)
		return 0, false
	}
	return x, c.inRange(v.Span, k, x)
}

// inRange reports a number outside the key's documented range.
func (c *compiler) inRange(sp lang.Span, k *schema.Key, x float64) bool {
	return c.inRangeShown(sp, k, x, strconv.FormatFloat(x, 'f', -1, 64))
}

// inRangeShown is inRange with the value as the message should show it.
func (c *compiler) inRangeShown(sp lang.Span, k *schema.Key, x float64, shown string) bool {
	b, err := schema.ParseRange(k.Range)
	if err != nil || b.Contains(x) {
		return true
	}
	d := c.diags.Add(lang.Error, CodeOutOfRange, sp, "%s = %s is out of range: it must be %s", k.Name, shown, b)
	if k.Default != "" {
		d.Message += fmt.Sprintf("; LSF uses the default %s instead", k.Default)
	}
	return false
}

// parseBool reads y, yes, n, no in any case.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes":
		return true, true
	case "n", "no":
		return false, true
	}
	return false, false
}

func (c *compiler) boolean(v lang.Value, k *schema.Key) (bool, bool) {
	b, ok := parseBool(v.Text)
	if !ok {
		c.valueError(v.Span, k.Name, "%q is not Y or N", v.Text)
	}
	return b, ok
}

// enum reads one or several words of the key's Enum (case-insensitive);
// it returns them spelt as the schema does.
func (c *compiler) enum(v lang.Value, k *schema.Key, several bool) ([]string, bool) {
	ws := words(v)
	if !several && len(ws) != 1 {
		c.valueError(v.Span, k.Name, "give one of %s", strings.Join(k.Enum, ", "))
		return nil, false
	}
	var out []string
	ok := true
	for _, w := range ws {
		found := ""
		for _, e := range k.Enum {
			if strings.EqualFold(e, w.text) || strings.EqualFold(e, strings.SplitN(w.text, "[", 2)[0]) {
				found = e
			}
		}
		if found == "" {
			d := c.valueError(w.span, k.Name, "unknown value %q (expected %s)", w.text, strings.Join(k.Enum, ", "))
			if s := lang.Suggest(w.text, k.Enum); s != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", s)
			}
			ok = false
			continue
		}
		out = append(out, found)
	}
	return out, ok
}

// memory reads an amount of memory in megabytes: a number with an optional
// unit suffix, a bare number being in unit.
func (c *compiler) memory(w word, key string, unit Unit) (float64, bool) {
	mb, err := ParseMemory(w.text, unit)
	if err != nil {
		c.valueError(w.span, key, "%v", err)
		return 0, false
	}
	return mb, true
}

// unitOf returns the memory unit bare numbers of a key are in.
func (c *compiler) unitOf(k *schema.Key) Unit {
	switch strings.ToUpper(k.Unit) {
	case "KB":
		return KB
	case "MB":
		return MB
	case "GB":
		return GB
	}
	return c.limitUnit
}

// A Duration is a length of time in seconds.
type Duration float64

// duration reads a number of the key's unit (seconds, minutes, hours),
// with an optional s, m or h suffix overriding it.
func (c *compiler) duration(w word, k *schema.Key) (Duration, bool) {
	unit := 1.0
	switch strings.ToLower(k.Unit) {
	case "minutes":
		unit = 60
	case "hours":
		unit = 3600
	case "days":
		unit = 86400
	}
	keyUnit := unit
	t := strings.TrimSpace(w.text)
	switch {
	case strings.HasSuffix(t, "ms"):
		t, unit = t[:len(t)-2], 0.001
	case strings.HasSuffix(t, "s"), strings.HasSuffix(t, "S"):
		t, unit = t[:len(t)-1], 1
	case strings.HasSuffix(t, "m"), strings.HasSuffix(t, "M"):
		t, unit = t[:len(t)-1], 60
	case strings.HasSuffix(t, "h"), strings.HasSuffix(t, "H"):
		t, unit = t[:len(t)-1], 3600
	}
	x, ok := parseNumber(t)
	if !ok || x < 0 || !finite(x*unit) {
		c.valueError(w.span, k.Name, "%q is not a length of time (a number, optionally with s, m or h)", w.text)
		return 0, false
	}
	// The range is in the key's own unit: 2m of a key in seconds is 120.
	inKeyUnit := x * unit / keyUnit
	shown := strconv.FormatFloat(inKeyUnit, 'f', -1, 64)
	if unit != keyUnit {
		shown = fmt.Sprintf("%s (%s %s)", w.text, shown, strings.ToLower(cmp.Or(k.Unit, "seconds")))
	}
	return Duration(x * unit), c.inRangeShown(w.span, k, inKeyUnit, shown)
}

// A Limit is a resource limit: an optional default (soft) value and a
// maximum (hard) value; PROCLIMIT and TASKLIMIT also take a minimum.
// Memory limits are in MB, CPU and run limits in minutes (normalised by
// Spec's CPU factor when one is given), the others counts.
type Limit struct {
	Min     *float64 `json:"min,omitempty"`
	Default *float64 `json:"default,omitempty"`
	Max     float64  `json:"max"`
	// Spec is the host or host model a time limit is normalised to
	// ("RUNLIMIT = 60/hostA").
	Spec string `json:"spec,omitempty"`
}

// limit reads "[default] max" (or "[min [default]] max" for PROCLIMIT and
// TASKLIMIT). Time limits are [hours:]minutes[/host_or_model].
func (c *compiler) limit(v lang.Value, k *schema.Key) (*Limit, bool) {
	ws := words(v)
	most := 2
	if k.Name == "PROCLIMIT" || k.Name == "TASKLIMIT" {
		most = 3
	}
	if len(ws) == 0 || len(ws) > most {
		c.valueError(v.Span, k.Name, "give [default] maximum (%d values at most)", most)
		return nil, false
	}
	vals := make([]float64, len(ws))
	l := &Limit{}
	for i, w := range ws {
		var x float64
		var ok bool
		switch {
		case strings.EqualFold(k.Unit, "minutes"):
			var spec string
			x, spec, ok = c.timeLimit(w, k.Name)
			if spec != "" {
				l.Spec = spec
			}
		case k.Unit == "KB" || k.Unit == "MB" || k.Unit == "LSF_UNIT_FOR_LIMITS":
			x, ok = c.memory(w, k.Name, c.unitOf(k))
		default:
			x, ok = parseNumber(w.text)
			if !ok || x < 0 {
				c.valueError(w.span, k.Name, "%q is not a non-negative number", w.text)
				ok = false
			}
		}
		if !ok {
			return nil, false
		}
		vals[i] = x
	}
	l.Max = vals[len(vals)-1]
	if len(vals) >= 2 {
		l.Default = &vals[len(vals)-2]
	}
	if len(vals) == 3 {
		l.Min = &vals[0]
	}
	memory := k.Unit == "KB" || k.Unit == "MB" || k.Unit == "LSF_UNIT_FOR_LIMITS"
	// show prints value i as written and, when that is not plain, as
	// read: memory with its unit, in the unit of the pair's first value.
	show := func(i int, read string) string {
		t := ws[i].text
		if strings.EqualFold(t, read) || !memory && t == strconv.FormatFloat(vals[i], 'f', -1, 64) {
			return t
		}
		return fmt.Sprintf("%s (%s)", t, read)
	}
	// The values' roles, as the warning names them: [default] maximum, or
	// minimum default maximum.
	roles := "default, maximum"
	if len(vals) == 3 {
		roles = "minimum, default, maximum"
	}
	for i := 1; i < len(vals); i++ {
		if vals[i-1] > vals[i] {
			a, b := strconv.FormatFloat(vals[i-1], 'f', -1, 64), strconv.FormatFloat(vals[i], 'f', -1, 64)
			switch {
			case strings.EqualFold(k.Unit, "minutes"):
				a, b = a+" minutes", b+" minutes"
			case memory:
				a, b = FormatMemoryPair(vals[i-1], vals[i])
			}
			c.diags.Add(lang.Warning, CodeOutOfRange, ws[i-1].span.Cover(ws[i].span),
				"%s: %s is larger than %s; LSF expects the values to grow (%s)", k.Name, show(i-1, a), show(i, b), roles)
		}
	}
	return l, true
}

// timeLimit reads [hours:]minutes[/host_or_model] as minutes.
func (c *compiler) timeLimit(w word, key string) (float64, string, bool) {
	t, spec, _ := strings.Cut(w.text, "/")
	h, m, hasHours := strings.Cut(t, ":")
	if !hasHours {
		h, m = "0", t
	}
	hv, ok1 := parseNumber(h)
	mv, ok2 := parseNumber(m)
	if !ok1 || !ok2 || hv < 0 || mv < 0 || (hasHours && hv != math.Trunc(hv)) || !finite(hv*60+mv) {
		c.valueError(w.span, key, "%q is not [hours:]minutes[/host_or_model]", w.text)
		return 0, "", false
	}
	return hv*60 + mv, spec, true
}

// A Clock is a point of a week: Day (0 Sunday to 6 Saturday, -1 for every
// day), Hour and Minute.
type Clock struct {
	Day    int `json:"day"`
	Hour   int `json:"hour"`
	Minute int `json:"minute"`
}

// A Window is a time window; one ending before it starts runs overnight
// (or over the week's end).
type Window struct {
	From Clock `json:"from"`
	To   Clock `json:"to"`
}

// String writes a window as LSF does: [day:]hour:minute-[day:]hour:minute.
func (w Window) String() string {
	clock := func(c Clock) string {
		s := fmt.Sprintf("%d:%02d", c.Hour, c.Minute)
		if c.Day >= 0 {
			s = fmt.Sprintf("%d:%s", c.Day, s)
		}
		return s
	}
	return clock(w.From) + "-" + clock(w.To)
}

// windows reads a list of time windows "[day:]hour[:minute]-[day:]hour[:minute]".
// Hours run 0 to 23, minutes 0 to 59, days 0 (Sunday) to 6; LSF 10.1 also
// takes 7 for Sunday. Both ends of a window are written the same way.
func (c *compiler) windows(v lang.Value, key string) ([]Window, bool) {
	var out []Window
	ok := true
	for _, w := range words(unparen(v)) {
		from, to, found := strings.Cut(w.text, "-")
		if !found {
			c.valueError(w.span, key, "%q is not a time window: write start-end, each [day:]hour[:minute]", w.text)
			ok = false
			continue
		}
		f, err1 := parseClock(from, c.dialect)
		t, err2 := parseClock(to, c.dialect)
		switch {
		case err1 != nil:
			c.valueError(w.span, key, "time window %q: start %q %v", w.text, from, err1)
		case err2 != nil:
			c.valueError(w.span, key, "time window %q: end %q %v", w.text, to, err2)
		case strings.Count(from, ":") != strings.Count(to, ":"):
			c.valueError(w.span, key, "time window %q: write both ends the same way (hour, hour:minute or day:hour:minute)", w.text)
		default:
			out = append(out, Window{From: f, To: t})
			continue
		}
		ok = false
	}
	return out, ok
}

// parseClock reads [day:]hour[:minute]; the error says what is wrong.
func parseClock(s string, d Dialect) (Clock, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 || s == "" {
		return Clock{}, fmt.Errorf("is not [day:]hour[:minute]")
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p[0] == '+' {
			return Clock{}, fmt.Errorf("is not [day:]hour[:minute]: %q is not a number", p)
		}
		nums[i] = n
	}
	c := Clock{Day: -1}
	switch len(nums) {
	case 1:
		c.Hour = nums[0]
	case 2:
		c.Hour, c.Minute = nums[0], nums[1]
	case 3:
		c.Day, c.Hour, c.Minute = nums[0], nums[1], nums[2]
	}
	maxDay := 7
	if d == Openlava {
		maxDay = 6
	}
	switch {
	case c.Hour > 23:
		return c, fmt.Errorf("has hour %d (hours run 0 to 23)", c.Hour)
	case c.Minute > 59:
		return c, fmt.Errorf("has minute %d (minutes run 0 to 59)", c.Minute)
	case c.Day > maxDay && d == Openlava:
		return c, fmt.Errorf("has day %d (days run 0, Sunday, to 6)", c.Day)
	case c.Day > maxDay:
		return c, fmt.Errorf("has day %d (days run 0, Sunday, to 6; 7 is also Sunday)", c.Day)
	}
	if c.Day == 7 {
		c.Day = 0
	}
	return c, nil
}

// A Threshold is a loadSched/loadStop pair; either may be unset.
type Threshold struct {
	Sched *float64 `json:"sched,omitempty"`
	Stop  *float64 `json:"stop,omitempty"`
}

// threshold reads loadSched[/loadStop]. For ut, LSF 10.1 takes a fraction
// of 1; openlava also takes a percentage, which is divided by 100.
func (c *compiler) threshold(w word, index string) (Threshold, bool) {
	var th Threshold
	sched, stop, hasStop := strings.Cut(w.text, "/")
	percent := false
	read := func(s string) (*float64, bool) {
		if s == "" {
			return nil, true
		}
		x, ok := parseNumber(s)
		if !ok {
			return nil, false
		}
		if index == "ut" && x > 1 {
			if c.dialect == Openlava {
				x /= 100
			} else {
				percent = true
			}
		}
		return &x, true
	}
	var ok1, ok2 bool
	th.Sched, ok1 = read(sched)
	th.Stop, ok2 = read(stop)
	if !ok1 || !ok2 || (sched == "" && (!hasStop || stop == "")) {
		c.valueError(w.span, index, "%q is not a threshold loadSched[/loadStop]", w.text)
		return th, false
	}
	if percent {
		fraction := func(x *float64) string {
			if x == nil {
				return ""
			}
			if *x > 1 {
				return strconv.FormatFloat(*x/100, 'f', -1, 64)
			}
			return strconv.FormatFloat(*x, 'f', -1, 64)
		}
		want := fraction(th.Sched)
		if hasStop {
			want += "/" + fraction(th.Stop)
		}
		c.diags.Add(lang.Warning, CodeOutOfRange, w.span,
			"ut threshold %s: ut is a fraction from 0.0 to 1.0 in LSF 10.1 (write %s)", w.text, want).
			SuggestSafe(replaceWith(want), w.span, want)
	}
	return th, true
}

// gpuReq reads a GPU requirement (GPU_REQ, LSB_GPU_REQ); an error points
// at the option at fault inside the value.
func (c *compiler) gpuReq(v lang.Value, key string) (*lang.GPUReq, bool) {
	text, shift := v.Text, 0
	if len(text) >= 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] {
		text, shift = text[1:len(text)-1], 1
	}
	g, err := lang.ParseGPUReq(text)
	if err != nil {
		sp := v.Span
		if e, ok := err.(*lang.GPUReqError); ok && v.Src != nil {
			end := strings.IndexByte(text[e.Offset:], ':')
			if end < 0 {
				end = len(text) - e.Offset
			}
			sp = v.Src.SpanOf(shift+e.Offset, shift+e.Offset+max(end, 1)).Root()
			c.valueError(sp, key, "%s", e.Msg)
			return nil, false
		}
		c.valueError(sp, key, "%v", err)
		return nil, false
	}
	return &g, true
}
