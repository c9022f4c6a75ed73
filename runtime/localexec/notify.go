package localexec

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// RunNotify runs a resizable job's resize notification command on this
// host, by /bin/sh -c, as the job's user (when the caller is root), in
// the job's working directory (or /tmp when it cannot be entered), with
// the job's environment and extra (the LSB_RESIZE_* variables), its
// standard files /dev/null. It waits for the command and returns its
// exit code: 128 plus the signal that ended it, 127 when it could not
// start (or its user is not known on this host). A spec without ids (a
// job of a remote client) runs as its user name's.
func RunNotify(s Spec, command string, extra []string) int {
	if s.resolveIDs() != nil {
		return 127
	}
	u := jobUserOf(&s, os.Geteuid())
	var env []string
	for _, kv := range jobEnv(&s, jobPaths{}) {
		if !strings.HasPrefix(kv, "LSB_JOBFILENAME=") {
			env = append(env, kv)
		}
	}
	env = append(env, extra...)
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = env
	cmd.Dir = "/tmp"
	if dir := s.workDir(); dir != "" {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			cmd.Dir = dir
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: u.credential()}
	err := cmd.Run()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 127
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
