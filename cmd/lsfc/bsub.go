package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/compile/units"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/api"
)

// bsubOptionList returns the options of bsub that lsfc implements.
func bsubOptionList() []lsfOption {
	return []lsfOption{
		{"q", "queue"}, {"R", "res_req"}, {"n", "slots"}, {"J", "job_name"},
		{"o", "out_file"}, {"oo", "out_file"}, {"e", "err_file"}, {"eo", "err_file"},
		{"cwd", "dir"}, {"r", ""}, {"app", "profile"}, {"sp", "priority"}, {"m", `"host ..."`},
		{"W", "[hh:]mm"}, {"We", "[hh:]mm"}, {"M", "mem_limit"}, {"H", ""}, {"w", "dependency"}, {"K", ""}, {"x", ""},
		{"sla", "service_class"}, {"P", "project"}, {"G", "user_group"}, {"g", "job_group_name"},
		{"gpu", "- | gpu_req"}, {"ar", ""}, {"rnc", "resize_notification_cmd"},
		{"I", ""}, {"Ip", ""}, {"Is", ""}, {"tty", ""},
		{"E", "pre_exec_command"}, {"Ep", "post_exec_command"}, {"b", "begin_time"}, {"t", "term_time"},
		{"c", "cpu_limit"}, {"i", "input_file"}, {"is", "input_file"}, {"L", "login_shell"},
		{"env", "variables"}, {"outdir", "dir"}, {"U", "reservation_id"},
		{"B", ""}, {"N", ""}, {"Ne", ""}, {"u", "mail_user"},
		{"C", "core_limit"}, {"D", "data_limit"}, {"F", "file_limit"}, {"S", "stack_limit"},
		{"v", "swap_limit"}, {"p", "process_limit"}, {"T", "thread_limit"}, {"Jd", "description"}, {"Q", "requeue_exit_values"},
	}
}

// bsubRefusedOptions returns the options LSF 10.1 documents for bsub that
// lsfc does not implement, each with the shape of its argument ("" for a
// switch).
func bsubRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", "esub_application"}, {"alloc_flags", "flags"},
		{"clusters", "clusters"}, {"cn_cu", "cu_string"},
		{"cn_mem", "mem_size"}, {"core_isolation", "0|1|2"}, {"csm", "y|n"},
		{"data", "data_spec"}, {"datachk", ""}, {"datagrp", "user_group"}, {"eptl", "[hh:]mm"}, {"ext", "scheduler_options"},
		{"f", "file_transfer"}, {"freq", "cpu_frequency"},
		{"hl", ""}, {"hostfile", "file"},
		{"IS", ""}, {"ISp", ""}, {"ISs", ""}, {"IX", ""},
		{"jobaff", "affinity"},
		{"jsdl", "file"}, {"jsdl_strict", "file"}, {"json", "file"}, {"k", "checkpoint"},
		{"Lp", "license_project"}, {"ln_mem", "mem_size"}, {"ln_slots", "slots"},
		{"mig", "threshold"}, {"network", "network_res_req"}, {"nnodes", "nodes"},
		{"notify", "events"},
		{"pack", "job_submission_file"}, {"ptl", "[hh:]mm"}, {"rn", ""},
		{"s", "signal"}, {"smt", "smt_value"},
		{"stage", "stage_options"}, {"step_cgroup", "y|n"},
		{"ti", ""}, {"ul", ""}, {"V", ""},
		{"wa", "signal"}, {"wt", "[hh:]mm"}, {"XF", ""},
		{"yaml", "file"}, {"Zs", ""},
	}
}

func newBsubCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:          "bsub",
		short:         "Submit a job to lsfc serve",
		operands:      "command [argument ...]",
		options:       bsubOptionList(),
		refused:       bsubRefusedOptions(),
		stopAtOperand: true,
		long: `bsub submits a job: the command, run by /bin/sh with the submitter's whole
environment, working directory (-cwd, "." for the current one) and umask.
It prints

  Job <ID> is submitted to queue <QUEUE>.

("to default queue <QUEUE>" when -q was not given) and exits 0, or prints
why the job was rejected on standard error and exits 255.

Options are read as LSF reads them, up to the first word that is not an
option (or "--"); the words after it are the command, joined with single
spaces. Without a command, the job script is read from standard input,
with the options of its leading "#BSUB" lines (the command line wins).

  -q QUEUE      the queue (else $LSB_DEFAULTQUEUE, else DEFAULT_QUEUE);
                "Q1 Q2 ..." tries each in turn
  -R RES_REQ    resource requirement; several -R are joined
  -n N          job slots
  -J NAME       job name; "NAME[1-100:2,200]%N" makes a job array, one
                element per index (at most MAX_JOB_ARRAY_SIZE of lsb.params,
                1000 by default), of which at most N run at once; each gets
                LSB_JOBINDEX, LSB_JOBINDEX_END and LSB_JOBINDEX_STEP
  -o/-oo FILE   standard output (%J: job id, %I: array index, else 0);
                without -e also stderr; the job report (how the job ended,
                what it used) goes above the output, or after it with
                LSB_STDOUT_DIRECT=Y
  -e/-eo FILE   standard error (-oo and -eo empty the file when the job
                starts; -o and -e append to it)
  -cwd DIR      working directory (else $LSB_JOB_CWD, the profile's
                JOB_CWD, DEFAULT_JOB_CWD or the current directory)
  -r            rerunnable
  -app NAME     application profile
  -sp N         user priority
  -m "HOSTS"    hosts or host groups the job may run on
  -W [HH:]MM    run limit
  -M MEM        memory limit: 2147MB, 2GB, or a number in the cluster's
                LSF_UNIT_FOR_LIMITS (KB when lsf.conf does not set it);
                a job past it is killed (TERM_MEMLIMIT)
  -H            hold the job (PSUSP) until bresume
  -w COND       dependency condition: "done(12) && ended(13)"
  -K            wait for the job to end and exit with its exit code
                (126 if it was killed while pending)
  -x            exclusive use of its hosts
  -sla NAME     service class of lsb.serviceclasses (see bsla)
  -P PROJECT    the job's project (else DEFAULT_PROJECT of lsb.params, else
                "default"): shown by bjobs, written to lsb.acct, counted by
                lsb.resources limits on PROJECTS and PER_PROJECT, and
                given to the job as LSB_PROJECT_NAME
  -G GROUP      charge the job's fairshare to GROUP's share account; the
                submitter must be a direct member of the lsb.users group
  -g /A/B       the job group (a full path), made with the groups above it
                when it does not exist (see bgadd, bjgroup); without -g,
                LSB_DEFAULT_JOBGROUP of the environment, else
                DEFAULT_JOBGROUP of lsb.params
  -U RSV_ID     run in advance reservation RSV_ID (see brsvadd, brsvs):
                only on its hosts and slots, only while it is active; the
                reservation must be for the submitter (-u of brsvadd)
  -E CMD        pre-execution command, run before the job on its host; a
                non-zero exit puts the job back to pending, to be tried
                again (LOCAL_MAX_PREEXEC_RETRY, then PSUSP); 99 makes it exit
  -Ep CMD       post-execution command, run after the job, with
                LSB_JOBEXIT_STAT, once the job is DONE or EXIT (or before,
                with JOB_INCLUDE_POSTPROC=Y); bjobs -l shows POST_DONE or
                POST_ERR
  -b TIME       do not start before [[year:][month:]day:]hour:minute
  -t TIME       end the job at that time: SIGUSR2, then the kill ten
                minutes later (TERM_DEADLINE)
  -c LIMIT      CPU time limit, [hour:]minute[/host_name|/host_model]
                (TERM_CPULIMIT)
  -C N, -D N, -F N, -S N
                per-process (soft) limits of the job's processes: core
                file size, data segment size, file size (past it a write
                gets SIGXFSZ) and stack size, in LSF_UNIT_FOR_LIMITS (KB
                by default); -C 0 writes no core files. The queue's
                CORELIMIT, DATALIMIT, FILELIMIT and STACKLIMIT ("default
                maximum") give the defaults (after the application
                profile's) and the hard limits, above which a job is
                refused
  -v N, -p N, -T N
                limits of the whole job: the virtual memory of its
                processes (in LSF_UNIT_FOR_LIMITS), their number and the
                number of their threads, read every second; past one the
                job is terminated (TERM_SWAP, TERM_PROCESSLIMIT,
                TERM_THREADLIMIT). The queue's SWAPLIMIT, PROCESSLIMIT and
                THREADLIMIT give the defaults and the maxima
  -i FILE       standard input (%J, %I); -is FILE: the file as it is now,
                sent with the submission
  -L SHELL      set up the job's environment with this login shell
  -env VARS     the variables the job gets: "all", "none", "all, ~VAR,
                VAR=value", or "VAR, VAR=value"
  -outdir DIR   output directory (%J %I %U %P %G %H), made when the job
                starts; relative -o and -e files go in it
  -B            mail when the job starts
  -N            mail the job report when the job ends (a job without -o
                has its report and output mailed anyway, unless lsf.conf
                sets LSB_JOB_REPORT_MAIL=N); -Ne: only when it exits with
                failure
  -u "ADDR ..." mail to these addresses (or users) rather than to you
  -Jd TEXT      job description (at most 4094 characters), shown by
                bjobs -l and bjobs -o job_description
  -Q "VALUES"   requeue exit values, over the REQUEUE_EXIT_VALUES of the
                application profile and queue: "[all] [~code ...]
                [code ...] [EXCLUDE(code ...)]"; a job that exits with
                one pends again (at most MAX_JOB_REQUEUE times), away from
                the host it ran on for an EXCLUDE code
  -gpu REQ      GPUs: "num=N[/task]:mode=shared|exclusive_process:
                j_exclusive=yes|no:gmodel=MODEL:gmem=MEM:aff=yes|no", or
                "-" for the GPU_REQ of the profile and queue (merged
                with LSB_GPU_REQ); the job gets CUDA_VISIBLE_DEVICES
  -I            interactive job: its standard input, output and error are
                bsub's (but those sent to -o and -e files); bsub prints
                its messages on standard error, waits, and exits with the
                job's exit code. ^C or bsub's end kills the job.
  -Ip           interactive job on a pseudo-terminal of its own, whose
                window size follows bsub's; ^C and ^Z typed at bsub are
                sent to the job as signals
  -Is           as -Ip, with the terminal in shell mode: every key, ^C and
                ^Z included, goes to the job's terminal (bsub -Is bash)
  -tty          with -I, -Ip or -Is: the job's output and errors sent to
                -o and -e files come to bsub's terminal as well

Options are matched on the whole word: -env is never -e with "nv". A
one-letter option may have its argument in the same word (-n4, -qnormal)
unless the word begins a longer option's name. The other options LSF
documents (listed below) are refused, and nothing is submitted.` + lsfStateHelp,
		example: `  lsfc bsub -q normal -n 4 -R "select[mem>200MB] rusage[mem=200MB]" -o out.%J sleep 60
  bsub -cwd . -J step1 -M 2147MB ./run.sh input.txt
  bsub -K -o log.%J "make -j4 all"`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error { return runBsub(ctx, e, a) })
}

// bsubRequest is what a bsub command line asks for.
type bsubRequest struct {
	// sub is the submission, without what comes from the process (the
	// environment, working directory, umask and host).
	sub api.SubmitRequest
	// cwd is -cwd as given.
	cwd string
	// wait is -K.
	wait bool
	// tty is -tty, with an interactive option.
	tty bool
	// array is set when -J makes a job array.
	array bool
	// interactive is -I, -Ip or -Is without its dash, "" for a batch
	// job.
	interactive string
	// bareMem is -M given without a unit: a number in the cluster's
	// LSF_UNIT_FOR_LIMITS, which only the daemon knows; 0 when -M has a
	// unit (sub.MemLimit holds it) or was not given.
	bareMem float64
	// procLimits are -C, -D, -F and -S as given, in the cluster's
	// LSF_UNIT_FOR_LIMITS, by their lsb.queues name; bsub converts
	// them to KB once it knows the unit.
	procLimits map[string]int64
	// env is -env, nil when not given: the whole environment.
	env *envSpec
}

// joinResReqOptions returns the requirement of bsub's (or bmod's) -R
// options: one is sent as written, for the daemon to check; several are
// joined as bsub joins them (lang.JoinResReqs) and sent in canonical
// form. A string that does not parse, or options that cannot be joined,
// are an error naming the option and column.
func joinResReqOptions(texts []string) (string, error) {
	if len(texts) < 2 {
		return strings.Join(texts, ""), nil
	}
	r, ds := lang.ParseResReqOptions(texts)
	if err := ds.Err(); err != nil {
		return "", err
	}
	return r.String(), nil
}

// parseBsub reads a bsub command line (the words after "bsub").
func parseBsub(argv []string) (*bsubRequest, error) {
	a, err := parseLSFArgs(argv, bsubOptionList(), bsubRefusedOptions(), true)
	if err != nil {
		return nil, err
	}
	return bsubFromArgs(a)
}

// bsubFromArgs turns parsed options and operands into a request. The
// command is the operands joined with single spaces.
func bsubFromArgs(a *lsfArgs) (*bsubRequest, error) {
	r := &bsubRequest{cwd: a.value("cwd"), wait: a.has("K"), tty: a.has("tty")}
	s := &r.sub
	var err error
	if r.interactive, err = interactiveMode(a); err != nil {
		return nil, err
	}
	s.Command = strings.Join(a.operands, " ")
	s.Queue = a.value("q")
	s.Name = a.value("J")
	if a.has("J") {
		spec, err := api.ParseArraySpec(s.Name, api.MaxArrayIndex)
		if err != nil {
			return nil, &arraySpecError{value: s.Name, err: err}
		}
		r.array = spec.IsArray()
	}
	if r.array && r.interactive != "" {
		return nil, fmt.Errorf("-%s: an interactive job cannot be a job array", r.interactive)
	}
	s.App = a.value("app")
	s.Depend = a.value("w")
	if s.ResReq, err = joinResReqOptions(a.values("R")); err != nil {
		return nil, notSubmitted(err)
	}
	s.Stdout = lastOf(a, "o", "oo")
	s.Stderr = lastOf(a, "e", "eo")
	s.OutOverwrite = a.last("o", "oo") == "oo"
	s.ErrOverwrite = a.last("e", "eo") == "eo"
	s.Rerunnable = a.has("r")
	s.Hold = a.has("H")
	s.Exclusive = a.has("x")
	if a.has("gpu") {
		if s.GPU, err = parseGPUOption(a.value("gpu")); err != nil {
			return nil, err
		}
	}
	s.Sla = a.value("sla")
	s.Project = a.value("P")
	if a.has("Jd") {
		s.Description = a.value("Jd")
		if len(s.Description) > api.MaxJobDescription {
			return nil, notSubmitted(fmt.Errorf("-Jd: the job description is longer than %d characters", api.MaxJobDescription))
		}
	}
	if a.has("Q") {
		q := strings.TrimSpace(a.value("Q"))
		if _, err := api.ParseExitValues(q, true); err != nil || q == "" {
			if err == nil {
				err = errors.New("no exit value is given")
			}
			return nil, notSubmitted(fmt.Errorf("-Q %s: bad requeue exit values: %v", strconv.Quote(a.value("Q")), err))
		}
		s.RequeueExitValues = q
	}
	s.UserGroup = a.value("G")
	s.JobGroup = a.value("g")
	s.Reservation = a.value("U")
	if a.has("G") && strings.HasPrefix(strings.TrimSpace(s.UserGroup), "~") {
		return nil, fmt.Errorf("-G %q: excluding fairshare groups (~group) is not supported by lsfc", s.UserGroup)
	}
	for _, m := range a.values("m") {
		s.Hosts = append(s.Hosts, strings.Fields(m)...)
	}
	if a.has("n") {
		if s.Slots, s.MaxSlots, err = parseSlotRange(a.value("n")); err != nil {
			return nil, notSubmitted(err)
		}
	}
	s.AutoResize = a.has("ar")
	if a.has("rnc") {
		if s.ResizeNotify = a.value("rnc"); strings.TrimSpace(s.ResizeNotify) == "" || len(s.ResizeNotify) > 4<<10 {
			return nil, notSubmitted(errors.New("-rnc: want a command of at most 4 KB"))
		}
	}
	if a.has("sp") {
		if s.Priority, err = positiveInt("-sp", a.value("sp")); err != nil {
			return nil, notSubmitted(err)
		}
	}
	if a.has("W") {
		if s.RunLimit, err = parseRunLimit(a.value("W")); err != nil {
			return nil, notSubmitted(err)
		}
	}
	if a.has("We") {
		if s.Estimate, err = parseEstimate(a.value("We")); err != nil {
			return nil, notSubmitted(err)
		}
	}
	for _, o := range procLimitOptions {
		if !a.has(o.opt) {
			continue
		}
		n, err := parseProcLimit(o.opt, a.value(o.opt))
		if err != nil {
			return nil, notSubmitted(err)
		}
		if r.procLimits == nil {
			r.procLimits = map[string]int64{}
		}
		r.procLimits[o.name] = n
	}
	if a.has("M") {
		if s.MemLimit, r.bareMem, err = parseMemLimit(a.value("M")); err != nil {
			return nil, notSubmitted(err)
		}
		s.MemHard = strings.HasSuffix(strings.TrimSpace(a.value("M")), "!")
	}
	if err := r.execOptions(a, time.Now()); err != nil {
		return nil, &valueError{err}
	}
	if err := mailOptions(a, s); err != nil {
		return nil, &valueError{err}
	}
	return r, nil
}

// maxMailUser is the longest -u LSF takes.
const maxMailUser = 511

// mailOptions reads the options of the job's mail: -B, -N, -Ne and -u.
func mailOptions(a *lsfArgs, s *api.SubmitRequest) error {
	s.NotifyBegin, s.NotifyEnd, s.NotifyExit = a.has("B"), a.has("N"), a.has("Ne")
	if s.NotifyEnd && s.NotifyExit {
		return errors.New("-N and -Ne cannot be used together. Job not submitted")
	}
	if a.has("u") {
		s.MailUser = strings.TrimSpace(a.value("u"))
		switch {
		case s.MailUser == "":
			return errors.New("-u: the mail address is empty. Job not submitted")
		case len(s.MailUser) > maxMailUser:
			return fmt.Errorf("-u: the mail addresses are longer than %d characters. Job not submitted", maxMailUser)
		}
	}
	return nil
}

// execOptions reads the options of how and when the job runs: -E, -Ep,
// -b, -t, -c, -i, -is, -L, -env and -outdir.
func (r *bsubRequest) execOptions(a *lsfArgs, now time.Time) error {
	s := &r.sub
	s.PreExec, s.PostExec = a.value("E"), a.value("Ep")
	for _, o := range []struct{ name, val string }{{"-E", s.PreExec}, {"-Ep", s.PostExec}} {
		if a.has(o.name[1:]) && strings.TrimSpace(o.val) == "" {
			return fmt.Errorf("%s: the command is empty. Job not submitted", o.name)
		}
	}
	var begin time.Time
	if a.has("b") {
		t, err := parseJobTime("-b", a.value("b"), now)
		if err != nil {
			return err
		}
		begin, s.BeginTime = t, t.Unix()
	}
	if a.has("t") {
		t, err := parseJobTime("-t", a.value("t"), now)
		if err != nil {
			return err
		}
		switch {
		case !t.After(now):
			return fmt.Errorf("-t %s: the termination time %s is past. Job not submitted", strconv.Quote(a.value("t")), t.Format(time.ANSIC))
		case !begin.IsZero() && !t.After(begin):
			return fmt.Errorf("-t %s: the termination time must be later than the begin time (-b). Job not submitted", strconv.Quote(a.value("t")))
		}
		s.TermTime = t.Unix()
	}
	if a.has("c") {
		l, err := parseCPULimit(a.value("c"))
		if err != nil {
			return err
		}
		s.CPULimit, s.CPUSpec = l.seconds, l.spec
	}
	switch a.last("i", "is") {
	case "i":
		s.Input = a.value("i")
	case "is":
		s.Input, s.InputSpooled = a.value("is"), true
	}
	if (a.has("i") || a.has("is")) && strings.TrimSpace(s.Input) == "" {
		return errors.New("-i: the input file name is empty. Job not submitted")
	}
	if a.has("L") {
		s.LoginShell = a.value("L")
		if !filepath.IsAbs(s.LoginShell) {
			return fmt.Errorf("-L %s: the login shell must be an absolute path. Job not submitted", strconv.Quote(s.LoginShell))
		}
	}
	if a.has("outdir") {
		s.OutDir = a.value("outdir")
		if strings.TrimSpace(s.OutDir) == "" {
			return errors.New("-outdir: the directory is empty. Job not submitted")
		}
	}
	if a.has("env") {
		e, err := parseEnvSpec(a.value("env"))
		if err != nil {
			return err
		}
		r.env = &e
	}
	return nil
}

// parseGPUOption checks bsub's -gpu: "-", or a GPU requirement that
// parses; it returns the requirement as given.
func parseGPUOption(s string) (string, error) {
	if t := strings.TrimSpace(s); t == "-" {
		return t, nil
	} else if t == "" {
		return "", fmt.Errorf("-gpu: give a GPU requirement, or \"-\" for the default one")
	}
	if _, err := lang.ParseGPUReq(s); err != nil {
		return "", fmt.Errorf("-gpu: %w", err)
	}
	return strings.TrimSpace(s), nil
}

// lastOf returns the argument of whichever of two spellings of an option
// was given last ("-o" and "-oo").
func lastOf(a *lsfArgs, x, y string) string {
	if a.last(x, y) == y {
		return a.value(y)
	}
	return a.value(x)
}

// positiveInt reads the positive whole number of an option.
// parseSlotRange reads -n min[,max]: the maximum is 0 when only one
// number is given. A minimum above the maximum gets LSF's message.
func parseSlotRange(s string) (min, max int, err error) {
	lo, hi, ranged := strings.Cut(s, ",")
	if min, err = positiveInt("-n", lo); err != nil {
		if ranged {
			return 0, 0, fmt.Errorf("-n %q: want a positive whole number or min,max", s)
		}
		return 0, 0, err
	}
	if !ranged {
		return min, 0, nil
	}
	if max, err = positiveInt("-n", hi); err != nil {
		return 0, 0, fmt.Errorf("-n %q: want a positive whole number or min,max", s)
	}
	if min > max {
		//lint:ignore ST1005 LSF's own message, word for word
		return 0, 0, errors.New("Bad argument for option -n")
	}
	return min, max, nil
}

func positiveInt(opt, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s %q: want a positive whole number", opt, s)
	}
	return n, nil
}

// parseRunLimit reads -W [hh:]mm and returns seconds.
func parseRunLimit(s string) (float64, error) { return parseRunLimitAs("-W", s) }

// parseEstimate reads -We [hour:]minute. The /host_name and /host_model
// forms, which normalise the time by a host's CPU factor, are refused.
func parseEstimate(s string) (float64, error) {
	if _, spec, ok := strings.Cut(s, "/"); ok {
		return 0, fmt.Errorf("-We %q: lsfc does not normalise run times by the CPU factor of %q; give [hour:]minute", s, spec)
	}
	return parseRunLimitAs("-We", s)
}

// parseRunLimitAs reads a time option [hh:]mm and returns seconds.
func parseRunLimitAs(opt, s string) (float64, error) {
	bad := fmt.Errorf("%s %q: want [hours:]minutes, such as 90 or 1:30", opt, s)
	h, m, hasHours := strings.Cut(s, ":")
	if !hasHours {
		h, m = "0", s
	}
	hours, err1 := strconv.Atoi(h)
	mins, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hours < 0 || mins < 0 || (hasHours && mins > 59) || hours*60+mins == 0 {
		return 0, bad
	}
	return float64((hours*60 + mins) * 60), nil
}

// parseMemLimit reads -M, optionally followed by "!" (a hard limit, as
// LSF writes it): an amount with a unit (2147MB, 2GB, 512M), returned in
// megabytes, or a bare number, returned as it is, which is in the
// cluster's LSF_UNIT_FOR_LIMITS (see memUnit).
func parseMemLimit(s string) (mb, bare float64, err error) {
	t := strings.TrimSpace(strings.TrimSuffix(s, "!"))
	v, err := units.ParseMemory(t, units.MB)
	switch {
	case err != nil:
		return 0, 0, fmt.Errorf("-M: %v", err)
	case v <= 0:
		return 0, 0, fmt.Errorf("-M %q: the limit must be more than zero", s)
	case t[len(t)-1] >= '0' && t[len(t)-1] <= '9' || t[len(t)-1] == '.':
		return 0, v, nil
	}
	return v, 0, nil
}

// memUnit returns the unit of bare memory limits from the daemon's
// lsf.conf settings: LSF_UNIT_FOR_LIMITS, KB when it is not set.
func memUnit(conf map[string]string) (units.Unit, error) {
	v := strings.TrimSpace(conf["LSF_UNIT_FOR_LIMITS"])
	if v == "" {
		return units.KB, nil
	}
	u, err := units.ParseUnit(v)
	if err != nil {
		return 0, fmt.Errorf("LSF_UNIT_FOR_LIMITS in the daemon's lsf.conf: %v", err)
	}
	return u, nil
}

// submitContext is what bsub takes from its process.
type submitContext struct {
	environ []string // KEY=VALUE
	wd      string   // the current directory
	umask   int
	host    string
}

// processContext reads the environment, working directory, umask and
// host name of this process.
func processContext() (submitContext, error) {
	wd, err := os.Getwd()
	if err != nil {
		return submitContext{}, fmt.Errorf("current directory: %w", err)
	}
	host, err := os.Hostname()
	if err != nil {
		return submitContext{}, fmt.Errorf("host name: %w", err)
	}
	mask := syscall.Umask(0)
	syscall.Umask(mask)
	return submitContext{environ: os.Environ(), wd: wd, umask: mask, host: host}, nil
}

// request returns the submission to send: the command line's, with what
// comes from the process. A relative -cwd is taken from the current
// directory.
func (r *bsubRequest) request(sc submitContext) *api.SubmitRequest {
	req := r.sub
	req.Env = sc.environ
	if r.env != nil {
		req.Env = r.env.apply(sc.environ)
	}
	req.Umask = sc.umask
	req.FromHost = sc.host
	if req.JobGroup == "" {
		req.JobGroup = envValue(sc.environ, "LSB_DEFAULT_JOBGROUP")
	}
	cwd := r.cwd
	if cwd == "" {
		// The submitter's own default, as -cwd.
		cwd = strings.TrimSpace(envValue(sc.environ, "LSB_JOB_CWD"))
	}
	switch {
	case cwd == "":
		req.Cwd, req.CwdDefault = sc.wd, true
	case filepath.IsAbs(cwd):
		req.Cwd = filepath.Clean(cwd)
	default:
		req.Cwd = filepath.Join(sc.wd, cwd)
	}
	return &req
}

// envValue returns a variable's value in an environment; "" when unset.
func envValue(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// submittedMessage is bsub's answer, the line workflow engines parse.
func submittedMessage(resp *api.SubmitResponse) string {
	if resp.Default {
		return fmt.Sprintf("Job <%d> is submitted to default queue <%s>.", resp.ID, resp.Queue)
	}
	return fmt.Sprintf("Job <%d> is submitted to queue <%s>.", resp.ID, resp.Queue)
}

func runBsub(ctx context.Context, e env, a *lsfArgs) error {
	if len(a.operands) == 0 && slices.ContainsFunc(interactiveModes, a.has) {
		return usageError("bsub: an interactive job takes its command on the command line: its standard input is the job's")
	}
	if len(a.operands) == 0 {
		script, err := readJobScript(e.stdin)
		if err != nil {
			return usageError("bsub: %v", err)
		}
		if a, err = withScriptOptions(a, script); err != nil {
			if _, ok := errors.AsType[*unsupportedOptionError](err); ok {
				return lsfFailed(e, "bsub", err)
			}
			return usageError("bsub: %v", err)
		}
	}
	r, err := bsubFromArgs(a)
	if _, ok := errors.AsType[*valueError](err); ok {
		// A value LSF refuses: its message, exit 255, as bsub's.
		return lsfFailed(e, "bsub", err)
	}
	if ae, ok := errors.AsType[*arraySpecError](err); ok {
		fmt.Fprintln(e.stderr, "bsub: "+api.ArraySpecMessage(ae.value, ae.err))
		return exit(exitLSF, nil)
	}
	if _, ok := errors.AsType[*lang.GPUReqError](err); ok {
		// A bad -gpu is refused as LSF refuses it: nothing is submitted.
		return lsfFailed(e, "bsub", fmt.Errorf("%v. Job not submitted", err))
	}
	if err != nil {
		return usageError("bsub: %v", err)
	}
	if r.sub.Queue == "" {
		// The user's own default queue, before the cluster's.
		r.sub.Queue = strings.TrimSpace(e.getenv("LSB_DEFAULTQUEUE"))
	}
	sc, err := processContext()
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	// The daemon's lsf.conf, asked for once, when an option needs it.
	var conf map[string]string
	daemonConf := func() (map[string]string, error) {
		if conf == nil {
			var err error
			if conf, err = c.Conf(ctx); err != nil {
				return nil, err
			}
		}
		return conf, nil
	}
	if r.procLimits != nil || r.bareMem > 0 {
		conf, err := daemonConf()
		if err != nil {
			return lsfFailed(e, "bsub", err)
		}
		unit, err := memUnit(conf)
		if err != nil {
			return lsfFailed(e, "bsub", err)
		}
		if r.procLimits != nil {
			if r.sub.ProcLimits, err = procLimitsKB(r.procLimits, unit); err != nil {
				return lsfFailed(e, "bsub", notSubmitted(err))
			}
		}
		if r.bareMem > 0 {
			r.sub.MemLimit = r.bareMem * unit.Megabytes()
		}
	}
	req := r.request(sc)
	if req.InputSpooled {
		if req.InputData, err = spoolInput(req.Input, sc.wd); err != nil {
			return lsfFailed(e, "bsub", err)
		}
	}
	if r.interactive != "" {
		return runInteractive(ctx, e, c, r.interactive, r.tty, req)
	}
	resp, err := submitRetrying(ctx, e, c, req)
	if errors.Is(err, api.ErrAnswerLost) {
		printLSFError(e, "bsub", err)
		fmt.Fprintln(e.stderr, answerLostHint(req))
		return exit(exitLSF, nil)
	}
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	fmt.Fprintln(e.stdout, submittedMessage(resp))
	if req.BeginTime != 0 {
		fmt.Fprintf(e.stdout, "Job will be scheduled after %s\n", time.Unix(req.BeginTime, 0).Format(time.ANSIC))
	}
	if !r.wait {
		return nil
	}
	var code int
	if r.array {
		code = waitArray(ctx, e, c, resp.ID)
	} else {
		code = waitJob(ctx, e, c, resp.ID, showExecHost(daemonConf))
	}
	if code != 0 {
		return exit(code, nil)
	}
	return nil
}

// submitRetrying sends a submission and, while the daemon refuses it
// because a pending job threshold is reached (MAX_PEND_JOBS,
// MAX_PEND_SLOTS), says so and sends it again after the interval the
// daemon gives (SUB_TRY_INTERVAL), as LSF's bsub does: LSB_NTRIES
// attempts in all (the environment's, else lsf.conf's), for ever when
// it is unset. The same token goes each time: a submission is never
// made twice.
func submitRetrying(ctx context.Context, e env, c *api.Client, req *api.SubmitRequest) (*api.SubmitResponse, error) {
	tries := -1
	for n := 1; ; n++ {
		resp, err := c.Submit(ctx, req)
		var ae *api.APIError
		if !errors.As(err, &ae) || ae.Retry <= 0 {
			return resp, err
		}
		if tries < 0 {
			tries = submitTries(ctx, e, c)
		}
		if tries > 0 && n >= tries {
			return nil, &api.APIError{Status: ae.Status, Message: ae.Message + " Job not submitted."}
		}
		fmt.Fprintf(e.stderr, "%s Retrying in %d seconds...\n", ae.Message, int(ae.Retry/time.Second))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(ae.Retry):
		}
	}
}

// showExecHost reports whether bsub -K says where the job starts: the
// daemon's lsf.conf sets LSB_SUBK_SHOW_EXEC_HOST=Y (as LSF's
// installation does; LSF's default is N). A daemon that does not answer
// shows it.
func showExecHost(daemonConf func() (map[string]string, error)) bool {
	conf, err := daemonConf()
	if err != nil {
		return true
	}
	return strings.EqualFold(strings.TrimSpace(conf["LSB_SUBK_SHOW_EXEC_HOST"]), "y")
}

// submitTries returns LSB_NTRIES, from the environment or else the
// daemon's lsf.conf: how many times bsub sends a submission refused for
// a pending job threshold; 0 for no end.
func submitTries(ctx context.Context, e env, c *api.Client) int {
	v := strings.TrimSpace(e.getenv("LSB_NTRIES"))
	if v == "" {
		if conf, err := c.Conf(ctx); err == nil {
			v = strings.TrimSpace(conf["LSB_NTRIES"])
		}
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return n
	}
	return 0
}

// A valueError is an option value bsub refuses as LSF does: exit 255.
type valueError struct{ err error }

// notSubmitted is the valueError of an option value bsub refuses, with
// LSF's closing words.
func notSubmitted(err error) error {
	return &valueError{fmt.Errorf("%w. Job not submitted", err)}
}

func (e *valueError) Error() string { return e.err.Error() }
func (e *valueError) Unwrap() error { return e.err }

// spoolInput reads the file of bsub -is, relative to the current
// directory dir, to be sent with the submission: the job reads it as it
// is now, whatever happens to the file later.
func spoolInput(name, dir string) ([]byte, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("-is: %v. Job not submitted", err)
	}
	defer f.Close()
	// The submission, input included, must fit in one request.
	const most = api.MaxRequestBytes / 2
	b, err := io.ReadAll(io.LimitReader(f, most+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("-is: %v. Job not submitted", err)
	case len(b) > most:
		return nil, fmt.Errorf("-is %s: the file is larger than %d KB, the most lsfc spools. Job not submitted", name, most>>10)
	}
	return b, nil
}

// answerLostHint tells the user of a submission whose answer was lost
// how to find out whether it made a job.
func answerLostHint(req *api.SubmitRequest) string {
	name := req.Name
	if name == "" {
		name = oneLine(req.Command)
	}
	return "bsub: the job may have been created: check with bjobs -a -J " + shellQuote(name)
}

// shellQuote quotes s for the shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,%@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// bsub -K polls the job at intervals growing from waitFirstPoll to
// waitMaxPoll.
const (
	waitFirstPoll = 200 * time.Millisecond
	waitMaxPoll   = 2 * time.Second
)

// waitJob waits for a job to end, telling its progress on standard error
// as bsub -K does (where it starts when showHost), and returns the exit
// code bsub -K exits with: 0 for DONE, the job's exit code for EXIT (1
// when it has none), 126 when the job was killed before it started, 255
// when the job cannot be followed.
// While the daemon does not answer, it keeps trying.
func waitJob(ctx context.Context, e env, c *api.Client, id int64, showHost bool) int {
	fmt.Fprintln(e.stderr, "<<Waiting for dispatch ...>>")
	started, lost := false, false
	delay := waitFirstPoll
	for {
		j, err := c.Job(ctx, id)
		var ae *api.APIError
		switch {
		case errors.As(err, &ae):
			printLSFError(e, "bsub", err)
			return exitLSF
		case err != nil:
			if ctx.Err() != nil {
				return exitLSF
			}
			if !lost {
				fmt.Fprintf(e.stderr, "bsub: %v; still waiting\n", err)
				lost = true
			}
		default:
			lost = false
			if !started && j.Start != 0 {
				if showHost {
					fmt.Fprintf(e.stderr, "<<Starting on %s>>\n", firstHost(j))
				}
				started = true
			}
			switch j.State {
			case "DONE":
				fmt.Fprintln(e.stderr, "<<Job is finished>>")
				return 0
			case "EXIT":
				if !started {
					fmt.Fprintln(e.stderr, "<<Terminated while pending>>")
					return 126
				}
				fmt.Fprintln(e.stderr, "<<Job is finished>>")
				if j.ExitCode > 0 && j.ExitCode < 256 {
					return j.ExitCode
				}
				return 1
			}
		}
		select {
		case <-ctx.Done():
			return exitLSF
		case <-time.After(delay):
		}
		delay = min(2*delay, waitMaxPoll)
	}
}

// arraySpecError is a -J value that is no job name: bsub prints LSF's
// message and submits nothing.
type arraySpecError struct {
	value string
	err   error
}

func (e *arraySpecError) Error() string { return api.ArraySpecMessage(e.value, e.err) }

// waitArray waits for every element of job array id to end (bsub -K of
// an array): 0 when all are DONE, else the exit code of the first that
// exited (1 when it has none), 126 when one was killed while pending.
func waitArray(ctx context.Context, e env, c *api.Client, id int64) int {
	fmt.Fprintln(e.stderr, "<<Waiting for dispatch ...>>")
	delay, lost := waitFirstPoll, false
	for {
		jobs, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{id}})
		var ae *api.APIError
		switch {
		case errors.As(err, &ae):
			printLSFError(e, "bsub", err)
			return exitLSF
		case err != nil:
			if ctx.Err() != nil {
				return exitLSF
			}
			if !lost {
				fmt.Fprintf(e.stderr, "bsub: %v; still waiting\n", err)
				lost = true
			}
		case len(jobs) == 0:
			fmt.Fprintf(e.stderr, "bsub: job array %d is no longer known\n", id)
			return exitLSF
		default:
			lost = false
			if code, over := arrayOutcome(jobs); over {
				fmt.Fprintln(e.stderr, "<<Job is finished>>")
				return code
			}
		}
		select {
		case <-ctx.Done():
			return exitLSF
		case <-time.After(delay):
		}
		delay = min(2*delay, waitMaxPoll)
	}
}

// arrayOutcome returns whether every element ended and, if so, bsub -K's
// exit code for the array.
func arrayOutcome(jobs []api.Job) (code int, over bool) {
	for _, j := range jobs {
		if j.State != "DONE" && j.State != "EXIT" {
			return 0, false
		}
	}
	for _, j := range jobs {
		switch {
		case j.State == "DONE":
		case j.Start == 0:
			return 126, true
		case j.ExitCode > 0 && j.ExitCode < 256:
			return j.ExitCode, true
		default:
			return 1, true
		}
	}
	return 0, true
}

// firstHost returns the first execution host of a job, or "-".
func firstHost(j *api.Job) string {
	if len(j.ExecHosts) == 0 {
		return "-"
	}
	return j.ExecHosts[0]
}

// readJobScript reads a job script from standard input, which must not be
// a terminal: lsfc has no interactive "bsub>" prompt.
func readJobScript(r io.Reader) (string, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return "", errors.New("no command given (give it after the options, or pipe a job script to bsub)")
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, api.MaxRequestBytes))
	if err != nil {
		return "", fmt.Errorf("reading the job script: %w", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", errors.New("no command given, and the job script on standard input is empty")
	}
	return string(b), nil
}

// withScriptOptions returns a with the job script as its command and the
// options of the script's "#BSUB" lines (those before its first command)
// that the command line did not give.
func withScriptOptions(a *lsfArgs, script string) (*lsfArgs, error) {
	var words []string
	for line := range strings.Lines(script) {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "#") {
			break
		}
		rest, ok := strings.CutPrefix(t, "#BSUB")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		w, err := splitShellWords(rest)
		if err != nil {
			return nil, fmt.Errorf("job script line %q: %v", t, err)
		}
		words = append(words, w...)
	}
	sa, err := parseLSFArgs(words, bsubOptionList(), bsubRefusedOptions(), false)
	if err != nil {
		return nil, fmt.Errorf("#BSUB: %w", err)
	}
	if len(sa.operands) > 0 {
		return nil, fmt.Errorf("#BSUB: unexpected word %q", sa.operands[0])
	}
	out := &lsfArgs{opts: map[string][]string{}, operands: []string{script}, state: a.state, help: a.help}
	merge := func(from *lsfArgs, skip func(string) bool) {
		next := map[string]int{}
		for j, name := range from.seq {
			i := next[name]
			next[name]++
			if !skip(name) {
				out.add(from.words[j], name, from.opts[name][i])
			}
		}
	}
	merge(sa, a.has)
	merge(a, func(string) bool { return false })
	return out, nil
}

// splitShellWords splits a line into words as a POSIX shell does for
// quoting: blanks separate words, '...' and "..." group, a backslash
// escapes the next character (outside single quotes).
func splitShellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\\' && i+1 < len(s) && (quote == 0 || strings.IndexByte(`"\$`+"`", s[i+1]) >= 0):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
