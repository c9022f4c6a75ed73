//go:build !lsfclient

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/lsbevents"
	"github.com/lsfc/lsfc/runtime/sim"
)

// A workloadReplay replays a read workload on one configuration.
type workloadReplay func(p *compile.Policy, opts sim.ReplayOptions) (*sim.ReplayResult, error)

// workloadFormats are the names --workload-format takes.
var workloadFormats = []string{"swf", "lsb.events", "lsb.acct", "jsonl"}

// workloadFormat returns the format of a workload file: the one forced,
// else the one its name says (lsb.events and its archives lsb.events.N;
// lsb.acct and its archives, or a file whose first record is a
// JOB_FINISH; .jsonl or .ndjson for lsfc's own, one bsub per line), else
// SWF.
func workloadFormat(path, forced string) (string, error) {
	if forced != "" && forced != "auto" {
		if slices.Contains(workloadFormats, forced) {
			return forced, nil
		}
		return "", fmt.Errorf("unknown --workload-format %q (want auto, %s)", forced, strings.Join(workloadFormats, ", "))
	}
	base := filepath.Base(path)
	switch {
	case base == "lsb.events" || strings.HasPrefix(base, "lsb.events."):
		return "lsb.events", nil
	case strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".ndjson"):
		return "jsonl", nil
	case isLSBAcct(path):
		return "lsb.acct", nil
	}
	return "swf", nil
}

// readWorkload reads the workload file in its format, once: one case per
// format. The function it returns replays it on each configuration.
func readWorkload(e env, path, format string, wopts sim.WorkloadOptions) (workloadReplay, error) {
	switch format {
	case "swf":
		header, jobs, err := readTrace(path)
		if err != nil {
			return nil, err
		}
		return func(p *compile.Policy, o sim.ReplayOptions) (*sim.ReplayResult, error) {
			return sim.Replay(p, header, jobs, o)
		}, nil
	case "lsb.acct":
		recs, err := readAcctWorkload(e, path)
		if err != nil {
			return nil, err
		}
		return func(p *compile.Policy, o sim.ReplayOptions) (*sim.ReplayResult, error) {
			return sim.ReplayAcct(p, recs, o)
		}, nil
	case "lsb.events":
		l, err := readEventsWorkload(e, path)
		if err != nil {
			return nil, err
		}
		return func(p *compile.Policy, o sim.ReplayOptions) (*sim.ReplayResult, error) {
			return sim.ReplayWorkload(p, func(c *runtime.Cluster) (*sim.Source, error) {
				return sim.EventsSource(c, l, wopts), nil
			}, o)
		}, nil
	case "jsonl":
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		jobs, err := readNativeWorkload(f, path)
		if err != nil {
			return nil, err
		}
		return func(p *compile.Policy, o sim.ReplayOptions) (*sim.ReplayResult, error) {
			return sim.ReplayWorkload(p, func(c *runtime.Cluster) (*sim.Source, error) {
				return nativeSource(c, p, jobs, wopts), nil
			}, o)
		}, nil
	}
	return nil, fmt.Errorf("no reader for workload format %q", format)
}

// readEventsWorkload reads an LSF lsb.events, reporting the records it
// skips on standard error.
func readEventsWorkload(e env, path string) (*lsbevents.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := lsbevents.NewLog()
	if err := l.Read(f, path); err != nil {
		return nil, err
	}
	reportEventLog(e.stderr, "lsfc: warning", path, l)
	if l.Orphans > 0 {
		fmt.Fprintf(e.stderr, "lsfc: warning: %s: %d records of jobs submitted before the log begins (skipped)\n", path, l.Orphans)
	}
	return l, nil
}

// A nativeJob is one line of lsfc's own workload format: a bsub command
// line, when it is submitted, and how it runs.
type nativeJob struct {
	line int
	at   float64
	req  *bsubRequest
	run  float64
	exit int
	user string
	// group is the user group the job's user is charged in.
	group string
}

// nativeLine is the JSON of one line: {"t": 12.5, "args": ["-q",
// "normal", ...], "run": 3600, "exit": 0, "user": "alice", "group": "g"}.
type nativeLine struct {
	T     *float64 `json:"t"`
	Args  []string `json:"args"`
	Run   *float64 `json:"run"`
	Exit  int      `json:"exit"`
	User  string   `json:"user"`
	Group string   `json:"group"`
}

// readNativeWorkload reads lsfc's own workload format: JSON lines, one
// job per line, its "args" read as bsub reads its command line (an option
// lsfc refuses is refused here), "t" its submission in seconds from the
// start, "run" its run time in seconds, "exit" its exit code (0 by
// default), "user" (default "user") and "group" optional; -J
// "name[1-100]%N" submits a job array, each element of which runs "run"
// seconds and exits with "exit". Blank lines
// are passed over. The first bad line is an error naming it.
func readNativeWorkload(r io.Reader, name string) ([]nativeJob, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var jobs []nativeJob
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			j, lerr := readNativeLine(b)
			if lerr != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, lerr)
			}
			j.line = n
			jobs = append(jobs, j)
		}
		if errors.Is(err, io.EOF) {
			return jobs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// readNativeLine reads one line of the native format.
func readNativeLine(b []byte) (nativeJob, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l nativeLine
	if err := dec.Decode(&l); err != nil {
		return nativeJob{}, fmt.Errorf("not a job: %v", err)
	}
	if dec.More() {
		return nativeJob{}, fmt.Errorf("more than one JSON value on the line")
	}
	switch {
	case l.T == nil:
		return nativeJob{}, fmt.Errorf(`no submission time ("t")`)
	case *l.T < 0 || *l.T > 1e12:
		return nativeJob{}, fmt.Errorf(`submission time "t" %v is out of range`, *l.T)
	case l.Run == nil:
		return nativeJob{}, fmt.Errorf(`no run time ("run")`)
	case *l.Run < 0 || *l.Run > 1e12:
		return nativeJob{}, fmt.Errorf(`run time "run" %v is out of range`, *l.Run)
	case l.Exit < 0 || l.Exit > 255:
		return nativeJob{}, fmt.Errorf(`exit code %d is out of range (0 to 255)`, l.Exit)
	case strings.ContainsAny(l.User, " \t\n/") || strings.ContainsAny(l.Group, " \t\n/"):
		return nativeJob{}, fmt.Errorf("bad user or group name %q", l.User+l.Group)
	}
	req, err := parseBsub(l.Args)
	if err != nil {
		return nativeJob{}, fmt.Errorf("bsub: %v", err)
	}
	if err := simulatedOptions(l.Args); err != nil {
		return nativeJob{}, err
	}
	user := l.User
	if user == "" {
		user = "user"
	}
	return nativeJob{at: *l.T, req: req, run: *l.Run, exit: l.Exit, user: user, group: l.Group}, nil
}

// notSimulated are the bsub options lsfc serve carries out that a
// simulation does not model: what runs around the job, on which dates,
// with which input and environment, in which advance reservation (a
// workload has no way to make one), which resize notification command
// runs, the mail the job's user gets, a submitter that waits or talks
// to the job (-K, the interactive options), and the limits on the job's
// processes (-C -D -F -S -v -p -T). Requeue on exit values (-Q) is
// simulated: a job that exits with one runs again.
var notSimulated = []string{"E", "Ep", "b", "t", "c", "i", "is", "L", "env", "outdir", "U", "rnc", "B", "N", "Ne", "u",
	"K", "I", "Ip", "Is", "tty", "C", "D", "F", "S", "v", "p", "T"}

// simulatedOptions refuses a workload line whose bsub options the
// simulation does not model, rather than drop them.
func simulatedOptions(args []string) error {
	a, err := parseLSFArgs(args, bsubOptionList(), bsubRefusedOptions(), true)
	if err != nil {
		return fmt.Errorf("bsub: %v", err)
	}
	for _, name := range notSimulated {
		if a.has(name) {
			return fmt.Errorf("bsub: option -%s is not supported by lsfc simulate", name)
		}
	}
	return nil
}

// nativeSource makes the Source of a native workload on cluster c, whose
// configuration p gives the unit of a -M without one. A job's trace ID is
// its line; a job asking for more slots than the cluster has is skipped.
// An unknown queue is refused by the cluster, as bsub's would be, unless
// --queue-map names it.
func nativeSource(c *runtime.Cluster, p *compile.Policy, jobs []nativeJob, wopts sim.WorkloadOptions) *sim.Source {
	src := &sim.Source{}
	total := c.TotalSlots()
	unit := p.Env().Unit
	for _, j := range jobs {
		r := j.req.sub
		queue := r.Queue
		if q, ok := wopts.QueueMap[queue]; ok && queue != "" {
			queue = q
		}
		mem := r.MemLimit
		if j.req.bareMem > 0 {
			mem = j.req.bareMem * unit.Megabytes()
		}
		if total > 0 && r.Slots > total {
			src.Skipped = append(src.Skipped, sim.SkippedJob{ID: j.line, Queue: queue, User: j.user, Submit: j.at,
				Slots: r.Slots, Reason: fmt.Sprintf("it asks for %d slots and the cluster has %d", r.Slots, total)})
			continue
		}
		group := j.group
		if group == "" {
			group = r.UserGroup // -G among the args
		}
		s := runtime.Submission{Name: r.Name, User: j.user, Group: group, Queue: queue, App: r.App, Slots: r.Slots,
			ResReq: r.ResReq, Priority: r.Priority, RunLimit: r.RunLimit, Hold: r.Hold, Depend: r.Depend,
			Command: r.Command, Rerunnable: r.Rerunnable, MemLimit: mem, MemHard: r.MemHard, Hosts: r.Hosts,
			Exclusive: r.Exclusive, GPU: r.GPU, Sla: r.Sla, Project: r.Project, JobGroup: r.JobGroup, Runtime: j.run,
			ExitCode: j.exit, TraceID: j.line, MaxSlots: r.MaxSlots, AutoResize: r.AutoResize,
			RequeueExitValues: r.RequeueExitValues}
		if spec, err := api.ParseArraySpec(r.Name, api.MaxArrayIndex); err == nil && spec.IsArray() {
			// A job array: the cluster checks it against its
			// MAX_JOB_ARRAY_SIZE and makes its elements.
			s.Name, s.Array, s.ArrayLimit = spec.Name, spec.IndexList(), spec.Limit
		}
		src.Jobs = append(src.Jobs, sim.Job{Submission: s, At: runtime.Time(j.at)})
	}
	return src
}
