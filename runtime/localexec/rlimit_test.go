package localexec

import (
	"syscall"
	"testing"
)

func TestSetProcLimitsRestores(t *testing.T) {
	var before syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &before); err != nil {
		t.Fatal(err)
	}
	restore, err := setProcLimits(map[string]int64{"CORELIMIT": 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var during syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_CORE, &during)
	restore()
	var after syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_CORE, &after)
	if during.Cur != 0 || during.Max != before.Max {
		t.Errorf("with CORELIMIT=0: %+v, want soft 0 and hard %d", during, before.Max)
	}
	if after != before {
		t.Errorf("after restore: %+v, want %+v", after, before)
	}
	if _, err := setProcLimits(map[string]int64{"NOFILE": 1}, nil); err == nil {
		t.Error("an unknown limit was set")
	}
}

func TestSpecRefusesBadProcLimits(t *testing.T) {
	for _, l := range []map[string]int64{{"CORELIMIT": -1}, {"SWAPLIMIT": 1}, {"FILELIMIT": 1 << 62}} {
		s := Spec{JobID: 1, Command: "true", ProcLimits: l}
		if err := s.validate(); err == nil {
			t.Errorf("%v: validated", l)
		}
	}
	s := Spec{JobID: 1, Command: "true", ProcLimits: map[string]int64{"STACKLIMIT": 8192}, ProcHardLimits: map[string]int64{"STACKLIMIT": 16384}}
	if err := s.validate(); err != nil {
		t.Error(err)
	}
}
