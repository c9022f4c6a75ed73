package localexec

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// StarterName is the program that starts and supervises the jobs: a
// small binary (cmd/lsfc-job) whose main hands its arguments to
// WrapperMain, installed next to the lsfc binary or on PATH. One run of
// it, the host's supervisor, starts and watches every job of an
// Executor's directory; a job with per-process limits gets a run of its
// own.
const StarterName = "lsfc-job"

// findStarter returns the absolute path of the job starter: StarterName
// in the directory of this program, or else the first on PATH.
func findStarter() (string, error) {
	self, selfErr := os.Executable()
	if selfErr == nil {
		p := filepath.Join(filepath.Dir(self), StarterName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath(StarterName)
	if err == nil {
		return filepath.Abs(p)
	}
	where := "next to this program"
	if selfErr == nil {
		where = "in " + filepath.Dir(self)
	}
	if errors.Is(err, exec.ErrNotFound) {
		err = nil
	}
	msg := fmt.Sprintf("the job starter %q is neither %s nor on PATH: install it with lsfc (go install ./cmd/lsfc-job)", StarterName, where)
	if err != nil {
		msg += fmt.Sprintf(" (%v)", err)
	}
	return "", errors.New(msg)
}
