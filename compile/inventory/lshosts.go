package inventory

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// ReadLSHosts builds an inventory from the text output of `lshosts -w` and,
// when lsload is not nil, of `lsload -w`.
//
// Each output is a header line and one row per host, cells separated by
// blanks; columns are found by their names in the header, in any order and
// any case, so that the nprocs, ncores, nthreads and maxtmp columns some
// versions print are read when present. lshosts columns: HOST_NAME type
// model cpuf ncpus nprocs ncores nthreads maxmem maxswp maxtmp server
// RESOURCES. RESOURCES, when it is the last column, is a parenthesised
// list that may hold blanks ("(mg fs)"); "!" marks an exclusive resource.
// lsload columns: HOST_NAME status, then load indices (r15s r1m r15m ut pg
// io ls it tmp swp mem) and any site indices (lsload -l). A "-" cell is
// unknown; a "*" before a value (the index that made the host busy) is
// dropped; ut is a percentage ("3%"); memory cells carry units ("15.6G"),
// bare numbers being in def. An lsload row may stop after the status, as
// lsload prints unavailable hosts. A repeated header line starts a new
// table.
//
// Problems are diagnostics: CodeInventory for rows or cells that cannot be
// read (the host, or the value, is left out), CodeInventoryWarn for unknown
// columns and statuses and for an lsload row whose host lshosts does not
// list. The inventory is never nil; its hosts are in lshosts order, with
// status "ok" unless lsload says otherwise, and Slots and MaxSlots unknown
// (-1). A nil lshosts gives an empty inventory. ReadLSHosts does not panic
// on any input; an output over MaxBytes or MaxHosts is an error, and lsload
// is then not read.
func ReadLSHosts(lshosts, lsload *lang.Source, def compile.Unit) (*Inventory, lang.Diagnostics) {
	t := &invTableReader{def: def, adder: newInvAdder(), where: map[*compile.Host]map[string]lang.Span{}}
	if lshosts != nil && t.fits(lshosts) && t.lshosts(lshosts) && lsload != nil && t.fits(lsload) {
		t.lsload(lsload)
	}
	for _, h := range t.adder.inv.Hosts {
		invCheckHost(&t.invReport, h, func(field string) lang.Span {
			if sp, ok := t.where[h][field]; ok {
				return sp
			}
			return h.Span
		})
	}
	t.diags.Sort()
	return t.adder.inv, t.diags
}

// invTableReader reads lshosts and lsload output.
type invTableReader struct {
	invReport
	def   compile.Unit
	adder *invAdder
	// where holds the cells of each host's values, by field ("maxmem",
	// "load mem").
	where map[*compile.Host]map[string]lang.Span
}

// cell records where field of h is written.
func (t *invTableReader) cell(h *compile.Host, field string, sp lang.Span) {
	if t.where[h] == nil {
		t.where[h] = map[string]lang.Span{}
	}
	t.where[h][field] = sp
}

// fits reports whether src is within MaxBytes, and reports it
// when not.
func (t *invTableReader) fits(src *lang.Source) bool {
	if len(src.Text) > MaxBytes {
		t.errorf(src.SpanOf(0, 0), "%s is %d bytes, more than the limit of %d MiB", src.Name, len(src.Text), MaxBytes>>20)
		return false
	}
	return true
}

// A invCell is one blank-separated word of a table line.
type invCell struct {
	text       string
	start, end int
}

// invTextRows splits src into rows of cells, one per line that is not blank.
func invTextRows(text string) [][]invCell {
	var rows [][]invCell
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		if row := invSplitCells(text, off, end); len(row) > 0 {
			rows = append(rows, row)
		}
		off = end + 1
	}
	return rows
}

// invSplitCells splits text[start:end] at blanks.
func invSplitCells(text string, start, end int) []invCell {
	var row []invCell
	for i := start; i < end; {
		for i < end && invTableBlank(text[i]) {
			i++
		}
		j := i
		for j < end && !invTableBlank(text[j]) {
			j++
		}
		if j > i {
			row = append(row, invCell{text: text[i:j], start: i, end: j})
		}
		i = j
	}
	return row
}

func invTableBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// invCellSpan returns the span of cells c[i:j] in src.
func invCellSpan(src *lang.Source, c []invCell) lang.Span {
	return src.SpanOf(c[0].start, c[len(c)-1].end)
}

// invIsHeader reports whether row is a header line: it starts with HOST_NAME.
func invIsHeader(row []invCell) bool { return strings.EqualFold(row[0].text, "HOST_NAME") }

// invLSHostsColumn returns the canonical name of an lshosts column, or "".
func invLSHostsColumn(name string) string {
	n := strings.ToLower(name)
	switch n {
	case "type", "model", "cpuf", "ncpus", "nprocs", "ncores", "nthreads", "maxmem", "maxswp", "maxtmp", "server", "resources":
		return n
	}
	return ""
}

// header reads a header row into column names ("" for a column that is
// not read), with the first column (HOST_NAME) at index 0. known returns
// the canonical name of a column, or "" for an unknown one.
func (t *invTableReader) header(src *lang.Source, row []invCell, what string, known func(string) string) []string {
	cols := make([]string, len(row))
	first := map[string]invCell{}
	for i, c := range row[1:] {
		name := known(c.text)
		switch {
		case name == "":
			t.warnf(invCellSpan(src, row[i+1:i+2]), "unknown column %q in %s output; its values are ignored", c.text, what)
			continue
		case first[name] != invCell{}:
			d := t.errorf(invCellSpan(src, row[i+1:i+2]), "column %q appears twice in the %s header; the second is ignored", c.text, what)
			invNote(d, src.SpanOf(first[name].start, first[name].end), "%q is first here", first[name].text)
			continue
		}
		first[name] = c
		cols[i+1] = name
	}
	return cols
}

// lshosts reads the lshosts output and reports whether it had a header.
func (t *invTableReader) lshosts(src *lang.Source) bool {
	rows := invTextRows(src.Text)
	if len(rows) == 0 || !invIsHeader(rows[0]) {
		sp := src.SpanOf(0, 0)
		if len(rows) > 0 {
			sp = invCellSpan(src, rows[0])
		}
		t.errorf(sp, "%s does not start with the lshosts header line \"HOST_NAME type model cpuf ...\"", src.Name)
		return false
	}
	var cols []string
	for _, row := range rows {
		if invIsHeader(row) {
			cols = t.header(src, row, "lshosts", invLSHostsColumn)
			continue
		}
		if len(t.adder.inv.Hosts) >= MaxHosts {
			t.errorf(invCellSpan(src, row), "%s lists more than %d hosts; the rest are not read", src.Name, MaxHosts)
			break
		}
		if h := t.lshostsRow(src, row, cols); h != nil {
			t.adder.add(&t.invReport, h)
		}
	}
	return true
}

// lshostsRow reads one host row; nil when its values do not fit the
// header.
func (t *invTableReader) lshostsRow(src *lang.Source, row []invCell, cols []string) *compile.Host {
	vals := invGroupParens(row)
	if len(vals) != len(cols) {
		t.errorf(invCellSpan(src, row), "lshosts row has %d values but the header has %d columns; the row is ignored", len(vals), len(cols))
		return nil
	}
	h := newInvHost(row[0].text, invCellSpan(src, row[:1]))
	for i, col := range cols[1:] {
		t.lshostsCell(src, h, col, vals[i+1])
	}
	return h
}

// invGroupParens groups the cells of a row into values: a cell that opens
// a parenthesis runs to the cell that closes it, or to the end of the row,
// so that "(mg fs)" is one value.
func invGroupParens(row []invCell) [][]invCell {
	var out [][]invCell
	for i := 0; i < len(row); {
		j := i + 1
		if strings.HasPrefix(row[i].text, "(") {
			for j < len(row) && !strings.HasSuffix(row[j-1].text, ")") {
				j++
			}
		}
		out = append(out, row[i:j])
		i = j
	}
	return out
}

// lshostsCell reads the cells of column col into h.
func (t *invTableReader) lshostsCell(src *lang.Source, h *compile.Host, col string, cells []invCell) {
	c := cells[0]
	if c.text == "-" && col != "resources" || col == "" {
		return
	}
	sp := invCellSpan(src, cells)
	what := fmt.Sprintf("%s of host %q", col, h.Name)
	if len(cells) > 1 && col != "resources" {
		t.errorf(sp, "%s must be one word, not %q", what, src.Text[sp.Start:sp.End])
		return
	}
	t.cell(h, col, sp)
	switch col {
	case "type":
		h.Type = c.text
	case "model":
		h.Model = c.text
	case "cpuf", "ncpus", "nprocs", "ncores", "nthreads":
		if v, ok := t.number(sp, c.text, what); ok {
			*invHostField(h, col) = v
		}
	case "maxmem", "maxswp", "maxtmp":
		if v, ok := t.memory(sp, c.text, what); ok {
			*invHostField(h, col) = v
		}
	case "server":
		t.serverCell(sp, h, c.text)
	case "resources":
		t.resourcesCell(src, h, cells)
	}
}

// invHostField returns the field of h that the numeric lshosts column col
// fills.
func invHostField(h *compile.Host, col string) *float64 {
	switch col {
	case "cpuf":
		return &h.Cpuf
	case "ncpus":
		return &h.Ncpus
	case "nprocs":
		return &h.Nprocs
	case "ncores":
		return &h.Ncores
	case "nthreads":
		return &h.Nthreads
	case "maxmem":
		return &h.Maxmem
	case "maxswp":
		return &h.Maxswp
	}
	return &h.Maxtmp
}

// serverCell reads the server column: Yes, No or Dyn (a dynamic host,
// which is a server).
func (t *invTableReader) serverCell(sp lang.Span, h *compile.Host, s string) {
	switch strings.ToLower(s) {
	case "yes", "dyn":
		h.Server = true
	case "no":
		h.Server = false
	default:
		t.errorf(sp, "server of host %q must be Yes, No or Dyn, not %q", h.Name, s)
	}
}

// resourcesCell reads the RESOURCES column: "(mg !fs)", with Boolean
// resources, exclusive ones marked "!", and name=value pairs, which are
// site resources with values.
func (t *invTableReader) resourcesCell(src *lang.Source, h *compile.Host, cells []invCell) {
	sp := invCellSpan(src, cells)
	list := src.Text[sp.Start:sp.End]
	if len(list) < 2 || list[0] != '(' || list[len(list)-1] != ')' {
		t.errorf(sp, "RESOURCES of host %q must be in parentheses, like \"(fs ssd)\", not %q", h.Name, list)
		return
	}
	for _, c := range invSplitCells(src.Text, sp.Start+1, sp.End-1) {
		name, value, hasValue := strings.Cut(c.text, "=")
		excl := strings.HasPrefix(name, "!")
		name = strings.TrimPrefix(name, "!")
		if why := invResourceNameProblem(name); why != "" {
			t.warnf(src.SpanOf(c.start, c.end), "resource %q of host %q %s; it is ignored", c.text, h.Name, why)
			continue
		}
		switch n, rest := compile.SplitDecimal(value); {
		case !hasValue:
			addBoolean(h, name, excl)
		case n != "" && rest == "":
			if v, err := strconv.ParseFloat(n, 64); err == nil {
				h.Numbers[name] = v
			}
		default:
			h.Strings[name] = value
		}
	}
}

// number reads a cell holding an unsigned decimal number.
func (t *invTableReader) number(sp lang.Span, s, what string) (float64, bool) {
	num, rest := compile.SplitDecimal(s)
	if num == "" || rest != "" {
		t.errorf(sp, "%s must be a number, not %q", what, s)
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.errorf(sp, "%s is too large: %q", what, s)
		return 0, false
	}
	return v, true
}

// memory reads a cell holding a memory amount.
func (t *invTableReader) memory(sp lang.Span, s, what string) (float64, bool) {
	v, err := compile.ParseMemory(s, t.def)
	if err != nil {
		t.errorf(sp, "%s: %v", what, err)
		return 0, false
	}
	return v, true
}

// invLSLoadColumn returns the canonical name of an lsload column: a load
// index, or a site index name as written, or "" for one that cannot be a
// resource name.
func invLSLoadColumn(name string) string {
	if c, ok := invLoadIndex(name); ok {
		return c
	}
	if c, ok := invLoadIndex(strings.ToLower(name)); ok {
		return c
	}
	if invResourceNameProblem(name) != "" {
		return ""
	}
	return name
}

// lsload reads the lsload output into the hosts read from lshosts.
func (t *invTableReader) lsload(src *lang.Source) {
	rows := invTextRows(src.Text)
	if len(rows) == 0 || !invIsHeader(rows[0]) || len(rows[0]) < 2 || !strings.EqualFold(rows[0][1].text, "status") {
		sp := src.SpanOf(0, 0)
		if len(rows) > 0 {
			sp = invCellSpan(src, rows[0])
		}
		t.errorf(sp, "%s does not start with the lsload header line \"HOST_NAME status r15s ...\"", src.Name)
		return
	}
	var cols []string
	seen := map[string]lang.Span{}
	for n, row := range rows {
		if invIsHeader(row) {
			cols = t.lsloadHeader(src, row)
			continue
		}
		if n > MaxHosts {
			t.errorf(invCellSpan(src, row), "%s lists more than %d hosts; the rest are not read", src.Name, MaxHosts)
			return
		}
		name := row[0].text
		sp := invCellSpan(src, row[:1])
		if first, ok := seen[name]; ok {
			d := t.errorf(sp, "host %q appears twice in %s; the second row is ignored", name, src.Name)
			invNote(d, first, "host %q is first here", name)
			continue
		}
		seen[name] = sp
		h := t.adder.seen[name]
		if h == nil {
			t.warnf(sp, "host %q is in %s but not in the lshosts output; its load is ignored", name, src.Name)
			continue
		}
		t.lsloadRow(src, h, row, cols)
	}
}

// lsloadHeader reads an lsload header; the status column is index 1.
func (t *invTableReader) lsloadHeader(src *lang.Source, row []invCell) []string {
	cols := t.header(src, row, "lsload", func(name string) string {
		if strings.EqualFold(name, "status") {
			return "status"
		}
		return invLSLoadColumn(name)
	})
	if len(cols) < 2 || cols[1] != "status" {
		t.errorf(invCellSpan(src, row), "the second column of the lsload header must be \"status\"")
	}
	return cols
}

// lsloadRow reads the status and load of h.
func (t *invTableReader) lsloadRow(src *lang.Source, h *compile.Host, row []invCell, cols []string) {
	if len(row) != len(cols) && (len(row) != 2 || len(cols) < 2) {
		t.errorf(invCellSpan(src, row), "lsload row has %d values but the header has %d columns; the row is ignored", len(row), len(cols))
		return
	}
	for i, c := range row[1:] {
		col := cols[i+1]
		sp := invCellSpan(src, row[i+1:i+2])
		switch {
		case col == "status":
			if !invKnownStatus(c.text) {
				t.warnf(sp, "unknown status %q of host %q%s", c.text, h.Name, invDidYouMean(c.text, invStatusNames()))
			}
			h.Status = c.text
		case col != "" && c.text != "-":
			if v, ok := t.loadCell(sp, col, strings.TrimPrefix(c.text, "*"), h); ok {
				h.Load[col] = v
				t.cell(h, "load "+col, sp)
			}
		}
	}
}

// loadCell reads the value of the load index col.
func (t *invTableReader) loadCell(sp lang.Span, col, s string, h *compile.Host) (float64, bool) {
	what := fmt.Sprintf("load index %s of host %q", col, h.Name)
	switch {
	case invMemoryIndex(col):
		return t.memory(sp, s, what)
	case col == "ut" && strings.HasSuffix(s, "%"):
		v, ok := invParsePercent(s)
		if !ok {
			t.errorf(sp, "%s must be a percentage like 35%%, not %q", what, s)
		}
		return v, ok
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		// lsload prints "-0.0" for a run queue that rounds to zero.
		if v, ok := t.number(sp, rest, what); !ok || v != 0 {
			if ok {
				t.errorf(sp, "%s must not be negative, not %q", what, s)
			}
			return 0, false
		}
		return 0, true
	}
	return t.number(sp, s, what)
}
