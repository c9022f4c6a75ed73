package simstats

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TopUsers is the number of users, the most jobs first, that WriteText
// lists.
const TopUsers = 20

// WriteText writes a report for a reader: the totals, a table of the
// queues (with their preemptions when some job was preempted), the slot
// pools when the run had some, and the TopUsers users with the most jobs.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Totals\n")
	writeTable(&b, nil, totalsRows([]*Summary{s}, false))
	b.WriteString("\n")
	writeTable(&b, [][]string{{"", "mean", "p50", "p95", "max"}}, [][]string{
		distRow("wait", s.Wait, fmtDur),
		distRow("bounded slowdown", s.Slowdown, fmtSlowdown),
	})
	fmt.Fprintf(&b, "\nQueues (%d)\n", len(s.Queues))
	header, rows := queueTable(s.Queues)
	writeTable(&b, [][]string{header}, rows)
	writePools(&b, s.Pools)
	writeClasses(&b, s.ServiceClasses)

	users := slices.Clone(s.Users)
	slices.SortStableFunc(users, func(a, b Group) int { return cmp.Compare(b.Jobs, a.Jobs) })
	if len(users) > TopUsers {
		fmt.Fprintf(&b, "\nUsers (top %d of %d by jobs)\n", TopUsers, len(users))
		users = users[:TopUsers]
	} else {
		fmt.Fprintf(&b, "\nUsers (%d)\n", len(users))
	}
	writeTable(&b, [][]string{groupHeader("user")}, groupRows(users))
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteComparison writes two runs side by side with the change from the
// first to the second: the administrator's what-if, run before and after
// a configuration change.
func WriteComparison(w io.Writer, names [2]string, a, b *Summary) error {
	a, b = orEmpty(a), orEmpty(b)
	var out strings.Builder
	fmt.Fprintf(&out, "Comparison: %s vs %s\n", oneLine(names[0]), oneLine(names[1]))
	type metric struct {
		name  string
		a, b  float64
		value func(float64) string
		delta func(a, b float64) string
		// na and nb are the sizes of the samples of a distribution
		// statistic (0: no value); -1 for a plain number.
		na, nb int
	}
	count := func(v float64) string { return strconv.Itoa(int(v)) }
	num := func(name string, a, b float64, value func(float64) string, delta func(a, b float64) string) metric {
		return metric{name, a, b, value, delta, -1, -1}
	}
	wait := func(name string, get func(Dist) float64) metric {
		return metric{"wait " + name, get(a.Wait), get(b.Wait), fmtDur, deltaDur, a.Wait.N, b.Wait.N}
	}
	slowdown := func(name string, get func(Dist) float64) metric {
		return metric{"slowdown " + name, get(a.Slowdown), get(b.Slowdown), fmtSlowdown, deltaFloat, a.Slowdown.N, b.Slowdown.N}
	}
	mean := func(d Dist) float64 { return d.Mean }
	p50 := func(d Dist) float64 { return d.P50 }
	p95 := func(d Dist) float64 { return d.P95 }
	maxOf := func(d Dist) float64 { return d.Max }
	metrics := []metric{
		num("jobs", float64(a.Jobs), float64(b.Jobs), count, deltaCount),
		num("finished", float64(a.Finished), float64(b.Finished), count, deltaCount),
		num("exited", float64(a.Exited), float64(b.Exited), count, deltaCount),
		num("pending", float64(a.Pending), float64(b.Pending), count, deltaCount),
		num("skipped", float64(a.Skipped), float64(b.Skipped), count, deltaCount),
		num("makespan", a.Makespan, b.Makespan, fmtDur, deltaDur),
		num("utilisation", a.Utilisation, b.Utilisation, fmtPct, deltaPct),
		num("peak busy slots", float64(a.PeakBusySlots), float64(b.PeakBusySlots), count, deltaCount),
		wait("mean", mean), wait("p50", p50), wait("p95", p95), wait("max", maxOf),
		slowdown("mean", mean), slowdown("p50", p50), slowdown("p95", p95), slowdown("max", maxOf),
		num("preemptions", float64(a.Preemptions), float64(b.Preemptions), count, deltaCount),
		num("forwards", float64(a.Forwards), float64(b.Forwards), count, deltaCount),
	}
	if a.Requeues > 0 || b.Requeues > 0 {
		metrics = append(metrics, num("requeues", float64(a.Requeues), float64(b.Requeues), count, deltaCount))
	}
	if a.Exceptions.any() || b.Exceptions.any() {
		ea, eb := a.Exceptions, b.Exceptions
		metrics = append(metrics,
			num("overrun jobs", float64(ea.Overrun), float64(eb.Overrun), count, deltaCount),
			num("underrun jobs", float64(ea.Underrun), float64(eb.Underrun), count, deltaCount),
			num("idle jobs", float64(ea.Idle), float64(eb.Idle), count, deltaCount),
			num("hosts closed (exit rate)", float64(ea.HostsClosed), float64(eb.HostsClosed), count, deltaCount))
	}
	var rows [][]string
	for _, m := range metrics {
		va, vb, d := "-", "-", "-"
		if m.na != 0 {
			va = m.value(m.a)
		}
		if m.nb != 0 {
			vb = m.value(m.b)
		}
		if m.na != 0 && m.nb != 0 {
			d = m.delta(m.a, m.b)
		}
		rows = append(rows, []string{m.name, va, vb, d})
	}
	writeTable(&out, [][]string{{"", oneLine(names[0]), oneLine(names[1]), "change"}}, rows)

	// Queues by name, from either run: a queue may exist in one only.
	qa, qb := byName(a.Queues), byName(b.Queues)
	var qnames []string
	for _, g := range a.Queues {
		qnames = append(qnames, g.Name)
	}
	for _, g := range b.Queues {
		if _, ok := qa[g.Name]; !ok {
			qnames = append(qnames, g.Name)
		}
	}
	slices.Sort(qnames)
	type col struct {
		name  string
		get   func(Group) float64
		has   func(Group) bool
		value func(float64) string
		delta func(a, b float64) string
	}
	always := func(Group) bool { return true }
	ran := func(g Group) bool { return g.Wait.N > 0 }
	cols := []col{
		{"jobs", func(g Group) float64 { return float64(g.Jobs) }, always, count, deltaCount},
		{"wait mean", func(g Group) float64 { return g.Wait.Mean }, ran, fmtDur, deltaDur},
		{"wait p95", func(g Group) float64 { return g.Wait.P95 }, ran, fmtDur, deltaDur},
		{"slowdown mean", func(g Group) float64 { return g.Slowdown.Mean }, ran, fmtSlowdown, deltaFloat},
	}
	if preempted(a.Queues) || preempted(b.Queues) {
		cols = append(cols, col{"preemptions", func(g Group) float64 { return float64(g.Preemptions) }, always, count, deltaCount})
	}
	rows = rows[:0]
	for _, q := range qnames {
		ga, oka := qa[q]
		gb, okb := qb[q]
		row := []string{groupName(q)}
		for _, c := range cols {
			hasA, hasB := oka && c.has(ga), okb && c.has(gb)
			va, vb, d := "-", "-", "-"
			if hasA {
				va = c.value(c.get(ga))
			}
			if hasB {
				vb = c.value(c.get(gb))
			}
			if hasA && hasB {
				d = c.delta(c.get(ga), c.get(gb))
			}
			row = append(row, va, vb, d)
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(&out, "\nQueues (a: %s, b: %s)\n", oneLine(names[0]), oneLine(names[1]))
	header := [][]string{{""}, {"queue"}}
	for _, c := range cols {
		header[0] = append(header[0], c.name, "", "")
		header[1] = append(header[1], "a", "b", "change")
	}
	writeTable(&out, header, rows)
	comparePools(&out, a.Pools, b.Pools)
	_, err := io.WriteString(w, out.String())
	return err
}

// writePools writes a table per slot pool: each queue's SLOT_SHARE, its
// share of the pool, the mean fraction of the pool it held, and how long
// it competed, what it held then and how far that was from its share.
// It writes nothing for no pools.
func writePools(b *strings.Builder, pools []Pool) {
	if len(pools) == 0 {
		return
	}
	for _, p := range pools {
		fmt.Fprintf(b, "\nSlot pool %s (%d slots, over %s)\n", groupName(p.Name), p.Slots, fmtDur(p.Span))
		writeTable(b, [][]string{poolHeader()}, poolRows(p))
	}
	b.WriteString(poolNote + "\n")
}

// poolNote explains the columns of the pool tables.
const poolNote = "  share: SLOT_SHARE over the sum of the pool's; competing: the queue and another of the\n" +
	"  pool had pending slots; deviation: mean |held − share| while competing, the shares of\n" +
	"  queues without work going to the others"

func poolHeader() []string {
	return []string{"queue", "SLOT_SHARE", "share", "held", "competing", "held competing", "deviation"}
}

func poolRows(p Pool) [][]string {
	rows := make([][]string, 0, len(p.Queues))
	sampled := p.Slots > 0 && p.Span > 0
	for _, q := range p.Queues {
		held, heldComp, dev := "-", "-", "-"
		if sampled {
			held = fmtPct(q.Held)
		}
		if sampled && q.CompetingSeconds > 0 {
			heldComp, dev = fmtPct(q.HeldCompeting), fmtPt(q.Deviation)
		}
		rows = append(rows, []string{
			groupName(q.Name), strconv.Itoa(q.SlotShare), fmtPct(q.NormalisedShare),
			held, fmtDur(q.CompetingSeconds), heldComp, dev,
		})
	}
	return rows
}

// comparePools writes the slot pools of two runs side by side, each pool
// and queue by name from either run: SLOT_SHARE, the fraction held while
// competing and the deviation from the share. It writes nothing when
// neither run had pools.
func comparePools(out *strings.Builder, a, b []Pool) {
	if len(a) == 0 && len(b) == 0 {
		return
	}
	find := func(ps []Pool, name string) (Pool, bool) {
		i := slices.IndexFunc(ps, func(p Pool) bool { return p.Name == name })
		if i < 0 {
			return Pool{}, false
		}
		return ps[i], true
	}
	var names []string
	for _, p := range slices.Concat(a, b) {
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	for _, name := range names {
		pa, oka := find(a, name)
		pb, okb := find(b, name)
		size := func(p Pool, ok bool) string {
			if !ok {
				return "-"
			}
			return strconv.Itoa(p.Slots) + " slots"
		}
		fmt.Fprintf(out, "\nSlot pool %s (a: %s, b: %s)\n", groupName(name), size(pa, oka), size(pb, okb))
		var queues []string
		for _, q := range slices.Concat(pa.Queues, pb.Queues) {
			if !slices.Contains(queues, q.Name) {
				queues = append(queues, q.Name)
			}
		}
		var rows [][]string
		for _, qn := range queues {
			// queue returns the queue in a run's pool, whether it is
			// there, and whether it competed.
			queue := func(p Pool) (PoolQueue, bool, bool) {
				i := slices.IndexFunc(p.Queues, func(q PoolQueue) bool { return q.Name == qn })
				if i < 0 {
					return PoolQueue{}, false, false
				}
				return p.Queues[i], true, p.Slots > 0 && p.Span > 0 && p.Queues[i].CompetingSeconds > 0
			}
			qa, ina, compA := queue(pa)
			qb, inb, compB := queue(pb)
			row := []string{groupName(qn)}
			for _, q := range []struct {
				q  PoolQueue
				in bool
			}{{qa, ina}, {qb, inb}} {
				if q.in {
					row = append(row, strconv.Itoa(q.q.SlotShare))
				} else {
					row = append(row, "-")
				}
			}
			for _, c := range []struct {
				get   func(PoolQueue) float64
				value func(float64) string
			}{
				{func(q PoolQueue) float64 { return q.HeldCompeting }, fmtPct},
				{func(q PoolQueue) float64 { return q.Deviation }, fmtPt},
			} {
				va, vb, d := "-", "-", "-"
				if compA {
					va = c.value(c.get(qa))
				}
				if compB {
					vb = c.value(c.get(qb))
				}
				if compA && compB {
					d = deltaPct(c.get(qa), c.get(qb))
				}
				row = append(row, va, vb, d)
			}
			rows = append(rows, row)
		}
		writeTable(out, [][]string{
			{"", "SLOT_SHARE", "", "held competing", "", "", "deviation", "", ""},
			{"queue", "a", "b", "a", "b", "change", "a", "b", "change"},
		}, rows)
	}
	out.WriteString(poolNote + "\n")
}

func orEmpty(s *Summary) *Summary {
	if s == nil {
		return Summarize(nil, 0)
	}
	return s
}

func byName(gs []Group) map[string]Group {
	m := make(map[string]Group, len(gs))
	for _, g := range gs {
		m[g.Name] = g
	}
	return m
}

// totalsRows returns the totals of each run as rows of a table, a column
// per run; with html the distributions are spelled out in full.
func totalsRows(runs []*Summary, html bool) [][]string {
	type row struct {
		name string
		get  func(*Summary) string
	}
	itoa := func(f func(*Summary) int) func(*Summary) string {
		return func(s *Summary) string { return strconv.Itoa(f(s)) }
	}
	rows := []row{
		{"jobs", itoa(func(s *Summary) int { return s.Jobs })},
		{"finished (DONE)", itoa(func(s *Summary) int { return s.Finished })},
		{"exited (EXIT)", itoa(func(s *Summary) int { return s.Exited })},
		{"pending (PEND)", itoa(func(s *Summary) int { return s.Pending })},
		{"skipped", itoa(func(s *Summary) int { return s.Skipped })},
	}
	if slices.ContainsFunc(runs, func(s *Summary) bool { return s.Held > 0 }) {
		rows = append(rows, row{"held (PSUSP)", itoa(func(s *Summary) int { return s.Held })})
	}
	if slices.ContainsFunc(runs, func(s *Summary) bool { return s.Other > 0 }) {
		rows = append(rows, row{"other states", itoa(func(s *Summary) int { return s.Other })})
	}
	if slices.ContainsFunc(runs, func(s *Summary) bool { return s.Invalid > 0 }) {
		rows = append(rows, row{"invalid times", itoa(func(s *Summary) int { return s.Invalid })})
	}
	rows = append(rows,
		row{"makespan", func(s *Summary) string {
			return fmtDur(s.Makespan) + " (" + strconv.FormatFloat(s.Makespan, 'f', 0, 64) + " s)"
		}},
		row{"slots", itoa(func(s *Summary) int { return s.TotalSlots })},
		row{"utilisation", func(s *Summary) string { return fmtPct(s.Utilisation) }},
		row{"peak busy slots", itoa(func(s *Summary) int { return s.PeakBusySlots })},
		row{"preemptions", itoa(func(s *Summary) int { return s.Preemptions })},
		row{"forwards", itoa(func(s *Summary) int { return s.Forwards })},
	)
	if slices.ContainsFunc(runs, func(s *Summary) bool { return s.Requeues > 0 }) {
		rows = append(rows, row{"requeues", itoa(func(s *Summary) int { return s.Requeues })})
	}
	if slices.ContainsFunc(runs, func(s *Summary) bool { return s.Exceptions.any() }) {
		rows = append(rows,
			row{"overrun jobs", itoa(func(s *Summary) int { return s.Exceptions.Overrun })},
			row{"underrun jobs", itoa(func(s *Summary) int { return s.Exceptions.Underrun })},
			row{"idle jobs", itoa(func(s *Summary) int { return s.Exceptions.Idle })},
			row{"hosts closed (exit rate)", itoa(func(s *Summary) int { return s.Exceptions.HostsClosed })},
		)
	}
	if html {
		for _, d := range []struct {
			name string
			get  func(*Summary) Dist
			f    func(float64) string
		}{
			{"wait", func(s *Summary) Dist { return s.Wait }, fmtDur},
			{"bounded slowdown", func(s *Summary) Dist { return s.Slowdown }, fmtSlowdown},
		} {
			for _, st := range []struct {
				name string
				get  func(Dist) float64
			}{
				{"mean", func(d Dist) float64 { return d.Mean }},
				{"p50", func(d Dist) float64 { return d.P50 }},
				{"p95", func(d Dist) float64 { return d.P95 }},
				{"max", func(d Dist) float64 { return d.Max }},
			} {
				rows = append(rows, row{d.name + " " + st.name, func(s *Summary) string { return stat(d.get(s), st.get(d.get(s)), d.f) }})
			}
		}
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = []string{r.name}
		for _, s := range runs {
			out[i] = append(out[i], r.get(s))
		}
	}
	return out
}

// queueTable returns the header and the rows of a table of queues, with
// a column of their preemptions when some job of them was preempted.
func queueTable(gs []Group) ([]string, [][]string) {
	header, rows := groupHeader("queue"), groupRows(gs)
	if !preempted(gs) {
		return header, rows
	}
	header = append(header, "preemptions")
	for i, g := range gs {
		rows[i] = append(rows[i], strconv.Itoa(g.Preemptions))
	}
	return header, rows
}

// preempted reports whether a job of the groups was preempted.
func preempted(gs []Group) bool {
	return slices.ContainsFunc(gs, func(g Group) bool { return g.Preemptions != 0 })
}

func groupHeader(kind string) []string {
	return []string{kind, "jobs", "done", "exit", "pend", "skip", "wait mean", "p50", "p95", "max", "slowdown mean", "p95"}
}

func groupRows(gs []Group) [][]string {
	rows := make([][]string, 0, len(gs))
	for _, g := range gs {
		rows = append(rows, []string{
			groupName(g.Name),
			strconv.Itoa(g.Jobs), strconv.Itoa(g.Finished), strconv.Itoa(g.Exited),
			strconv.Itoa(g.Pending), strconv.Itoa(g.Skipped),
			stat(g.Wait, g.Wait.Mean, fmtDur), stat(g.Wait, g.Wait.P50, fmtDur),
			stat(g.Wait, g.Wait.P95, fmtDur), stat(g.Wait, g.Wait.Max, fmtDur),
			stat(g.Slowdown, g.Slowdown.Mean, fmtSlowdown), stat(g.Slowdown, g.Slowdown.P95, fmtSlowdown),
		})
	}
	return rows
}

func distRow(name string, d Dist, f func(float64) string) []string {
	return []string{name, stat(d, d.Mean, f), stat(d, d.P50, f), stat(d, d.P95, f), stat(d, d.Max, f)}
}

// stat formats a statistic v of d, or "-" when d is of no values: a
// group whose jobs never ran has no wait, which is not a wait of 0 s.
func stat(d Dist, v float64, f func(float64) string) string {
	if d.N == 0 {
		return "-"
	}
	return f(v)
}

// groupName names a group in a report; the empty name (jobs with no
// queue or user) would otherwise be an invisible cell.
func groupName(name string) string {
	if name == "" {
		return "(none)"
	}
	return oneLine(name)
}

// oneLine keeps a name from breaking the layout of a table.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// writeTable writes rows under header rows, two spaces between columns,
// the first column left-aligned and the others right-aligned (numbers).
func writeTable(b *strings.Builder, header, rows [][]string) {
	all := append(slices.Clone(header), rows...)
	var width []int
	for _, r := range all {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range all {
		var line strings.Builder
		line.WriteString("  ")
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				line.WriteString(c + pad)
			} else {
				line.WriteString("  " + pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

// fmtDur formats seconds for a reader: "0s", "4.5s", "42s", "12m05s",
// "3h04m", "2d03h".
func fmtDur(sec float64) string {
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	if sec == 0 {
		return "0s"
	}
	if sec < 9.95 {
		return sign + strconv.FormatFloat(sec, 'f', 1, 64) + "s"
	}
	r := int64(math.Round(sec))
	switch {
	case r < 60:
		return fmt.Sprintf("%s%ds", sign, r)
	case r < 3600:
		return fmt.Sprintf("%s%dm%02ds", sign, r/60, r%60)
	case r < 86400:
		return fmt.Sprintf("%s%dh%02dm", sign, r/3600, r%3600/60)
	}
	return fmt.Sprintf("%s%dd%02dh", sign, r/86400, r%86400/3600)
}

func fmtPct(f float64) string      { return strconv.FormatFloat(100*f, 'f', 1, 64) + " %" }
func fmtPt(f float64) string       { return strconv.FormatFloat(100*f, 'f', 1, 64) + " pt" }
func fmtSlowdown(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// relative returns the change from a to b in per cent, or "" when a is 0.
func relative(a, b float64) string {
	if a == 0 {
		return ""
	}
	return " (" + plus(strconv.FormatFloat(100*(b-a)/math.Abs(a), 'f', 1, 64)) + " %)"
}

func plus(s string) string {
	if !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}

func deltaCount(a, b float64) string {
	if a == b {
		return "0"
	}
	return plus(strconv.Itoa(int(b-a))) + relative(a, b)
}

// The deltas print "~0" for a change too small to show in the format of
// the values, rather than a signed zero such as "-0.00".

func deltaDur(a, b float64) string {
	if a == b {
		return "0"
	}
	if math.Abs(b-a) < 0.05 {
		return "~0"
	}
	return plus(fmtDur(b-a)) + relative(a, b)
}

func deltaFloat(a, b float64) string {
	if a == b {
		return "0"
	}
	if math.Abs(b-a) < 0.005 {
		return "~0"
	}
	return plus(fmtSlowdown(b-a)) + relative(a, b)
}

// deltaPct gives the change of a fraction in percentage points: from 50 %
// to 60 % is +10 points, not +20 %.
func deltaPct(a, b float64) string {
	if a == b {
		return "0"
	}
	if math.Abs(b-a) < 0.0005 {
		return "~0"
	}
	return plus(strconv.FormatFloat(100*(b-a), 'f', 1, 64)) + " pt"
}
