package localexec

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestRecoverAdopts restarts the daemon while two jobs run: the new
// Executor adopts both, reports the real exit status of the one that ends
// by itself, and can kill the other.
func TestRecoverAdopts(t *testing.T) {
	dir := t.TempDir()
	old := newHarness(t, dir)
	old.start(Spec{JobID: 21, Command: "sleep 0.5; exit 7", Umask: -1})
	old.start(Spec{JobID: 22, Command: "sleep 30", Umask: -1})
	old.e.Close() // the daemon goes down

	h := newHarness(t, dir)
	if ended := h.e.Recover([]int64{21, 22}); len(ended) != 0 {
		t.Fatalf("Recover = %+v, want nothing ended", ended)
	}
	if got := h.e.Running(); !slices.Equal(got, []int64{21, 22}) {
		t.Errorf("Running() = %v, want [21 22]", got)
	}
	if r := h.result(21); r.ExitCode != 7 || r.Lost || r.Signal != 0 {
		t.Errorf("Result of the adopted job 21 = %+v, want exit code 7", r)
	}
	pgid, ok := h.e.JobPID(22)
	if !ok {
		t.Fatal("JobPID of the adopted job 22 failed")
	}
	if err := h.e.Signal(22, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the adopted job stopping", func() bool {
		st, err := readProcStat(pgid)
		return err == nil && st.State == 'T'
	})
	if err := h.e.Kill(22); err != nil {
		t.Fatal(err)
	}
	if r := h.result(22); r.Signal != int(syscall.SIGINT) || r.ExitCode != 130 {
		t.Errorf("Result of the adopted job 22 after Kill = %+v, want SIGINT and exit code 130", r)
	}
	// Recovering a job already watched changes nothing.
	h.start(Spec{JobID: 23, Command: "sleep 30", Umask: -1})
	if ended := h.e.Recover([]int64{23}); len(ended) != 0 || !slices.Equal(h.e.Running(), []int64{23}) {
		t.Errorf("Recover of a watched job = %+v, Running() = %v, want it running", ended, h.e.Running())
	}
	h.e.Kill(23)
	h.result(23)
	old.noResult()
}

// TestRecoverFinishedWhileDown: a job that ends while the daemon is down
// is reported with its status.
func TestRecoverFinishedWhileDown(t *testing.T) {
	dir := t.TempDir()
	old := newHarness(t, dir)
	old.start(Spec{JobID: 31, Command: "sleep 0.2; exit 5", Umask: -1})
	old.e.Close()
	eventually(t, "the status file", func() bool {
		_, err := os.Stat(filepath.Join(dir, "31.status"))
		return err == nil
	})

	h := newHarness(t, dir)
	ended := h.e.Recover([]int64{31})
	if len(ended) != 1 || len(h.e.Running()) != 0 {
		t.Fatalf("Recover = %+v, Running() = %v, want job 31 ended", ended, h.e.Running())
	}
	if r := ended[0]; r.JobID != 31 || r.ExitCode != 5 || r.Lost || r.End.IsZero() {
		t.Errorf("Result = %+v, want job 31 with exit code 5", r)
	}
	old.noResult()
	h.noResult()
}

// TestRecoverLost: a job whose wrapper is gone without a status file, or
// that left no files at all, is lost, and its processes are killed.
func TestRecoverLost(t *testing.T) {
	dir := t.TempDir()
	old := newHarness(t, dir)
	old.start(Spec{JobID: 41, Command: "sleep 30", Umask: -1})
	old.e.Close()
	rec, err := readPidRecord(filepath.Join(dir, "41.pid"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(rec.WrapperPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the wrapper ending", func() bool { return !rec.wrapperAlive() })

	h := newHarness(t, dir)
	ended := h.e.Recover([]int64{41, 42})
	if len(h.e.Running()) != 0 || len(ended) != 2 {
		t.Fatalf("Recover = %+v, Running() = %v, want two lost jobs", ended, h.e.Running())
	}
	for i, id := range []int64{41, 42} {
		if r := ended[i]; r.JobID != id || !r.Lost || r.Err == "" || r.Done() {
			t.Errorf("Result %d = %+v, want job %d lost with a reason", i, r, id)
		}
	}
	if !strings.Contains(ended[0].Err, "wrapper") {
		t.Errorf("job 41 lost because %q, want the wrapper named", ended[0].Err)
	}
	eventually(t, "the lost job's processes ending", func() bool { return !rec.leaderAlive() })
	old.noResult()
	h.noResult()
}

// TestRecoverDamaged: a damaged status file makes the job lost rather than
// stopping the recovery.
func TestRecoverDamaged(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "51.status"), []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "52.status"), []byte(`{"JobID":99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, dir)
	ended := h.e.Recover([]int64{51, 52})
	if len(h.e.Running()) != 0 || len(ended) != 2 || !ended[0].Lost || !ended[1].Lost || !strings.Contains(ended[0].Err, "damaged") {
		t.Errorf("Recover = %+v, want both jobs lost as damaged", ended)
	}
}

// TestRecoverAfterDaemonDeath: a job outlives the process that started it,
// and a new Executor adopts its wrapper, no longer a child of anyone it
// knows, and reports its exit status.
func TestRecoverAfterDaemonDeath(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	daemon := exec.Command(self)
	daemon.Env = append(os.Environ(), daemonEnv+"="+dir+":61:sleep 0.5; exit 9")
	if out, err := daemon.CombinedOutput(); err != nil {
		t.Fatalf("short-lived daemon: %v\n%s", err, out)
	}
	rec, err := readPidRecord(filepath.Join(dir, "61.pid"))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.wrapperAlive() {
		t.Fatal("the wrapper died with the daemon")
	}
	if sid, err := sessionOf(rec.WrapperPID); err != nil || sid != rec.WrapperPID {
		t.Errorf("the wrapper's session is %d, %v, want its own (%d)", sid, err, rec.WrapperPID)
	}
	h := newHarness(t, dir)
	if ended := h.e.Recover([]int64{61}); len(ended) != 0 || !slices.Equal(h.e.Running(), []int64{61}) {
		t.Fatalf("Recover = %+v, Running() = %v, want job 61 running", ended, h.e.Running())
	}
	if r := h.result(61); r.ExitCode != 9 || r.Lost {
		t.Errorf("Result = %+v, want exit code 9", r)
	}
}

// sessionOf returns the session id of process pid, field 6 of its stat.
func sessionOf(pid int) (int, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return strconv.Atoi(f[3])
}
