package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newLsinfoCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "lsinfo",
		refused:  lsinfoRefusedOptions(),
		options:  []lsfOption{{"l", ""}, {"w", ""}, {"m", ""}, {"M", ""}, {"r", ""}, {"t", ""}},
		short:    "Show the resources, host types and host models of lsfc serve's cluster",
		operands: "[resource_name ...]",
		long: `lsinfo shows the resources a resource requirement may name -- LSF's own
load indices and static resources, then the site resources of lsf.shared --
with their type, their order (Inc: a smaller value is better, Dec: a
larger one is, N/A for Boolean and String resources) and what they are:

  RESOURCE_NAME   TYPE     ORDER  DESCRIPTION

then the host types of lsf.shared (TYPE_NAME) and its host models
(MODEL_NAME, CPU_FACTOR, ARCHITECTURE).

  -r   the resources only; with names, only the resources named
  -t   the host types only
  -M   the host models only, every one of lsf.shared
  -m   the host models only, those a host of the cluster has
  -l   each resource as a block: RESOURCE_NAME:, DESCRIPTION:, and TYPE,
       ORDER, INTERVAL (lsf.shared's INTERVAL in seconds, 0 for a
       static resource and for LSF's own, which the hosts' agents
       report at each exchange), BUILTIN, DYNAMIC and CONSUMABLE
  -w   names are never cut

A name that is no resource is reported on standard error ("NAME: Unknown
resource name") and lsinfo exits 255.` + lsfStateHelp,
		example: `  lsfc lsinfo
  lsinfo -l mem
  lsinfo -m`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "lsinfo", err)
		}
		info, err := c.ClusterInfo(ctx)
		if err != nil {
			return lsfFailed(e, "lsinfo", err)
		}
		res, missing := pickNamed(info.Resources, a.operands, func(r api.ResourceInfo) string { return r.Name })
		only := a.has("r") || a.has("t") || a.has("m") || a.has("M") || len(a.operands) > 0
		sections := 0
		section := func() {
			if sections > 0 {
				fmt.Fprintln(e.stdout)
			}
			sections++
		}
		if (!only || a.has("r") || len(a.operands) > 0) && len(res) > 0 {
			section()
			if a.has("l") {
				writeResourcesLong(e.stdout, res)
			} else {
				writeResources(e.stdout, res, a.has("w"))
			}
		}
		if !only || a.has("t") {
			section()
			fmt.Fprintln(e.stdout, "TYPE_NAME")
			for _, t := range textSafe(info.HostTypes) {
				fmt.Fprintln(e.stdout, t)
			}
		}
		if !only || a.has("m") || a.has("M") {
			var models []api.HostModelInfo
			for _, m := range info.HostModels {
				if m.InUse || !a.has("m") || a.has("M") {
					models = append(models, m)
				}
			}
			section()
			writeHostModels(e.stdout, models)
		}
		for _, n := range missing {
			fmt.Fprintf(e.stderr, "%s: Unknown resource name\n", n)
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

const resourcesRow = "%-15s %-8s %-6s %s\n"

// writeResources prints lsinfo's resource table; names longer than 15
// are cut unless wide.
func writeResources(w io.Writer, res []api.ResourceInfo, wide bool) {
	res = textSafe(res)
	fmt.Fprintf(w, resourcesRow, "RESOURCE_NAME", "TYPE", "ORDER", "DESCRIPTION")
	for _, r := range res {
		name := r.Name
		if !wide {
			name = cutEnd(name, 15)
		}
		fmt.Fprintf(w, resourcesRow, name, r.Type, r.Order, r.Description)
	}
}

// writeResourcesLong prints lsinfo -l: one block a resource.
func writeResourcesLong(w io.Writer, res []api.ResourceInfo) {
	yes := func(b bool) string {
		if b {
			return "Yes"
		}
		return "No"
	}
	for i, r := range textSafe(res) {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "RESOURCE_NAME:  %s\nDESCRIPTION: %s\n", r.Name, r.Description)
		fmt.Fprintf(w, "%-8s %5s %9s %8s %8s %11s\n", "TYPE", "ORDER", "INTERVAL", "BUILTIN", "DYNAMIC", "CONSUMABLE")
		fmt.Fprintf(w, "%-8s %5s %9s %8s %8s %11s\n", r.Type, r.Order, strconv.FormatFloat(r.Interval, 'f', -1, 64),
			yes(r.Builtin), yes(r.Dynamic), yes(r.Consumable))
	}
}

// writeHostModels prints lsinfo's host model table: each model's CPU
// factor and the architectures that map to it.
func writeHostModels(w io.Writer, models []api.HostModelInfo) {
	fmt.Fprintf(w, "%-15s %10s  %s\n", "MODEL_NAME", "CPU_FACTOR", "ARCHITECTURE")
	for _, m := range textSafe(models) {
		fmt.Fprintf(w, "%-15s %10.2f  %s\n", m.Name, m.CPUFactor, strings.Join(m.Architecture, " "))
	}
}

// lsinfoRefusedOptions returns the options LSF 10.1 documents for lsinfo
// that lsfc does not implement.
func lsinfoRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}
