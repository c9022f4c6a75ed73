package localexec

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// RunNotify runs a resizable job's resize notification command on this
// host, by /bin/sh -c, as the job's user (when the caller is root), in
// the job's working directory (or /tmp when it cannot be entered), with
// the job's environment and extra (the LSB_RESIZE_* variables), its
// standard files /dev/null. It waits for the command and returns its
// exit code: 128 plus the signal that ended it, 127 when it could not
// start.
func RunNotify(s Spec, command string, extra []string) int {
	u := jobUserOf(&s, os.Geteuid())
	env := append(jobEnv(&s, jobPaths{}), extra...)
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = env
	cmd.Dir = "/tmp"
	if st, err := os.Stat(s.Cwd); s.Cwd != "" && err == nil && st.IsDir() {
		cmd.Dir = s.Cwd
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
