package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lsfc/lsfc/compile/units"
	"github.com/lsfc/lsfc/runtime/api"
)

func newLshostsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "lshosts",
		refused:  lshostsRefusedOptions(),
		short:    "List the hosts of lsfc serve with their static resources",
		operands: "[HOST ...] | -s [RESOURCE ...]",
		options:  []lsfOption{{"w", ""}, {"l", ""}, {"json", ""}, {"s", ""}, {"gpu", ""}},
		long: `lshosts lists the hosts, or those named, with their static facts, in LSF's
layout:

  HOST_NAME      type    model  cpuf ncpus maxmem maxswp server RESOURCES

cpuf is the CPUFACTOR lsf.shared's HostModel section gives the host's
model, "-" for none; lsfc keeps no swap size, so maxswp is "-"; every
host is a server. maxmem is shown with a unit (15.6G, 2038M). -w cuts
nothing; -l shows each host in LSF's long layout (HOST_NAME:, the static
facts, RESOURCES:); -json prints {"COMMAND":"lshosts","HOSTS":N,"RECORDS":[...]}
with the columns upper-cased as keys and string values ("" for none).
-s lists instead the static resources of lsf.cluster's ResourceMap, or
those named: each instance with its configured value and the hosts that
share it (RESOURCE VALUE LOCATION). -gpu lists the GPUs of each host
that has any (HOST_NAME gpu_id gpu_model gpu_driver gpu_factor numa_id
vendor): those the host's agent found, or those the configuration
declares (ngpus, gpu_model); lsfc reads no driver version, performance
factor or NUMA node, which show as "-".` + lsfStateHelp,
		example: `  lsfc lshosts
  lshosts -json`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if a.has("s") {
			return showShared(ctx, e, a, "lshosts", false)
		}
		hs, _, err := listHosts(ctx, e, a, "lshosts")
		if err != nil {
			return err
		}
		if a.has("gpu") {
			writeLshostsGPU(e.stdout, hs, a.has("w"))
		} else if a.has("json") {
			if err := writeLSFJSON(e.stdout, "lshosts", "HOSTS", lshostsRecords(hs)); err != nil {
				return exit(exitUsage, err)
			}
		} else if a.has("l") {
			writeLshostsLong(e.stdout, hs)
		} else if len(hs) > 0 {
			writeLshosts(e.stdout, hs, a.has("w"))
		}
		if len(hs) < len(a.operands) {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// lshostsColumns are the headings of lshosts's table after HOST_NAME,
// type and model, and before RESOURCES.
var lshostsColumns = []any{"cpuf", "ncpus", "maxmem", "maxswp", "server"}

// writeLshosts prints lshosts's table; long names, types and models are
// cut unless wide, where their columns are as wide as their longest.
func writeLshosts(w io.Writer, hs []api.Host, wide bool) {
	hs = textSafe(hs)
	nameW, typeW, modelW := 12, 6, 8
	if wide {
		for _, h := range hs {
			n, t, m := utf8.RuneCountInString(h.Name), utf8.RuneCountInString(orDash(h.Type)), utf8.RuneCountInString(orDash(h.Model))
			nameW, typeW, modelW = max(nameW, n), max(typeW, t), max(modelW, m)
		}
	}
	row := fmt.Sprintf("%%-%ds %%%ds %%%ds %%5s %%5s %%6s %%6s %%6s ", nameW, typeW, modelW)
	fmt.Fprintf(w, row+"RESOURCES\n", append([]any{"HOST_NAME", "type", "model"}, lshostsColumns...)...)
	for _, h := range hs {
		name, typ, model := h.Name, orDash(h.Type), orDash(h.Model)
		if !wide {
			name, typ, model = cutEnd(name, 12), cutEnd(typ, 6), cutEnd(model, 8)
		}
		fmt.Fprintf(w, row+"(%s)\n", name, typ, model, orDash(hostCpuf(h)), orDash(hostNcpus(h)), orDash(hostMaxmem(h)),
			"-", "Yes", strings.Join(h.Resources, " "))
	}
}

// writeLshostsLong prints lshosts -l: for each host its name, a row of
// its static facts under their headings, and its Boolean resources.
func writeLshostsLong(w io.Writer, hs []api.Host) {
	hs = textSafe(hs)
	for _, h := range hs {
		fmt.Fprintf(w, "\nHOST_NAME:  %s\n", h.Name)
		fmt.Fprintf(w, "%-16s %12s %6s %5s %6s %6s %6s\n", "type", "model", "cpuf", "ncpus", "maxmem", "maxswp", "server")
		fmt.Fprintf(w, "%-16s %12s %6s %5s %6s %6s %6s\n\n", orDash(h.Type), orDash(h.Model), orDash(hostCpuf(h)),
			orDash(hostNcpus(h)), orDash(hostMaxmem(h)), "-", "Yes")
		fmt.Fprintf(w, "RESOURCES: (%s)\n", strings.Join(h.Resources, " "))
	}
	if len(hs) > 0 {
		fmt.Fprintln(w)
	}
}

// lshostsRecords returns the hosts as lshosts -json's records.
func lshostsRecords(hs []api.Host) []lsfRecord {
	out := make([]lsfRecord, 0, len(hs))
	for _, h := range hs {
		out = append(out, lsfRecord{
			{"HOST_NAME", h.Name}, {"TYPE", h.Type}, {"MODEL", h.Model}, {"CPUF", hostCpuf(h)},
			{"NCPUS", hostNcpus(h)}, {"MAXMEM", hostMaxmem(h)}, {"MAXSWP", ""}, {"SERVER", "Yes"},
			{"RESOURCES", strings.Join(h.Resources, " ")},
		})
	}
	return out
}

// hostCpuf returns a host's CPU factor with one decimal, as lshosts
// shows it, or "" when its model has none.
func hostCpuf(h api.Host) string {
	if h.Cpuf <= 0 {
		return ""
	}
	return strconv.FormatFloat(h.Cpuf, 'f', 1, 64)
}

// hostNcpus returns a host's number of CPUs, or "" when unknown.
func hostNcpus(h api.Host) string {
	if h.Ncpus <= 0 {
		return ""
	}
	return strconv.FormatFloat(h.Ncpus, 'f', -1, 64)
}

// hostMaxmem returns a host's memory with a unit, or "" when unknown.
func hostMaxmem(h api.Host) string {
	if h.Maxmem <= 0 {
		return ""
	}
	return units.FormatMemory(h.Maxmem)
}

// lshostsRefusedOptions returns the options LSF 10.1 documents for lshosts that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func lshostsRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"alloc", ""}, {"cname", ""}, {"loc", ""}, {"o", "format"}, {"R", "res_req"},
		{"T", ""}, {"V", ""},
	}
}
