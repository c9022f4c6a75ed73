package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBhostsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bhosts",
		refused:  bhostsRefusedOptions(),
		short:    "List the batch hosts of lsfc serve",
		operands: "[HOST ...] | -s [RESOURCE ...]",
		options:  []lsfOption{{"w", ""}, {"l", ""}, {"json", ""}, {"R", "res_req"}, {"gpu", ""}, {"s", ""}},
		long: `bhosts lists the batch hosts, or those named, in LSF's layout:

  HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV

STATUS is ok, closed_Full, closed_Adm, unavail ...; JL/U and MAX (MXJ) are
"-" when there is no limit; the job counts are in slots, RSV those
pending jobs reserve (SLOT_RESERVE, RESOURCE_RESERVE). -l shows each host in LSF's long format: its
status (closed_Adm when an administrator, or a job exit rate over the
host's EXIT_RATE, closed it), CPU factor and counts, the exit rate
threshold and the host's current exit rate (THRESHOLD AND LOAD USED FOR
EXCEPTIONS), and why the system closed it (ADMIN ACTION COMMENT). -w cuts
no name; -json prints
{"COMMAND":"bhosts","HOSTS":N,"RECORDS":[...]} with the columns as keys
(HOST_NAME, STATUS, JL_U, MAX, NJOBS, RUN, SSUSP, USUSP, RSV) and string
values.

-R "res_req" lists only the hosts that satisfy a resource requirement
now: the daemon evaluates it on its live state (each host's resources and
latest load, as the scheduler sees them), for one slot, the host type
defaulting to any as for lshosts -R. It is the what-if of a requirement:
the hosts a job asking for it could go to. A requirement that does not
parse or names an unknown resource is refused with its position.

-gpu lists the GPUs of each host that has any, one line per GPU:

  HOST_NAME            ID MODEL                 MUSED     MRSV  NJOBS    RUN   SUSP    RSV

MRSV is the GPU memory the jobs on the GPU reserve (gmem); lsfc does not
sample GPU memory in use, so MUSED is "-". With -l, each host shows its
GPU counts (NGPUS, how many no exclusive job holds, how many are idle),
each GPU's model and memory (STATIC ATTRIBUTES), its mode
(EXCLUSIVE_PROCESS while a job holds it alone) and reserved memory
(DYNAMIC ATTRIBUTES), and the jobs on it (GPU JOB INFORMATION).

-s lists the numeric resources of lsf.cluster's ResourceMap, or those
named, as the scheduler counts them now: RESOURCE, TOTAL (what is left
of the instance), RESERVED (what running jobs reserve of it) and
LOCATION (the hosts that share the instance).` + lsfStateHelp,
		example: `  lsfc bhosts
  bhosts -json hostA
  bhosts -gpu -l
  bhosts -s ngpus
  bhosts -R "select[mem>4000 && ut<0.5]"`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if a.has("s") {
			return showBhostsShared(ctx, e, a)
		}
		hs, unknown, err := listHosts(ctx, e, a, "bhosts")
		if err != nil {
			return err
		}
		if a.has("gpu") {
			if a.has("json") {
				return usageError("bhosts: -gpu and -json cannot be used together")
			}
			if a.has("l") {
				writeBhostsGPULong(e.stdout, hs)
			} else {
				writeBhostsGPU(e.stdout, hs, a.has("w"))
			}
		} else if a.has("json") {
			if err := writeLSFJSON(e.stdout, "bhosts", "HOSTS", bhostsRecords(hs)); err != nil {
				return exit(exitUsage, err)
			}
		} else if len(hs) > 0 && a.has("l") {
			writeBhostsLong(e.stdout, hs)
		} else if len(hs) > 0 {
			writeBhosts(e.stdout, hs, a.has("w"))
		}
		if unknown {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// showBhostsShared runs bhosts -s: the numeric instances of the
// ResourceMap (those of the resources named), or -json's records.
func showBhostsShared(ctx context.Context, e env, a *lsfArgs) error {
	rs, unknown, err := listShared(ctx, e, a, "bhosts")
	if err != nil {
		return err
	}
	numeric := rs[:0:0]
	for _, r := range rs {
		if r.Numeric {
			numeric = append(numeric, r)
		}
	}
	if a.has("json") {
		if err := writeLSFJSON(e.stdout, "bhosts", "RESOURCES", bhostsSharedRecords(numeric)); err != nil {
			return exit(exitUsage, err)
		}
	} else if len(numeric) > 0 {
		writeBhostsShared(e.stdout, numeric)
	}
	if unknown {
		return exit(exitLSF, nil)
	}
	return nil
}

// listHosts asks the daemon for the hosts (those that satisfy -R, when the
// command has it and it is given) and returns those the operands name (all
// of them when none), reporting names that are no host; unknown says
// whether there were any.
func listHosts(ctx context.Context, e env, a *lsfArgs, name string) (hs []api.Host, unknown bool, err error) {
	c, err := dialDaemon(e, a)
	if err != nil {
		return nil, false, lsfFailed(e, name, err)
	}
	var all []api.Host
	if a.has("R") {
		all, err = c.HostsSelected(ctx, a.value("R"))
	} else {
		all, err = c.Hosts(ctx)
	}
	if err != nil {
		return nil, false, lsfFailed(e, name, err)
	}
	hs, missing := pickNamed(all, a.operands, func(h api.Host) string { return h.Name })
	if len(missing) > 0 && a.has("R") {
		// A named host that the requirement leaves out is no mistake: only
		// names that are no host are.
		known, err := c.Hosts(ctx)
		if err != nil {
			return nil, false, lsfFailed(e, name, err)
		}
		_, missing = pickNamed(known, missing, func(h api.Host) string { return h.Name })
	}
	for _, m := range missing {
		fmt.Fprintf(e.stderr, "%s: Bad host name, host group name or cluster name\n", m)
	}
	return hs, len(missing) > 0, nil
}

const (
	bhostsHeader = "HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV"
	bhostsRow    = "%-18s %-12s %4s %6s %6d %6d %6d %6d %6d\n"
)

// writeBhosts prints bhosts's table; names longer than 18 are cut unless
// wide.
func writeBhosts(w io.Writer, hs []api.Host, wide bool) {
	hs = textSafe(hs)
	fmt.Fprintln(w, bhostsHeader)
	for _, h := range hs {
		name := h.Name
		if !wide {
			name = cutEnd(name, 18)
		}
		fmt.Fprintf(w, bhostsRow, name, h.Status, hostLimit(h.JLU), hostLimit(h.Max), h.NJobs, h.Run, h.SSusp, h.USusp, h.Rsv)
	}
}

// writeBhostsLong prints bhosts -l: per host its status line, the exit
// rate threshold and load when the host has one, and the comment of the
// action that closed it.
func writeBhostsLong(w io.Writer, hs []api.Host) {
	hs = textSafe(hs)
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "HOST  %s\n", h.Name)
		fmt.Fprintln(w, "STATUS           CPUF  JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    RSV DISPATCH_WINDOW")
		fmt.Fprintf(w, "%-14s %6.2f %5s %6s %6d %6d %6d %6d %6d      -\n", h.Status, h.Cpuf, hostLimit(h.JLU), hostLimit(h.Max),
			h.NJobs, h.Run, h.SSusp, h.USusp, h.Rsv)
		writeHostLoad(w, h)
		fmt.Fprintln(w, "\n LOAD THRESHOLD USED FOR SCHEDULING:")
		var th strings.Builder
		writeThresholdTable(&th, loadIndexNames[:], h.Thresholds)
		fmt.Fprint(w, strings.TrimSuffix(th.String(), "\n"))
		if h.ExitRate > 0 {
			fmt.Fprintf(w, "\n THRESHOLD AND LOAD USED FOR EXCEPTIONS:\n")
			fmt.Fprintf(w, "            JOB_EXIT_RATE\n Threshold  %13.2f\n Load       %13.2f\n", h.ExitRate, h.ExitRateLoad)
		}
		if h.Comment != "" {
			fmt.Fprintf(w, "\n ADMIN ACTION COMMENT: %q\n", h.Comment)
		}
	}
}

// writeHostLoad prints bhosts -l's CURRENT LOAD USED FOR SCHEDULING: the
// host's load indices ("-" for one it does not report) and what jobs'
// rusage[] reserves of each.
func writeHostLoad(w io.Writer, h api.Host) {
	fmt.Fprintln(w, "\n CURRENT LOAD USED FOR SCHEDULING:")
	head, total, rsv := fmt.Sprintf(" %-9s", ""), fmt.Sprintf(" %-9s", "Total"), fmt.Sprintf(" %-9s", "Reserved")
	for _, name := range loadIndexNames {
		t, r := orDash(loadValue(h, name)), reservedValue(h, name)
		width := max(6, len(name)+1, len(t)+1, len(r)+1)
		head += fmt.Sprintf(" %*s", width, name)
		total += fmt.Sprintf(" %*s", width, t)
		rsv += fmt.Sprintf(" %*s", width, r)
	}
	fmt.Fprintf(w, "%s\n%s\n%s\n", head, total, rsv)
}

// reservedValue formats what jobs reserve of a load index on a host, as
// lsload shows the index: 0 in its unit when nothing is reserved.
func reservedValue(h api.Host, name string) string {
	return loadValue(api.Host{Load: map[string]float64{name: h.Reserved[name]}}, name)
}

// bhostsRecords returns the hosts as bhosts -json's records.
func bhostsRecords(hs []api.Host) []lsfRecord {
	out := make([]lsfRecord, 0, len(hs))
	for _, h := range hs {
		out = append(out, lsfRecord{
			{"HOST_NAME", h.Name}, {"STATUS", h.Status},
			{"JL_U", noLimit(hostLimit(h.JLU))}, {"MAX", noLimit(hostLimit(h.Max))},
			{"NJOBS", strconv.Itoa(h.NJobs)}, {"RUN", strconv.Itoa(h.Run)},
			{"SSUSP", strconv.Itoa(h.SSusp)}, {"USUSP", strconv.Itoa(h.USusp)}, {"RSV", strconv.Itoa(h.Rsv)},
		})
	}
	return out
}

// hostLimit shows a host's JL/U or MAX: "-" for none (negative); zero is a
// limit.
func hostLimit(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// bhostsRefusedOptions returns the options LSF 10.1 documents for bhosts that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bhostsRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"aff", ""}, {"alloc", ""}, {"attr", ""}, {"cname", ""}, {"e", ""},
		{"loc", ""}, {"noheader", ""}, {"o", "format"}, {"rc", ""}, {"rconly", ""},
		{"sl", ""}, {"V", ""}, {"X", ""}, {"x", ""},
	}
}
