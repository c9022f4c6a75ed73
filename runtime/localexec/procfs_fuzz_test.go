package localexec

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzProcParsers feeds every reader of /proc and utmp arbitrary bytes:
// each answers or refuses, and none panics or hangs.
func FuzzProcParsers(f *testing.F) {
	for _, name := range []string{"stat", "loadavg", "uptime", "vmstat", "diskstats", "meminfo"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "proc", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("1234 (a (b) c) T 1 1234 1234 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		parseProcStat(s)
		parseProcCPU(s)
		parseProcRSS(s)
		parseProcUsage(s)
		parseStat(bytes.NewReader(b))
		parseLoadavg(s)
		parseUptime(s)
		parseVMStat(bytes.NewReader(b))
		parseDiskStats(bytes.NewReader(b), wholeDiskName)
		parseMeminfo(bytes.NewReader(b))
		countSessions(bytes.NewReader(b))
		parseNvidiaSMI(s)
		parseNvidiaSMIUsed(s)
		parseGPUInformation(bytes.NewReader(b))
	})
}
