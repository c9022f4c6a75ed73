package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBresizeCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bresize",
		short:    "Release or request slots of a running resizable job",
		operands: `release "HOST_SPEC ..."|all JOBID | request [MIN,]MAX JOBID | cancel JOBID`,
		options:  []lsfOption{{"c", ""}, {"rnc", "resize_notification_cmd"}, {"rncn", ""}},
		long: `bresize changes the allocation of a running resizable job (bsub -ar, or an
application profile with RESIZABLE_JOBS = Y or auto).

  release gives slots back: "all" keeps one slot on the first execution
          host; otherwise the hosts named give back all the job holds
          there, or N of them written N*host ("hostB 2*hostC").
  request asks for MIN to MAX more slots (MIN 1 when left out); the cycle
          grants them as they free, like a pending job of the job's queue.
  cancel  cancels the job's pending request; an autoresizable job stops
          asking for slots by itself.

-c cancels a pending request first (without it, a job with one can
neither release nor request). -rnc runs that command on the first
execution host when the allocation changes, in place of the job's
(bsub -rnc, RESIZE_NOTIFY_CMD); -rncn runs none. The command sees
LSB_RESIZE_EVENT (grow or shrink), LSB_RESIZE_HOSTS ("host slots ...")
and the job's LSB_HOSTS for its new allocation; exiting
$LSB_RESIZE_NOTIFY_FAIL (1) gives granted slots back,
$LSB_RESIZE_NOTIFY_FAIL_CANCEL_REQ (2) also cancels the request. A bad
argument or a job that is not resizable is refused with exit 255, and
nothing changes.` + lsfStateHelp,
		example: `  lsfc bresize release "hostB 2*hostC" 1001
  lsfc bresize request 2,4 1001
  lsfc bresize cancel 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		req, job, err := bresizeRequest(a)
		if err != nil {
			fmt.Fprintf(e.stderr, "bresize: %v\n", err)
			return exit(exitLSF, nil)
		}
		return runJobAction(ctx, e, a, "bresize", "resize", &api.ActionRequest{Resize: req}, []string{job})
	})
}

// bresizeRequest reads a bresize command line: its subcommand, options
// and operands, and the job it is for.
func bresizeRequest(a *lsfArgs) (*api.ResizeAction, string, error) {
	if len(a.operands) == 0 {
		return nil, "", fmt.Errorf("give a subcommand: release, request or cancel")
	}
	req := &api.ResizeAction{Op: a.operands[0], Cancel: a.has("c"), Notify: a.value("rnc"), NoNotify: a.has("rncn")}
	args := a.operands[1:]
	switch {
	case a.has("rnc") && a.has("rncn"):
		return nil, "", fmt.Errorf("-rnc and -rncn cannot be used together")
	case a.has("rnc") && strings.TrimSpace(req.Notify) == "":
		return nil, "", fmt.Errorf("-rnc: the notification command is empty")
	case len(req.Notify) > 4<<10:
		return nil, "", fmt.Errorf("-rnc: the notification command is longer than 4 KB")
	}
	switch req.Op {
	case "release":
		if len(args) < 2 {
			return nil, "", fmt.Errorf(`release: give "HOST_SPEC ..." or all, then the job id`)
		}
		all, hosts, err := parseReleaseSpec(strings.Join(args[:len(args)-1], " "))
		if err != nil {
			return nil, "", err
		}
		req.All, req.Hosts = all, hosts
	case "request":
		if len(args) != 2 {
			return nil, "", fmt.Errorf("request: give [MIN,]MAX, then the job id")
		}
		lo, hi, err := parseTaskRange(args[0])
		if err != nil {
			return nil, "", err
		}
		req.Min, req.Max = lo, hi
	case "cancel":
		if len(args) != 1 || a.has("c") || a.has("rnc") || a.has("rncn") {
			return nil, "", fmt.Errorf("cancel: give the job id alone")
		}
	default:
		return nil, "", fmt.Errorf("%q: unknown subcommand (want release, request or cancel)", req.Op)
	}
	return req, args[len(args)-1], nil
}

// parseReleaseSpec reads bresize release's host specification: "all", or
// hosts separated by blanks, each host (all its slots) or N*host.
func parseReleaseSpec(s string) (all bool, hosts []api.HostSlots, err error) {
	words := strings.Fields(s)
	if len(words) == 1 && words[0] == "all" {
		return true, nil, nil
	}
	if len(words) == 0 {
		return false, nil, fmt.Errorf("release: empty host specification")
	}
	for _, w := range words {
		h := api.HostSlots{Host: w}
		if n, host, ok := strings.Cut(w, "*"); ok {
			x, err := strconv.Atoi(n)
			if err != nil || x <= 0 || strings.HasPrefix(n, "+") {
				return false, nil, fmt.Errorf("release: %q: want N*host with N a positive whole number", w)
			}
			h = api.HostSlots{Host: host, Slots: x}
		}
		if h.Host == "" || w == "all" || strings.ContainsAny(h.Host, "*[]{}:,\x00") {
			return false, nil, fmt.Errorf("release: %q is not a host name", w)
		}
		hosts = append(hosts, h)
	}
	return false, hosts, nil
}

// parseTaskRange reads bresize request's [MIN,]MAX: MIN is 1 when left
// out.
func parseTaskRange(s string) (lo, hi int, err error) {
	bad := fmt.Errorf("request: %q: want [MIN,]MAX, positive whole numbers with MIN at most MAX", s)
	a, b, ranged := strings.Cut(s, ",")
	if !ranged {
		a, b = "1", s
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || lo <= 0 || hi < lo || hi > 1<<20 || strings.HasPrefix(a, "+") || strings.HasPrefix(b, "+") {
		return 0, 0, bad
	}
	return lo, hi, nil
}
