package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/lsfc/lsfc/runtime/api"
)

// exitLSF is the exit code of an LSF command that failed, as LSF's own
// commands exit.
const exitLSF = 255

// lsfSpec describes one LSF command for newLSFCmd.
type lsfSpec struct {
	name, short, long, example string
	operands                   string // the operands in the usage line: "[JOBID ...]"
	options                    []lsfOption
	// refused are the options LSF 10.1 documents for the command that
	// lsfc does not implement: given, they are refused with exit 255.
	refused []lsfOption
	// stopAtOperand ends the options at the first operand, as bsub does.
	stopAtOperand bool
}

// An lsfCommand is one LSF command: what its help and usage say, and what
// it does with its options once read. lsfc and lsfc-client run it the same
// way (execute), without building any other command: an LSF command starts
// thousands of times, and pays only for itself.
type lsfCommand struct {
	e    env
	spec lsfSpec
	run  func(ctx context.Context, a *lsfArgs) error
}

// newLSFCmd returns an LSF command. Its options are read by parseLSFArgs,
// so that LSF's spellings (-cwd, -noheader, -json) work; run gets them.
func newLSFCmd(e env, s lsfSpec, run func(ctx context.Context, a *lsfArgs) error) *lsfCommand {
	return &lsfCommand{e: e, spec: s, run: run}
}

// use returns the command's usage: its name, options and operands.
func (c *lsfCommand) use() string {
	use := c.spec.name
	if len(c.spec.options) > 0 {
		use += " " + lsfUsage(c.spec.options)
	}
	if c.spec.operands != "" {
		use += " " + c.spec.operands
	}
	return use
}

// long returns the command's description, with the options it refuses.
func (c *lsfCommand) long() string { return c.spec.long + refusedHelp(c.spec) }

// execute runs the command with its arguments (those after its name): it
// reads the options, prints the help for -h, hands a run that asks for
// TLS to lsfc where this build speaks none, and runs the command. An
// option LSF documents and lsfc does not implement exits 255 with LSF's
// words; any other mistake in the options is a usage error.
func (c *lsfCommand) execute(ctx context.Context, argv []string) error {
	s, e := c.spec, c.e
	a, err := parseLSFArgs(argv, s.options, s.refused, s.stopAtOperand)
	if _, ok := errors.AsType[*unsupportedOptionError](err); ok {
		return lsfFailed(e, s.name, err)
	}
	if err != nil {
		return usageError("%s: %v (lsfc %s -h lists the options)", s.name, err, s.name)
	}
	if a.help {
		_, err := io.WriteString(e.stdout, c.help())
		return err
	}
	if wantsTLS(e, a) {
		if err := tlsHandOff(e); err != nil {
			return lsfFailed(e, s.name, err)
		}
	}
	return c.run(ctx, a)
}

// help returns the command's help, laid out as lsfc help shows every
// command's: the description, then usage, examples and the help flag.
func (c *lsfCommand) help() string {
	var b strings.Builder
	text := c.long()
	if text == "" {
		text = c.spec.short
	}
	if text = strings.TrimRightFunc(text, unicode.IsSpace); text != "" {
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	b.WriteString("Usage:\n  lsfc ")
	b.WriteString(c.use())
	if !strings.Contains(c.use(), "[flags]") {
		b.WriteString(" [flags]")
	}
	if c.spec.example != "" {
		b.WriteString("\n\nExamples:\n")
		b.WriteString(c.spec.example)
	}
	b.WriteString("\n\nFlags:\n  -h, --help   help for ")
	b.WriteString(c.spec.name)
	b.WriteString("\n")
	return b.String()
}

// lsfCommands returns the LSF commands, in the order lsfc's help lists
// them, each with the function that makes it.
func lsfCommands() []lsfEntry {
	return []lsfEntry{
		{"bacct", newBacctCmd},
		{"bhist", newBhistCmd},
		{"bsub", newBsubCmd},
		{"bjobs", newBjobsCmd},
		{"bkill", newBkillCmd},
		{"bstop", newBstopCmd},
		{"brequeue", newBrequeueCmd},
		{"bpeek", newBpeekCmd},
		{"bresume", newBresumeCmd},
		{"bresize", newBresizeCmd},
		{"btop", newBtopCmd},
		{"bbot", newBbotCmd},
		{"bswitch", newBswitchCmd},
		{"bmod", newBmodCmd},
		{"bqueues", newBqueuesCmd},
		{"bhosts", newBhostsCmd},
		{"lshosts", newLshostsCmd},
		{"lsload", newLsloadCmd},
		{"badmin", newBadminCmd},
		{"bparams", newBparamsCmd},
		{"lsadmin", newLsadminCmd},
		{"bsla", newBslaCmd},
		{"bslots", newBslotsCmd},
		{"busers", newBusersCmd},
		{"blimits", newBlimitsCmd},
		{"bugroup", newBugroupCmd},
		{"bmgroup", newBmgroupCmd},
		{"bapp", newBappCmd},
		{"bgadd", newBgaddCmd},
		{"bgdel", newBgdelCmd},
		{"bgmod", newBgmodCmd},
		{"bjgroup", newBjgroupCmd},
		{"brsvadd", newBrsvaddCmd},
		{"brsvdel", newBrsvdelCmd},
		{"brsvmod", newBrsvmodCmd},
		{"brsvs", newBrsvsCmd},
		{"lsid", newLsidCmd},
		{"lsclusters", newLsclustersCmd},
		{"lsinfo", newLsinfoCmd},
	}
}

// An lsfEntry names an LSF command and the function that makes it.
type lsfEntry struct {
	name   string
	newCmd func(env) *lsfCommand
}

// lsfCommandNamed returns the function that makes the LSF command of that
// name, or nil when there is none (sbatchd, the execution agent, is
// lsfc's own command).
func lsfCommandNamed(name string) func(env) *lsfCommand {
	for _, c := range lsfCommands() {
		if c.name == name {
			return c.newCmd
		}
	}
	return nil
}

// refusedHelp returns the part of an LSF command's help that names the
// options LSF documents for it and lsfc refuses, or "" when there are
// none.
func refusedHelp(s lsfSpec) string {
	if len(s.refused) == 0 {
		return ""
	}
	names := make([]string, len(s.refused))
	for i, o := range s.refused {
		names[i] = "-" + o.name
	}
	return "\n\n" + wrapWords(fmt.Sprintf("The options LSF documents for %s that lsfc does not implement are refused (\"%s: option -X is not supported by lsfc\", exit 255): %s.",
		s.name, s.name, strings.Join(names, ", ")), 75)
}

// wrapWords breaks text into lines of at most width bytes, at blanks.
func wrapWords(text string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(text) {
		if i > 0 {
			if line+1+len(w) > width {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// lsfStateHelp is the part of each LSF command's help that tells how it
// finds the daemon.
const lsfStateHelp = `
The command talks to the lsfc serve of the state directory --state DIR;
else, when $LSFC_MASTER is set, to the master at that TCP address (or the
leader of the master candidates it lists, separated by commas), with the
shared secret of $LSFC_SECRET or the file $LSFC_SECRET_FILE, over TLS
when $LSFC_TLS_CA (the authorities of the master's certificate) or
$LSFC_TLS_CERT and $LSFC_TLS_KEY (a client certificate, whose name is the
user) are set; else to the
one of $LSFC_STATE, else LSB_SHAREDIR/<cluster> of $LSF_ENVDIR/lsf.conf
when it can be written, else $XDG_STATE_HOME/lsfc/<cluster> -- the
directory lsfc serve itself picks. A request whose answer is lost (the
connection ends after it was sent) is sent again, with its submission
token, for $LSFC_RETRY_WAIT (default 30s). Invoked through a link named after the command
(bsub -> lsfc), lsfc acts as that command.`

// dialDaemon returns a client of the daemon the LSF commands talk to.
func dialDaemon(e env, a *lsfArgs) (*api.Client, error) {
	c, err := dialClient(e, a)
	if err != nil {
		return nil, err
	}
	if s := e.getenv("LSFC_RETRY_WAIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return nil, exit(exitUsage, fmt.Errorf("LSFC_RETRY_WAIT=%q is not a duration such as 30s", s))
		}
		c.SetRetryWait(d)
	}
	return c, nil
}

// dialClient returns a client of the daemon of the state directory, or
// of the master of LSFC_MASTER.
func dialClient(e env, a *lsfArgs) (*api.Client, error) {
	if master := e.getenv("LSFC_MASTER"); master != "" && a.state == "" {
		secret, err := readSecret(e, e.getenv("LSFC_SECRET_FILE"))
		if err != nil {
			return nil, err
		}
		cert, key, ca := e.getenv("LSFC_TLS_CERT"), e.getenv("LSFC_TLS_KEY"), e.getenv("LSFC_TLS_CA")
		if secret == "" && cert == "" {
			return nil, errors.New("LSFC_MASTER needs the shared secret or a client certificate: set LSFC_SECRET, LSFC_SECRET_FILE or LSFC_TLS_CERT")
		}
		c := api.DialTCP(master, secret, currentUser())
		if cert != "" || key != "" || ca != "" {
			if err := useTLS(c, cert, key, ca); err != nil {
				return nil, err
			}
		}
		return c, nil
	}
	dir, err := clientStateDir(e, a.state)
	if err != nil {
		return nil, err
	}
	return api.Dial(dir), nil
}

// wantsTLS reports whether an LSF command's run talks TLS to a master:
// $LSFC_MASTER with any of $LSFC_TLS_CERT, $LSFC_TLS_KEY, $LSFC_TLS_CA,
// and no --state.
func wantsTLS(e env, a *lsfArgs) bool {
	return e.getenv("LSFC_MASTER") != "" && a.state == "" &&
		(e.getenv("LSFC_TLS_CERT") != "" || e.getenv("LSFC_TLS_KEY") != "" || e.getenv("LSFC_TLS_CA") != "")
}

// handOffTLS runs, in place of the LSF commands' build (lsfc-client, which
// links no TLS: it would slow every command's start), the lsfc installed
// beside it (self is the running executable), else the first on $PATH,
// with the same command line: exec replaces the process. It returns an
// error only when there is no lsfc to run, or exec fails.
func handOffTLS(e env, self string, args []string, exec func(path string, argv, env []string) error) error {
	path, tried, err := handOff(e, self, "lsfc", args, true, exec)
	if path != "" {
		return fmt.Errorf("running %s for TLS: %w", path, err)
	}
	return fmt.Errorf("LSFC_TLS_CERT, LSFC_TLS_KEY or LSFC_TLS_CA asks for TLS, which this build of the LSF commands leaves to lsfc, and no lsfc is found (tried %s)",
		strings.Join(tried, ", "))
}

// handOff runs, in place of this process, the program name (lsfc, or
// lsfc-master) installed beside self (the running executable), else the
// first on $PATH, with args as its command line: exec replaces the
// process. With notSelf, a program that is self under another name is
// passed over. It returns the program it ran and exec's error when exec
// fails, or "" and the paths it tried when there is none to run.
func handOff(e env, self, name string, args []string, notSelf bool, exec func(path string, argv, env []string) error) (path string, tried []string, err error) {
	try := func(path string) (bool, error) {
		tried = append(tried, path)
		st, err := os.Stat(path)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return false, nil
		}
		if me, err := os.Stat(self); notSelf && err == nil && os.SameFile(st, me) {
			return false, nil // lsfc-client itself, under the name lsfc
		}
		return true, exec(path, append([]string{name}, args...), os.Environ())
	}
	candidates := []string{filepath.Join(filepath.Dir(self), name)}
	for dir := range strings.SplitSeq(e.getenv("PATH"), string(os.PathListSeparator)) {
		if dir != "" {
			candidates = append(candidates, filepath.Join(dir, name))
		}
	}
	for _, c := range candidates {
		if ok, err := try(c); ok {
			return c, tried, err
		}
	}
	return "", tried, nil
}

// readSecret returns the cluster's shared secret: the file's content when
// file is given, else $LSFC_SECRET ("" when neither is).
func readSecret(e env, file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(e.getenv("LSFC_SECRET")), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", exit(exitUsage, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// currentUser is the name of the user running the command.
func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "uid" + strconv.Itoa(os.Getuid())
}

// clientStateDir resolves the state directory as lsfc serve does: flag,
// else LSFC_STATE, else from the configuration tree of LSF_ENVDIR.
func clientStateDir(e env, flag string) (string, error) {
	if flag == "" {
		flag = e.getenv("LSFC_STATE")
	}
	var share, cluster string
	if flag == "" {
		share, cluster = treeShareDir(e.getenv("LSF_ENVDIR"))
	}
	return api.StateDir(flag, share, cluster)
}

// lsfFailed prints why an LSF command failed and returns its exit.
func lsfFailed(e env, name string, err error) error {
	printLSFError(e, name, err)
	return exit(exitLSF, nil)
}

// printLSFError prints an error of an LSF command on standard error: the
// daemon's message as it is (LSF's words), other errors, and the
// daemon's refusal for want of space, after the command's name.
func printLSFError(e env, name string, err error) {
	var ae *api.APIError
	if errors.As(err, &ae) && ae.Status != api.StatusInsufficientStorage {
		fmt.Fprintln(e.stderr, ae.Message)
		return
	}
	fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
}

// parseJobID reads a job id operand: a positive decimal number, or a whole
// "Job <N> is submitted ..." line as bsub prints it (what a workflow
// engine that keeps bsub's output as the id passes on). The error is
// LSF's message.
func parseJobID(s string) (int64, error) {
	if rest, ok := strings.CutPrefix(s, "Job <"); ok {
		if id, _, ok := strings.Cut(rest, "> is submitted"); ok {
			s = id
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		//lint:ignore ST1005 LSF's own message, word for word
		return 0, fmt.Errorf("%s: Illegal job ID.", s)
	}
	return n, nil
}

// A jobTarget is a job operand of bkill, bstop and the other commands: a
// job (or a whole job array) by ID, or elements of an array ("12[1-5]").
type jobTarget struct {
	id      int64
	indices []int // nil: the whole job
}

// parseJobTarget reads a job operand: what parseJobID reads, or an array's
// elements, "12[3]" or "12[1-10:2,15]".
func parseJobTarget(s string) (jobTarget, error) {
	if !strings.Contains(s, "[") {
		id, err := parseJobID(s)
		return jobTarget{id: id}, err
	}
	id, indices, err := api.ParseJobIDList(s)
	return jobTarget{id, indices}, err
}

// targetsOf returns the targets of jobs the daemon listed: a job by its
// ID, and the elements of an array that follow one another as one target
// of the array, so that one request acts on them all.
func targetsOf(jobs []api.Job) []jobTarget {
	var out []jobTarget
	for _, j := range jobs {
		id, index := api.SplitID(j.ID)
		if n := len(out); index > 0 && n > 0 && out[n-1].id == id && out[n-1].indices != nil {
			out[n-1].indices = append(out[n-1].indices, index)
			continue
		}
		if index > 0 {
			out = append(out, jobTarget{id: id, indices: []int{index}})
			continue
		}
		out = append(out, jobTarget{id: j.ID})
	}
	return out
}

// applyAction sends an action for a target and prints the daemon's
// answer: its messages on standard output, what failed on standard error
// (unless quiet). It reports whether everything succeeded.
func applyAction(ctx context.Context, e env, c *api.Client, name string, t jobTarget, action string, req *api.ActionRequest, quiet bool) bool {
	if t.indices != nil {
		r := api.ActionRequest{}
		if req != nil {
			r = *req
		}
		r.Indices = t.indices
		req = &r
	}
	resp, err := c.JobAction(ctx, t.id, action, req)
	if err != nil {
		if !quiet {
			printLSFError(e, name, err)
		}
		return false
	}
	if resp.Message != "" {
		fmt.Fprintln(e.stdout, resp.Message)
	}
	if !quiet {
		for _, m := range resp.Errors {
			fmt.Fprintln(e.stderr, m)
		}
	}
	return len(resp.Errors) == 0
}

// lsfTime formats Unix seconds as bjobs does ("Nov 21 23:38"), or "" for
// zero.
func lsfTime(sec int64, loc *time.Location) string {
	if sec == 0 {
		return ""
	}
	return time.Unix(sec, 0).In(loc).Format("Jan _2 15:04")
}

// lsfLongTime formats Unix seconds as bjobs -l does ("Mon Nov 21
// 23:38:02").
func lsfLongTime(sec int64, loc *time.Location) string {
	return time.Unix(sec, 0).In(loc).Format("Mon Jan _2 15:04:05")
}

// pickNamed returns the items named (hosts, queues), in the order named,
// and the names that are no item; with no name, all the items.
func pickNamed[T any](all []T, names []string, name func(T) string) (picked []T, missing []string) {
	if len(names) == 0 {
		return all, nil
	}
	for _, n := range names {
		i := slices.IndexFunc(all, func(x T) bool { return name(x) == n })
		if i < 0 {
			missing = append(missing, n)
			continue
		}
		picked = append(picked, all[i])
	}
	return picked, missing
}
