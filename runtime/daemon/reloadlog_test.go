package daemon_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatchNamesFile: a file of a watched directory that is not part of
// the configuration reloads nothing when it changes, and the reload a
// configuration file's change makes names that file, even when another
// file changed first.
func TestWatchNamesFile(t *testing.T) {
	conf := writeConf(t)
	d, c := startReloading(t, conf, true)
	defer d.Close()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(conf, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes.txt", "not configuration\n")
	write("lsb.acct", "\"JOB_FINISH\" \"10.1\"\n") // a log, not configuration
	// No event to wait for: give the watch its settling time, and more.
	time.Sleep(600 * time.Millisecond)
	if st := c.status(t); st.Generation != 1 || st.LastReload != nil {
		t.Fatalf("other files changed: generation %d, last reload %+v; want no reload", st.Generation, st.LastReload)
	}
	write("lsb.acct", "\"JOB_FINISH\" \"10.1\"\n\"JOB_FINISH\" \"10.1\"\n")
	write("lsb.queues", queuesGood+"\nBegin Queue\nQUEUE_NAME = named\nPRIORITY = 10\nEnd Queue\n")
	st := c.waitGeneration(t, 2)
	if want := filepath.Join(conf, "lsb.queues") + " changed"; st.LastReload == nil || st.LastReload.Trigger != want {
		t.Errorf("reload %+v, want its trigger %q", st.LastReload, want)
	}
}
