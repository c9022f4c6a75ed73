package simstats

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Run is one simulation run of an HTML report.
type Run struct {
	Name    string
	Summary *Summary
}

// WriteHTML writes one self-contained HTML page comparing the runs: a
// table of totals, a chart of utilisation over time with a line per run,
// a box plot of the waits per queue with a box per run, a table of
// queues per run, and when a run had slot pools, a chart of each pool's
// shares over time and a table of its queues. Styles and charts are inline (CSS and SVG), with no
// script and no external reference, so the page can be mailed or
// archived as one file. The markup is also well-formed XML.
func WriteHTML(w io.Writer, runs []Run) error {
	var b strings.Builder
	title := "lsfc simulate report"
	if len(runs) > 0 {
		names := make([]string, len(runs))
		for i, r := range runs {
			names[i] = r.Name
		}
		title += ": " + strings.Join(names, " vs ")
	}
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), css)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	sums := make([]*Summary, len(runs))
	for i, r := range runs {
		sums[i] = orEmpty(r.Summary)
	}
	if len(runs) == 0 {
		b.WriteString("<p>No runs.</p>\n</body>\n</html>\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	legend := func() {
		b.WriteString("<p class=\"legend\">")
		for i, r := range runs {
			legendItem(&b, i, r.Name)
		}
		b.WriteString("</p>\n")
	}
	legend()

	b.WriteString("<h2>Totals</h2>\n")
	header := []string{""}
	for _, r := range runs {
		header = append(header, r.Name)
	}
	htmlTable(&b, header, totalsRows(sums, true))

	b.WriteString("<h2>Utilisation over time</h2>\n")
	b.WriteString("<p class=\"note\">Share of the cluster's slots busy, averaged over each interval.</p>\n")
	legend()
	utilisationChart(&b, runs, sums)

	b.WriteString("<h2>Wait time per queue</h2>\n")
	b.WriteString("<p class=\"note\">Box: 25th to 75th percentile; bar: median; whiskers: minimum to 95th percentile; circle: maximum. " +
		"Logarithmic scale; waits under 1 s are drawn at 1 s. Only jobs that ran count.</p>\n")
	legend()
	waitChart(&b, runs, sums)

	b.WriteString("<h2>Queues</h2>\n")
	for i, r := range runs {
		b.WriteString("<h3>")
		legendItem(&b, i, r.Name)
		b.WriteString("</h3>\n")
		header, rows := queueTable(sums[i].Queues)
		htmlTable(&b, header, rows)
	}
	fmt.Fprintf(&b, "<p class=\"note\">Wait = start − submit. Bounded slowdown = max((wait + run) / max(run, %g s), 1). "+
		"Percentiles interpolate between the nearest values. Utilisation = slot-seconds used / (slots × makespan), "+
		"makespan = first submission to last end.</p>\n", Tau)
	poolSection(&b, runs, sums)
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

const css = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
  color: #1a1a1a; background: #fff; max-width: 1000px; margin: 2em auto; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.5em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
h3 { font-size: 1em; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.5em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th { background: #f5f5f5; }
th:first-child, td:first-child { text-align: left; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font-size: 12px; fill: #333; }
.note { color: #555; font-size: 0.9em; }
.legend span.item { margin-right: 1.5em; white-space: nowrap; }
.swatch { display: inline-block; width: 1.2em; height: 0.7em; margin-right: 0.4em; vertical-align: middle; }
`

// color returns the color of run i: the Okabe–Ito palette, which stays
// distinct for readers with a colour-vision deficiency, without its
// yellow, which is too light on white.
func color(i int) string {
	switch i % 7 {
	case 0:
		return "#0072b2"
	case 1:
		return "#d55e00"
	case 2:
		return "#009e73"
	case 3:
		return "#cc79a7"
	case 4:
		return "#e69f00"
	case 5:
		return "#56b4e9"
	}
	return "#000000"
}

// esc escapes text for HTML. It also replaces control characters and
// bytes that are not UTF-8, which HTML tolerates but XML does not, so
// that the page stays well-formed XML whatever the names.
func esc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' && r != '\n' || r == 0x7f || r == utf8.RuneError {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return html.EscapeString(s)
}

func legendItem(b *strings.Builder, i int, name string) {
	fmt.Fprintf(b, "<span class=\"item\"><span class=\"swatch\" style=\"background:%s\"></span>%s</span>", color(i), esc(name))
}

func htmlTable(b *strings.Builder, header []string, rows [][]string) {
	b.WriteString("<table>\n<thead><tr>")
	for _, h := range header {
		fmt.Fprintf(b, "<th>%s</th>", esc(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(b, "<td>%s</td>", esc(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
}

// f formats an SVG coordinate.
func f(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// Layout of the charts, in SVG user units (pixels at full width).
const (
	chartWidth  = 900
	marginRight = 20
	marginTop   = 12
	// The margins of the charts over time (utilisation, pool shares).
	timeMarginLeft   = 64
	timeMarginBottom = 52
)

func utilisationChart(b *strings.Builder, runs []Run, sums []*Summary) {
	const (
		height       = 340
		marginLeft   = timeMarginLeft
		marginBottom = timeMarginBottom
	)
	t0, t1, ymax := math.Inf(1), math.Inf(-1), 1.0
	for _, s := range sums {
		tl := s.Timeline
		if len(tl.Busy) == 0 {
			continue
		}
		t0 = min(t0, tl.Start)
		t1 = max(t1, tl.Start+tl.Step*float64(len(tl.Busy)))
		for _, v := range tl.Busy {
			ymax = max(ymax, v)
		}
	}
	if !(t1 > t0) {
		b.WriteString("<p>No utilisation data: no job ran, or the number of slots is unknown.</p>\n")
		return
	}
	ystep := 0.2
	if ymax > 1.2 {
		ystep = 0.5
	}
	ymax = math.Ceil(ymax/ystep-1e-9) * ystep
	pw, ph := float64(chartWidth-marginLeft-marginRight), float64(height-marginTop-marginBottom)
	x := func(t float64) float64 { return marginLeft + pw*(t-t0)/(t1-t0) }
	y := func(v float64) float64 { return marginTop + ph*(1-v/ymax) }

	fmt.Fprintf(b, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"utilisation over time\">\n",
		chartWidth, height, chartWidth, height)
	for v := 0.0; v <= ymax+1e-9; v += ystep {
		fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" stroke=\"#e5e5e5\"/>\n", marginLeft, chartWidth-marginRight, f(y(v)), f(y(v)))
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
			marginLeft-6, f(y(v)), strconv.FormatFloat(100*v, 'f', 0, 64))
	}
	timeAxes(b, t0, t1, height, "slots busy (%)")
	for i, s := range sums {
		tl := s.Timeline
		if len(tl.Busy) == 0 {
			continue
		}
		fmt.Fprintf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"", color(i))
		for j, v := range tl.Busy {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f(x(tl.Start+(float64(j)+0.5)*tl.Step)) + "," + f(y(v)))
		}
		fmt.Fprintf(b, "\"><title>%s: utilisation %s</title></polyline>\n", esc(runs[i].Name), fmtPct(s.Utilisation))
	}
	b.WriteString("</svg>\n")
}

// timeUnit chooses the unit of a time axis spanning span seconds.
func timeUnit(span float64) (float64, string) {
	switch {
	case span >= 2*86400:
		return 86400, "days"
	case span >= 2*3600:
		return 3600, "hours"
	case span >= 2*60:
		return 60, "minutes"
	}
	return 1, "seconds"
}

// niceTicks returns about n ticks at 1, 2 or 5 times a power of ten
// between lo and hi.
func niceTicks(lo, hi float64, n int) []float64 {
	raw := (hi - lo) / float64(n)
	if !(raw > 0) {
		return []float64{lo}
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	first := math.Ceil(lo/step - 1e-9)
	count := math.Floor(hi/step+1e-9) - first + 1
	if !(count >= 1) || count > float64(4*n) || first+1 == first {
		// Values too large or too odd for steps to count on: the ends.
		return []float64{lo, hi}
	}
	ticks := make([]float64, 0, int(count))
	for k := range int(count) {
		ticks = append(ticks, (first+float64(k))*step)
	}
	return ticks
}

func tickLabel(v float64) string {
	v = math.Round(v*1e6) / 1e6 // drop the dust of i*step
	if v == 0 {
		v = 0 // not "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// waitTick returns tick i of the logarithmic wait axis: its value in
// seconds and its label.
func waitTick(i int) (float64, string) {
	switch i {
	case 0:
		return 1, "1 s"
	case 1:
		return 10, "10 s"
	case 2:
		return 60, "1 min"
	case 3:
		return 600, "10 min"
	case 4:
		return 3600, "1 h"
	case 5:
		return 6 * 3600, "6 h"
	case 6:
		return 86400, "1 d"
	case 7:
		return 7 * 86400, "1 wk"
	case 8:
		return 30 * 86400, "30 d"
	}
	return 365 * 86400, "1 y"
}

// waitTicks is the number of ticks waitTick knows.
const waitTicks = 10

func waitChart(b *strings.Builder, runs []Run, sums []*Summary) {
	const (
		boxHeight    = 12
		boxGap       = 4
		groupGap     = 14
		marginBottom = 48
		maxLabel     = 30
	)
	var names []string
	seen := map[string]bool{}
	maxWait := 60.0
	labelLen := 5
	for _, s := range sums {
		for _, g := range s.Queues {
			if !seen[g.Name] {
				seen[g.Name] = true
				names = append(names, g.Name)
				labelLen = max(labelLen, min(maxLabel, utf8.RuneCountInString(groupName(g.Name))))
			}
			maxWait = max(maxWait, g.Wait.Max)
		}
	}
	if len(names) == 0 {
		b.WriteString("<p>No queues.</p>\n")
		return
	}
	slices.Sort(names)
	last := waitTicks - 1
	for i := range waitTicks {
		if v, _ := waitTick(i); v >= maxWait {
			last = i
			break
		}
	}
	hi, _ := waitTick(last)
	marginLeft := min(7*labelLen+16, 240)
	groupHeight := len(runs)*(boxHeight+boxGap) - boxGap
	height := marginTop + len(names)*(groupHeight+groupGap) + marginBottom
	pw := float64(chartWidth - marginLeft - marginRight)
	x := func(v float64) float64 {
		return float64(marginLeft) + pw*math.Log10(min(max(v, 1), hi))/math.Log10(hi)
	}
	fmt.Fprintf(b, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"wait time per queue\">\n",
		chartWidth, height, chartWidth, height)
	bottom := float64(height - marginBottom)
	for i := 0; i <= last; i++ {
		v, label := waitTick(i)
		fmt.Fprintf(b, "<line x1=\"%s\" x2=\"%s\" y1=\"%d\" y2=\"%s\" stroke=\"#e5e5e5\"/>\n", f(x(v)), f(x(v)), marginTop, f(bottom))
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", f(x(v)), f(bottom+18), label)
	}
	fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" stroke=\"#555\"/>\n", marginLeft, chartWidth-marginRight, f(bottom), f(bottom))
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\">wait time (logarithmic scale)</text>\n",
		f(float64(marginLeft)+pw/2), height-8)
	for qi, name := range names {
		top := marginTop + groupGap/2 + qi*(groupHeight+groupGap)
		label := groupName(name)
		if utf8.RuneCountInString(label) > maxLabel {
			label = string([]rune(label)[:maxLabel-1]) + "…"
		}
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
			marginLeft-8, f(float64(top)+float64(groupHeight)/2), esc(label))
		for ri, s := range sums {
			cy := float64(top + ri*(boxHeight+boxGap) + boxHeight/2)
			var g Group
			i := slices.IndexFunc(s.Queues, func(g Group) bool { return g.Name == name })
			if i >= 0 {
				g = s.Queues[i]
			}
			d := g.Wait
			if d.N == 0 {
				fmt.Fprintf(b, "<text x=\"%d\" y=\"%s\" dominant-baseline=\"middle\" fill=\"#777\">no job ran (%s)</text>\n",
					marginLeft+4, f(cy), esc(runs[ri].Name))
				continue
			}
			c := color(ri)
			fmt.Fprintf(b, "<g><title>%s, %s: %d jobs ran; wait min %s, p25 %s, median %s, p75 %s, p95 %s, max %s, mean %s</title>\n",
				esc(groupName(name)), esc(runs[ri].Name), d.N, fmtDur(d.Min), fmtDur(d.P25), fmtDur(d.P50),
				fmtDur(d.P75), fmtDur(d.P95), fmtDur(d.Max), fmtDur(d.Mean))
			fmt.Fprintf(b, "<line x1=\"%s\" x2=\"%s\" y1=\"%s\" y2=\"%s\" stroke=\"%s\"/>\n", f(x(d.Min)), f(x(d.P95)), f(cy), f(cy), c)
			for _, v := range []float64{d.Min, d.P95} {
				fmt.Fprintf(b, "<line x1=\"%s\" x2=\"%s\" y1=\"%s\" y2=\"%s\" stroke=\"%s\"/>\n",
					f(x(v)), f(x(v)), f(cy-boxHeight/4), f(cy+boxHeight/4), c)
			}
			x0, x1 := x(d.P25), x(d.P75)
			fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\"/>\n",
				f(x0), f(cy-boxHeight/2), f(max(x1-x0, 1)), boxHeight, c, c)
			fmt.Fprintf(b, "<line x1=\"%s\" x2=\"%s\" y1=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
				f(x(d.P50)), f(x(d.P50)), f(cy-boxHeight/2), f(cy+boxHeight/2), c)
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"2.5\" fill=\"#fff\" stroke=\"%s\"/>\n</g>\n", f(x(d.Max)), f(cy), c)
		}
	}
	b.WriteString("</svg>\n")
}

// poolSection writes the slot pools of the runs, a chart and a table per
// pool and run; nothing when no run had pools.
func poolSection(b *strings.Builder, runs []Run, sums []*Summary) {
	if !slices.ContainsFunc(sums, func(s *Summary) bool { return len(s.Pools) > 0 }) {
		return
	}
	b.WriteString("<h2>Slot pools</h2>\n")
	b.WriteString("<p class=\"note\">Share of each pool's slots its queues held, stacked, averaged over each interval. " +
		"Dashed lines: where the configured shares (each queue's SLOT_SHARE over the sum of the pool's) put the top of each queue's band. " +
		"A queue competes while it and another queue of the pool have pending slots; its deviation is the mean of " +
		"|held − share| while it competes, the shares of queues without work going to the others.</p>\n")
	for i, r := range runs {
		for _, p := range sums[i].Pools {
			b.WriteString("<h3>")
			if len(runs) > 1 {
				legendItem(b, i, r.Name)
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "pool %s (%d slots)</h3>\n", esc(groupName(p.Name)), p.Slots)
			b.WriteString("<p class=\"legend\">")
			for k, q := range p.Queues {
				legendItem(b, k, groupName(q.Name))
			}
			b.WriteString("</p>\n")
			poolChart(b, p)
			htmlTable(b, poolHeader(), poolRows(p))
		}
	}
}

// poolChart draws the fractions of a pool's slots its queues held over
// time, stacked in the pool's order, with a dashed line at the top of
// each queue's configured share.
func poolChart(b *strings.Builder, p Pool) {
	const (
		height       = 300
		marginLeft   = timeMarginLeft
		marginBottom = timeMarginBottom
	)
	n := 0
	if len(p.Queues) > 0 {
		n = len(p.Queues[0].Timeline.Busy)
	}
	if p.Slots <= 0 || !(p.Span > 0) || n == 0 {
		b.WriteString("<p>No share data: the pool has no slots, or no time passed while it was sampled.</p>\n")
		return
	}
	tl := p.Queues[0].Timeline
	t0, t1 := tl.Start, tl.Start+tl.Step*float64(n)
	// cum[k][j] is the top of queue k-1's band in bucket j.
	cum := make([][]float64, len(p.Queues)+1)
	cum[0] = make([]float64, n)
	ymax := 1.0
	for k, q := range p.Queues {
		cum[k+1] = make([]float64, n)
		for j := range n {
			v := 0.0
			if j < len(q.Timeline.Busy) {
				v = max(q.Timeline.Busy[j], 0)
			}
			cum[k+1][j] = cum[k][j] + v
			ymax = max(ymax, cum[k+1][j])
		}
	}
	ystep := 0.2
	if ymax > 1.2 {
		ystep = 0.5
	}
	ymax = math.Ceil(ymax/ystep-1e-9) * ystep
	pw, ph := float64(chartWidth-marginLeft-marginRight), float64(height-marginTop-marginBottom)
	x := func(t float64) float64 { return marginLeft + pw*(t-t0)/(t1-t0) }
	y := func(v float64) float64 { return marginTop + ph*(1-v/ymax) }

	fmt.Fprintf(b, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"shares of pool %s over time\">\n",
		chartWidth, height, chartWidth, height, esc(groupName(p.Name)))
	for v := 0.0; v <= ymax+1e-9; v += ystep {
		fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" stroke=\"#e5e5e5\"/>\n", marginLeft, chartWidth-marginRight, f(y(v)), f(y(v)))
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
			marginLeft-6, f(y(v)), strconv.FormatFloat(100*v, 'f', 0, 64))
	}
	// Each band runs from the left edge through the middle of each
	// bucket to the right edge.
	xs := make([]float64, 0, n+2)
	xs = append(xs, x(t0))
	for j := range n {
		xs = append(xs, x(tl.Start+(float64(j)+0.5)*tl.Step))
	}
	xs = append(xs, x(t1))
	at := func(v []float64, i int) float64 { return v[min(max(i-1, 0), n-1)] }
	for k, q := range p.Queues {
		fmt.Fprintf(b, "<polygon fill=\"%s\" fill-opacity=\"0.55\" stroke=\"none\" points=\"", color(k))
		for i, xi := range xs {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f(xi) + "," + f(y(at(cum[k+1], i))))
		}
		for i := len(xs) - 1; i >= 0; i-- {
			b.WriteString(" " + f(xs[i]) + "," + f(y(at(cum[k], i))))
		}
		fmt.Fprintf(b, "\"><title>%s: held %s of the pool on average, share %s</title></polygon>\n",
			esc(groupName(q.Name)), fmtPct(q.Held), fmtPct(q.NormalisedShare))
	}
	top := 0.0
	for k, q := range p.Queues {
		top += q.NormalisedShare
		yt := y(top)
		fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\">"+
			"<title>%s: share %s</title></line>\n", marginLeft, chartWidth-marginRight, f(yt), f(yt), color(k), esc(groupName(q.Name)), fmtPct(q.NormalisedShare))
	}
	timeAxes(b, t0, t1, height, "pool slots held (%)")
	b.WriteString("</svg>\n")
}

// timeAxes draws the axes of a chart over time (t0 to t1 seconds, height
// pixels high): the time ticks and their labels along the bottom, the two
// axis lines, and their titles, yTitle for the vertical one.
func timeAxes(b *strings.Builder, t0, t1 float64, height int, yTitle string) {
	const (
		marginLeft   = timeMarginLeft
		marginBottom = timeMarginBottom
	)
	unit, unitName := timeUnit(t1 - t0)
	pw, ph := float64(chartWidth-marginLeft-marginRight), float64(height-marginTop-marginBottom)
	x := func(t float64) float64 { return marginLeft + pw*(t-t0)/(t1-t0) }
	bottom := float64(height - marginBottom)
	for _, tick := range niceTicks(t0/unit, t1/unit, 8) {
		xt := x(tick * unit)
		fmt.Fprintf(b, "<line x1=\"%s\" x2=\"%s\" y1=\"%s\" y2=\"%s\" stroke=\"#555\"/>\n", f(xt), f(xt), f(bottom), f(bottom+5))
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", f(xt), f(bottom+18), tickLabel(tick))
	}
	fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" stroke=\"#555\"/>\n", marginLeft, chartWidth-marginRight, f(bottom), f(bottom))
	fmt.Fprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%s\" stroke=\"#555\"/>\n", marginLeft, marginLeft, marginTop, f(bottom))
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\">time since trace start (%s)</text>\n",
		f(marginLeft+pw/2), height-8, unitName)
	fmt.Fprintf(b, "<text transform=\"translate(16 %s) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		f(marginTop+ph/2), esc(yTitle))
}
