package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/units"
	"github.com/lsfc/lsfc/runtime/api"
)

func newLsloadCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "lsload",
		refused:  lsloadRefusedOptions(),
		short:    "List the load of the hosts of lsfc serve",
		operands: "[HOST ...] | -s [RESOURCE ...]",
		options:  []lsfOption{{"w", ""}, {"json", ""}, {"s", ""}},
		long: `lsload lists the load indices of the hosts, or of those named, in LSF's
layout:

  HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls    it   tmp   swp   mem

status is ok, or unavail for a host that does not answer; ut is a
percentage; tmp, swp and mem are free amounts with a unit (551M, 15.6G);
"-" is an index the host does not report. -s lists instead the static
resources of lsf.cluster's ResourceMap, or those named: each instance
with what running jobs leave of it and the hosts that share it
(RESOURCE VALUE LOCATION). -w cuts no name; -json prints
{"COMMAND":"lsload","HOSTS":N,"RECORDS":[...]} with the columns upper-cased
as keys and the values as shown, as strings ("" for none).` + lsfStateHelp,
		example: `  lsfc lsload
  lsload -json`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if a.has("s") {
			return showShared(ctx, e, a, "lsload", true)
		}
		hs, _, err := listHosts(ctx, e, a, "lsload")
		if err != nil {
			return err
		}
		if a.has("json") {
			if err := writeLSFJSON(e.stdout, "lsload", "HOSTS", lsloadRecords(hs)); err != nil {
				return exit(exitUsage, err)
			}
		} else if len(hs) > 0 {
			writeLsload(e.stdout, hs, a.has("w"))
		}
		if len(hs) < len(a.operands) {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

const (
	lsloadHeader = "HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls    it   tmp   swp   mem"
	lsloadRow    = "%-15s %6s %5s %5s %5s %4s %5s %3s %5s %5s %5s %5s\n"
)

// lsloadIndices are the load indices lsload shows, in its order.
func lsloadIndices() []string {
	return []string{"r15s", "r1m", "r15m", "ut", "pg", "ls", "it", "tmp", "swp", "mem"}
}

// writeLsload prints lsload's table; names longer than 15 are cut unless
// wide.
func writeLsload(w io.Writer, hs []api.Host, wide bool) {
	hs = textSafe(hs)
	fmt.Fprintln(w, lsloadHeader)
	for _, h := range hs {
		name := h.Name
		if !wide {
			name = cutEnd(name, 15)
		}
		args := []any{name, loadStatus(h.Status)}
		for _, idx := range lsloadIndices() {
			args = append(args, orDash(loadValue(h, idx)))
		}
		fmt.Fprintf(w, lsloadRow, args...)
	}
}

// lsloadRecords returns the hosts as lsload -json's records.
func lsloadRecords(hs []api.Host) []lsfRecord {
	out := make([]lsfRecord, 0, len(hs))
	for _, h := range hs {
		r := lsfRecord{{"HOST_NAME", h.Name}, {"STATUS", loadStatus(h.Status)}}
		for _, idx := range lsloadIndices() {
			r = append(r, lsfField{strings.ToUpper(idx), loadValue(h, idx)})
		}
		out = append(out, r)
	}
	return out
}

// loadStatus returns the load status of a host from its batch status: a
// host that does not answer is unavail, any other ok.
func loadStatus(batch string) string {
	switch batch {
	case "unavail", "unreach":
		return "unavail"
	}
	return "ok"
}

// loadValue formats a load index as lsload shows it, or "" when the host
// does not report it.
func loadValue(h api.Host, idx string) string {
	v, ok := h.Load[idx]
	if !ok || math.IsNaN(v) {
		return ""
	}
	switch idx {
	case "ut":
		return strconv.Itoa(int(math.Round(v*100))) + "%"
	case "ls", "it":
		return strconv.Itoa(int(math.Round(v)))
	case "tmp", "swp", "mem":
		return units.FormatMemory(v)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// lsloadRefusedOptions returns the options LSF 10.1 documents for lsload that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func lsloadRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"E", ""}, {"gpu", ""}, {"gpuload", ""}, {"I", "load_index"},
		{"l", ""}, {"loc", ""}, {"N", ""}, {"n", "num_hosts"}, {"o", "format"}, {"R", "res_req"},
		{"V", ""},
	}
}
