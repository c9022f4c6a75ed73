package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/lsbacct"
)

// acctRecords reads the lsb.acct of a state directory.
func acctRecords(t *testing.T, state string) []lsbacct.Record {
	t.Helper()
	path := filepath.Join(daemon.AcctDir(state), lsbacct.FileName)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := lsbacct.NewScanner(f, path)
	var out []lsbacct.Record
	for s.Scan() {
		out = append(out, *s.Record())
	}
	if s.NumProblems() > 0 || s.Err() != nil {
		t.Fatalf("%s: %v %v", path, s.Problems(), s.Err())
	}
	return out
}

// TestAcctWritten runs jobs through the daemon and reads the JOB_FINISH
// records it wrote: one per finished job, in LSF's terms.
func TestAcctWritten(t *testing.T) {
	d, state := startDaemon(t, "")
	c := unixClient(state)
	work := t.TempDir()
	ok := c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Name: "ok", Slots: 2, ResReq: "select[type==any]"})
	bad := c.submit(t, api.SubmitRequest{Command: "exit 3", Cwd: work, Stdout: "out.%J", RunLimit: 600})
	c.waitState(t, ok.ID, "DONE")
	c.waitState(t, bad.ID, "EXIT")
	pend := c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Queue: "owned", Hold: true})
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", pend.ID), nil, nil); err != nil || code != 200 {
		t.Fatalf("kill of a held job: %d %v", code, err)
	}
	c.waitState(t, pend.ID, "EXIT")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	recs := acctRecords(t, state)
	if len(recs) != 3 {
		t.Fatalf("lsb.acct holds %d records, want 3", len(recs))
	}
	byID := map[int64]lsbacct.Record{}
	for _, r := range recs {
		byID[r.JobID] = r
	}
	r := byID[ok.ID]
	if r.Version != "10.108" || r.JStatus != lsbacct.StatusDone || r.ExitStatus != 0 || r.Queue != "normal" || r.JobName != "ok" ||
		r.Command != "true" || r.NumProcessors != 2 || len(r.ExecHosts) != 2 || r.StartTime == 0 || r.EventTime < r.StartTime ||
		r.ResReq != "select[type==any]" || r.EffectiveResReq == "" || r.Cwd != work || r.UserName == "" {
		t.Errorf("record of the DONE job: %+v", r)
	}
	r = byID[bad.ID]
	if r.JStatus != lsbacct.StatusExit || r.ExitStatus != 3<<8 || r.RunLimit != 600 || r.OutFile != "out.%J" || r.Options&lsbacct.SubOutFile == 0 {
		t.Errorf("record of the EXIT job: status %d exit %d runLimit %d out %q options %#x", r.JStatus, r.ExitStatus, r.RunLimit, r.OutFile, r.Options)
	}
	r = byID[pend.ID]
	if r.StartTime != 0 || len(r.ExecHosts) != 0 || r.Queue != "owned" || lsbacct.TermName(r.ExitInfo) != "TERM_OWNER" || r.Rusage.Utime != -1 {
		t.Errorf("record of the job killed while held: %+v", r)
	}
}

// TestAcctReconciled stops the daemon between a job's finish in the event
// log and its record in lsb.acct, in both ways a crash leaves the file
// (the record missing, or cut in the middle): the next start writes the
// record once, and a start after that writes nothing again.
func TestAcctReconciled(t *testing.T) {
	for _, torn := range []bool{false, true} {
		d, state := startDaemon(t, "")
		c := unixClient(state)
		var ids []int64
		for range 3 {
			j := c.submit(t, api.SubmitRequest{Command: "true", Cwd: t.TempDir()})
			c.waitState(t, j.ID, "DONE")
			ids = append(ids, j.ID)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(daemon.AcctDir(state), lsbacct.FileName)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Drop the last record, or half of it.
		last := len(b) - 1
		for last > 0 && b[last-1] != '\n' {
			last--
		}
		cut := last
		if torn {
			cut = last + (len(b)-last)/2
		}
		if err := os.WriteFile(path, b[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			d, _ = startDaemon(t, state)
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range acctRecords(t, state) {
				got = append(got, r.JobID)
			}
			if !slices.Equal(got, ids) {
				t.Errorf("torn %v: after a restart lsb.acct holds jobs %v, want %v once each", torn, got, ids)
			}
		}
	}
}

// TestAcctHostFactor checks that a record carries the CPU factor of the
// job's first execution host, from its model in lsf.shared.
func TestAcctHostFactor(t *testing.T) {
	conf := strings.Replace(testConf, "End Cluster\n",
		"End Cluster\nBegin HostModel\nMODELNAME  CPUFACTOR  ARCHITECTURE\nfast       2.5        ()\nEnd HostModel\n", 1)
	conf = strings.Replace(conf, "hostA     !      !", "hostA     fast   !", 1)
	conf = strings.Replace(conf, "hostB     !      !", "hostB     fast   !", 1)
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	c := unixClient(state)
	id := c.submit(t, api.SubmitRequest{Command: "true", Cwd: state, Stdout: "/dev/null"}).ID
	c.waitState(t, id, "DONE")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	recs := acctRecords(t, state)
	if len(recs) != 1 {
		t.Fatalf("lsb.acct holds %d records, want 1", len(recs))
	}
	if f := recs[0].HostFactor; f != 2.5 {
		t.Errorf("the record's CPU factor is %g, want 2.5 (model fast)", f)
	}
}
