package localexec

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process tracking (lsf.conf LSF_PROCESS_TRACKING=Y, Spec.ProcessTracking)
// runs each job's shell in a cgroup v2 of its own, made by the job's
// wrapper under the Executor's base cgroup:
//
//	<cgroup2 mount>/lsfc/lsfc.<hash of the Executor's directory>/job.<id>
//
// The shell is born in it (clone3 with CLONE_INTO_CGROUP), and every
// process it starts stays in it whatever process group or session it
// makes, since only a writer of the cgroup tree (root) can move it out.
// The job's signals then go to every process of the cgroup, SIGKILL
// through cgroup.kill, and once the shell ends whatever is left of the
// job is killed and the cgroup removed. The name depends on the job id
// and the Executor's directory alone, so that an Executor started again
// finds the cgroups of its jobs.

// cgroup2Magic is CGROUP2_SUPER_MAGIC, the file system type of a cgroup
// v2 hierarchy.
const cgroup2Magic = 0x63677270

// cgroupMountInfo is the file the cgroup v2 mount is looked for in;
// tests point it elsewhere.
var cgroupMountInfo = "/proc/self/mountinfo"

// cgroupEmptyWait bounds how long the wrapper waits for the processes of
// a killed cgroup to go before it tries to remove it.
const cgroupEmptyWait = 2 * time.Second

// cgroup2Mount returns the mount point of the first cgroup v2 hierarchy
// in the content of a mountinfo file, "" for none. A mount point's
// blanks and other special bytes are written as octal escapes (\040).
func cgroup2Mount(mountinfo string) string {
	sc := bufio.NewScanner(strings.NewReader(mountinfo))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f := strings.Fields(pre)
		g := strings.Fields(post)
		if len(f) < 5 || len(g) < 1 || g[0] != "cgroup2" {
			continue
		}
		if p := unescapeMount(f[4]); strings.HasPrefix(p, "/") {
			return p
		}
	}
	return ""
}

// unescapeMount undoes mountinfo's octal escapes (\ooo).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupBaseName is the name of the Executor's base cgroup below the
// lsfc cgroup: one for each Executor directory.
func cgroupBaseName(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return "lsfc." + hex.EncodeToString(sum[:6])
}

// setupCgroupBase finds the cgroup v2 hierarchy, makes the Executor's
// base cgroup in it and checks that a process can be started into a
// cgroup of it. It returns the base's path, or why jobs cannot be
// tracked by cgroup.
func setupCgroupBase(dir string) (string, error) {
	data, err := os.ReadFile(cgroupMountInfo)
	if err != nil {
		return "", fmt.Errorf("cannot read the mounts: %v", err)
	}
	mount := cgroup2Mount(string(data))
	if mount == "" {
		return "", errors.New("no cgroup v2 hierarchy is mounted")
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(mount, &fs); err != nil {
		return "", fmt.Errorf("cannot read the cgroup v2 hierarchy %s: %v", mount, err)
	}
	if fs.Type != cgroup2Magic {
		return "", fmt.Errorf("%s is not a cgroup v2 hierarchy", mount)
	}
	base := filepath.Join(mount, "lsfc", cgroupBaseName(dir))
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("cannot make cgroup %s: %v", base, err)
	}
	// A process started into a cgroup of the base proves the whole way
	// (a writable hierarchy, clone3 with CLONE_INTO_CGROUP).
	probe := filepath.Join(base, "probe."+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("cannot make cgroup %s: %v", probe, err)
	}
	defer os.Remove(probe)
	fd, err := syscall.Open(probe, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", fmt.Errorf("cannot open cgroup %s: %v", probe, err)
	}
	defer syscall.Close(fd)
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("cannot start a process in cgroup %s: %v", probe, err)
	}
	return base, nil
}

// jobCgroupPath is the path of job id's cgroup below base.
func jobCgroupPath(base string, id int64) string {
	return filepath.Join(base, "job."+strconv.FormatInt(id, 10))
}

// openJobCgroup makes job id's cgroup below base (or takes the one an
// earlier run of the id left, killing what is in it) and opens it for
// clone3. The caller closes the descriptor once the job's shell runs.
func openJobCgroup(base string, id int64) (string, int, error) {
	path := jobCgroupPath(base, id)
	err := os.Mkdir(path, 0o755)
	if errors.Is(err, os.ErrNotExist) {
		// The base went since the Executor made it (removed by hand, or
		// by a tool that cleans cgroups up): it is made again.
		if err = os.MkdirAll(base, 0o755); err == nil {
			err = os.Mkdir(path, 0o755)
		}
	}
	if errors.Is(err, os.ErrExist) {
		killCgroup(path)
	} else if err != nil {
		return "", -1, err
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(path)
		return "", -1, err
	}
	return path, fd, nil
}

// cgroupPids returns the processes of the cgroup at path; the error is
// that of reading its cgroup.procs.
func cgroupPids(path string) ([]int, error) {
	data, err := readFile(filepath.Join(path, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// signalCgroup sends sig to every process of the cgroup at path and of
// the cgroups below it (a job may make some, when it can write its own):
// SIGKILL through cgroup.kill, which reaches them all and processes being
// forked too (kernel 5.14), and otherwise, or on an older kernel, to each
// process of their cgroup.procs, read again until no new one shows. The
// error is syscall.ESRCH when the cgroup has no process (or is gone).
func signalCgroup(path string, sig syscall.Signal) error {
	if !cgroupPopulated(path) {
		return syscall.ESRCH
	}
	if sig == syscall.SIGKILL && os.WriteFile(filepath.Join(path, "cgroup.kill"), []byte("1"), 0) == nil {
		return nil
	}
	sent := map[int]bool{}
	for range 5 {
		fresh := false
		for _, pid := range cgroupTreePids(path) {
			if !sent[pid] {
				sent[pid], fresh = true, true
				syscall.Kill(pid, sig)
			}
		}
		if !fresh {
			break
		}
	}
	if len(sent) == 0 {
		return syscall.ESRCH
	}
	return nil
}

// cgroupTreePids returns the processes of the cgroup at path and of the
// cgroups below it.
func cgroupTreePids(path string) []int {
	pids, _ := cgroupPids(path)
	ents, _ := os.ReadDir(path)
	for _, ent := range ents {
		if ent.IsDir() {
			pids = append(pids, cgroupTreePids(filepath.Join(path, ent.Name()))...)
		}
	}
	return pids
}

// cgroupPopulated reports whether the cgroup at path, or one below it,
// has a process left: cgroup.events says so ("populated 1"), and
// cgroup.procs where it cannot be read.
func cgroupPopulated(path string) bool {
	data, err := readFile(filepath.Join(path, "cgroup.events"))
	if err != nil {
		return len(cgroupTreePids(path)) > 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "populated "); ok {
			return strings.TrimSpace(v) != "0"
		}
	}
	return len(cgroupTreePids(path)) > 0
}

// cgroupCPU returns the CPU time, user and system, that the processes
// of the cgroup at path, and of those below it, have used since it was
// made, those that have ended included: the usage_usec of its cpu.stat,
// which cgroup v2 keeps whether or not the cpu controller is enabled.
func cgroupCPU(path string) (time.Duration, error) {
	data, err := readFile(filepath.Join(path, "cpu.stat"))
	if err != nil {
		return 0, err
	}
	return parseCPUStat(string(data))
}

// parseCPUStat reads the usage_usec line of a cpu.stat's content.
func parseCPUStat(s string) (time.Duration, error) {
	for line := range strings.SplitSeq(s, "\n") {
		v, ok := strings.CutPrefix(line, "usage_usec ")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 63)
		if err != nil || n > uint64(math.MaxInt64/time.Microsecond) {
			return 0, fmt.Errorf("cpu.stat has a bad usage_usec %q", v)
		}
		return time.Duration(n) * time.Microsecond, nil
	}
	return 0, errors.New("cpu.stat has no usage_usec")
}

// waitCgroupEmpty waits up to d for the cgroup at path to have no
// process left.
func waitCgroupEmpty(path string, d time.Duration) {
	for deadline := time.Now().Add(d); cgroupPopulated(path) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// killCgroup kills every process of the cgroup at path.
func killCgroup(path string) { signalCgroup(path, syscall.SIGKILL) }

// removeCgroup kills what is left in the cgroup at path, waits up to d
// for it to empty and removes it, the cgroups below it first. A cgroup
// already gone is no error.
func removeCgroup(path string, d time.Duration) error {
	killCgroup(path)
	deadline := time.Now().Add(d)
	for {
		err := rmdirTree(path)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || !time.Now().Before(deadline) {
			return fmt.Errorf("cannot remove cgroup %s: %v", path, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// reapRemove is removeCgroup for reapCgroup; tests make it fail.
var reapRemove = removeCgroup

// rmdirTree removes the cgroup at path after the cgroups below it.
func rmdirTree(path string) error {
	ents, _ := os.ReadDir(path)
	for _, ent := range ents {
		if ent.IsDir() {
			if err := rmdirTree(filepath.Join(path, ent.Name())); err != nil && !errors.Is(err, syscall.ENOENT) {
				return err
			}
		}
	}
	return syscall.Rmdir(path)
}

// logf passes a notice to the Executor's Logf, if any.
func (e *Executor) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// cgroupBase returns the base cgroup of the jobs of Spec.ProcessTracking,
// found (and made) at the first call, or "" when the host has none the
// Executor can use: those jobs are then tracked by process group, and the
// first call logs why. The cgroups that jobs of an earlier Executor of
// the same directory left, and that no job of this one runs in, are
// removed, their processes killed.
func (e *Executor) cgroupBase() string {
	e.cgOnce.Do(func() {
		base, err := setupCgroupBase(e.dir)
		if err != nil {
			e.logf("LSF_PROCESS_TRACKING=Y: jobs are tracked by their process group, not by cgroup: %v", err)
			return
		}
		e.mu.Lock()
		e.cgBase = base
		e.mu.Unlock()
		e.logf("LSF_PROCESS_TRACKING=Y: each job runs in a cgroup of its own under %s", base)
		ents, _ := os.ReadDir(base)
		for _, ent := range ents {
			if strings.HasPrefix(ent.Name(), "probe.") {
				// A probe's process has ended: its cgroup is empty,
				// unless another Executor of the directory probes now.
				os.Remove(filepath.Join(base, ent.Name()))
				continue
			}
			id, err := strconv.ParseInt(strings.TrimPrefix(ent.Name(), "job."), 10, 64)
			if !ent.IsDir() || !strings.HasPrefix(ent.Name(), "job.") || err != nil || id <= 0 {
				continue
			}
			e.reapCgroup(id, filepath.Join(base, ent.Name())) // not while the id runs
		}
	})
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cgBase
}

// reapCgroup removes the cgroup of job id, which has ended, killing what
// is left in it: path, or, when "", the one its name gives under the
// base cgroup once found. It does nothing while a job of the id runs
// (started again meanwhile): the check and the removal hold e.mu, so that
// no Start of the id comes between them. A cgroup that cannot be removed
// yet is logged and tried again later (retryCgroups).
func (e *Executor) reapCgroup(id int64, path string) {
	e.mu.Lock()
	if path == "" {
		if e.cgBase == "" {
			e.mu.Unlock()
			return
		}
		path = jobCgroupPath(e.cgBase, id)
	}
	if e.jobs[id] != nil {
		e.mu.Unlock()
		return
	}
	err := reapRemove(path, 0)
	_, known := e.cgLeft[id]
	logged := e.cgLogged[id]
	switch {
	case err == nil:
		delete(e.cgLeft, id)
		delete(e.cgLogged, id)
	case !known:
		// Its processes may be ending from the kill just sent: it is
		// said only if it is still there when tried again.
		if e.cgLeft == nil {
			e.cgLeft, e.cgLogged = map[int64]string{}, map[int64]bool{}
		}
		e.cgLeft[id] = path
	case !logged:
		e.cgLogged[id] = true
	}
	e.mu.Unlock()
	if err != nil && known && !logged {
		e.logf("job %d has ended but %v; it is tried again later", id, err)
	}
}

// killUnseen kills the processes of job id that rec names, whose wrapper
// did not answer or is gone: its process group while its leader lives,
// its whole cgroup when it has one, which goes to be removed once the id
// no longer runs (retryCgroups).
func (e *Executor) killUnseen(id int64, rec pidRecord) {
	if rec.leaderAlive() || rec.Cgroup != "" {
		rec.signalGroup(syscall.SIGKILL)
	}
	if rec.Cgroup == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, known := e.cgLeft[id]; !known {
		if e.cgLeft == nil {
			e.cgLeft, e.cgLogged = map[int64]string{}, map[int64]bool{}
		}
		e.cgLeft[id] = rec.Cgroup
	}
}

// retryCgroups tries again to remove the cgroups of ended jobs that could
// not be removed, but those of a job running again under the same id.
func (e *Executor) retryCgroups() {
	e.mu.Lock()
	left := map[int64]string{}
	for id, path := range e.cgLeft {
		if e.jobs[id] == nil {
			left[id] = path
		}
	}
	e.mu.Unlock()
	for id, path := range left {
		e.reapCgroup(id, path)
	}
}
