package localexec

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// jobScript returns the job file of s: a #!/bin/sh line, a comment naming
// the job, and the command. Any user text in the comment is quoted, so it
// cannot end the comment line.
func jobScript(s *Spec) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "# lsfc job %s: name %q, queue %q, user %q\n", jobLabel(s), s.Name, s.Queue, s.User)
	b.WriteString(s.Command)
	if !strings.HasSuffix(s.Command, "\n") {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// jobLabel is the job's id as LSF prints it: 42, or 42[7] for an element
// of a job array.
func jobLabel(s *Spec) string {
	if s.Index > 0 {
		return fmt.Sprintf("%d[%d]", s.lsfID(), s.Index)
	}
	return strconv.FormatInt(s.JobID, 10)
}

// expandPath replaces %J by the job id and %I by the array index in an -o
// or -e path.
func expandPath(p string, id int64, index int) string {
	if !strings.Contains(p, "%") {
		return p
	}
	return strings.NewReplacer("%J", strconv.FormatInt(id, 10), "%I", strconv.Itoa(index)).Replace(p)
}

// outputPath returns the file of a -o or -e path: %J and %I expanded, and,
// for a path ending in a slash (a directory, as LSF reads it), the file
// JOBID.out or JOBID.err in that directory (JOBID[INDEX] for an element of
// an array).
func outputPath(path string, id int64, index int, ext string) string {
	name := expandPath(path, id, index)
	if name == "" || !strings.HasSuffix(name, "/") {
		return name
	}
	file := strconv.FormatInt(id, 10)
	if index > 0 {
		file += "[" + strconv.Itoa(index) + "]"
	}
	return name + file + ext
}

// mcpuHosts is LSB_MCPU_HOSTS for the slot list hosts: each host once, in
// the order of its first slot, followed by its number of slots ("hostA 2
// hostB 1").
func mcpuHosts(hosts []string) string {
	var order []string
	count := map[string]int{}
	for _, h := range hosts {
		if count[h] == 0 {
			order = append(order, h)
		}
		count[h]++
	}
	parts := make([]string, 0, 2*len(order))
	for _, h := range order {
		parts = append(parts, h, strconv.Itoa(count[h]))
	}
	return strings.Join(parts, " ")
}

// A jobPaths holds where a job's files are, as the job sees them.
type jobPaths struct {
	jobFile string // the job file
	stdout  string // the absolute -o path, "" when there is none
	stderr  string // the absolute -e path, "" when there is none
	outDir  string // the -outdir directory, "" when there is none
}

// jobEnv returns the job's environment: the submission environment without
// the variables the Executor sets, then those: LSB_JOBID, LSB_JOBINDEX,
// LSB_HOSTS and LSB_MCPU_HOSTS (when there are hosts), LSB_QUEUE,
// LSB_JOBNAME, LSB_JOBFILENAME, LSB_OUTPUTFILE and LSB_ERRORFILE when
// set, and CUDA_VISIBLE_DEVICES for a job that holds GPUs.
func jobEnv(s *Spec, p jobPaths) []string {
	set := [][2]string{
		{"LSB_JOBID", strconv.FormatInt(s.lsfID(), 10)},
		{"LSB_JOBINDEX", strconv.Itoa(s.Index)},
	}
	if s.Index > 0 && s.IndexEnd > 0 {
		set = append(set, [2]string{"LSB_JOBINDEX_END", strconv.Itoa(s.IndexEnd)},
			[2]string{"LSB_JOBINDEX_STEP", strconv.Itoa(max(s.IndexStep, 1))})
	}
	if len(s.Hosts) > 0 {
		set = append(set,
			[2]string{"LSB_HOSTS", strings.Join(s.Hosts, " ")},
			[2]string{"LSB_MCPU_HOSTS", mcpuHosts(s.Hosts)})
	}
	set = append(set,
		[2]string{"LSB_QUEUE", s.Queue},
		[2]string{"LSB_JOBNAME", s.Name},
		[2]string{"LSB_JOBFILENAME", p.jobFile})
	if p.stdout != "" {
		set = append(set, [2]string{"LSB_OUTPUTFILE", p.stdout})
	}
	if p.stderr != "" {
		set = append(set, [2]string{"LSB_ERRORFILE", p.stderr})
	}
	if p.outDir != "" {
		set = append(set, [2]string{"LSB_OUTDIR", p.outDir})
	}
	if len(s.GPUs) > 0 {
		ids := make([]string, len(s.GPUs))
		for i, x := range s.GPUs {
			ids[i] = strconv.Itoa(x)
		}
		set = append(set, [2]string{"CUDA_VISIBLE_DEVICES", strings.Join(ids, ",")})
	}
	ours := map[string]bool{"LSB_OUTPUTFILE": true, "LSB_ERRORFILE": true, "LSB_OUTDIR": true, "LSB_HOSTS": true, "LSB_MCPU_HOSTS": true}
	for _, kv := range set {
		ours[kv[0]] = true
	}
	env := make([]string, 0, len(s.Env)+len(set))
	for _, kv := range s.Env {
		key, _, _ := strings.Cut(kv, "=")
		if !ours[key] {
			env = append(env, kv)
		}
	}
	for _, kv := range set {
		env = append(env, kv[0]+"="+kv[1])
	}
	return env
}

// errNoCwd is the error of a job whose working directory cannot be
// entered when its submission environment sets LSB_EXIT_IF_CWD_NOTEXIST:
// it exits with code 2, as LSF's does.
var errNoCwd = errors.New("the working directory cannot be entered and LSB_EXIT_IF_CWD_NOTEXIST is set")

// cwdExitCode is the exit code of a job refused for errNoCwd.
const cwdExitCode = 2

// exitIfCwdMissing reports whether a submission environment asks a job
// whose working directory cannot be entered to exit rather than run in
// /tmp: LSB_EXIT_IF_CWD_NOTEXIST=Y.
func exitIfCwdMissing(env []string) bool {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "LSB_EXIT_IF_CWD_NOTEXIST" {
			return strings.EqualFold(v, "y")
		}
	}
	return false
}

// enterDir enters the job's working directory with chdir and returns it:
// cwd (taken from home when relative), else /tmp when cwd cannot be
// entered (with strict, errNoCwd instead); home when cwd is "", else /.
// It returns an error only then, or when not even / can be entered.
func enterDir(cwd, home string, strict bool, chdir func(string) error) (string, error) {
	var tries []string
	if cwd != "" {
		if !filepath.IsAbs(cwd) && home != "" {
			cwd = filepath.Join(home, cwd)
		}
		if strict {
			if err := chdir(cwd); err != nil {
				return "", fmt.Errorf("%w: %v", errNoCwd, err)
			}
			return filepath.Clean(cwd), nil
		}
		tries = append(tries, cwd, "/tmp")
	} else if home != "" {
		tries = append(tries, home)
	}
	tries = append(tries, "/")
	var err error
	for _, d := range tries {
		if err = chdir(d); err == nil {
			return filepath.Clean(d), nil
		}
	}
	return "", err
}
