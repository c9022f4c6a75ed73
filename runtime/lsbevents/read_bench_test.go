package lsbevents

import (
	"bytes"
	"fmt"
	"testing"
)

// benchLog returns an lsb.events of n jobs, each submitted, started,
// accepted and ended as LSF 10.1 logs them (five records, about 1.4 KB).
func benchLog(n int) []byte {
	var b bytes.Buffer
	b.WriteString("#80\n")
	for i := 1; i <= n; i++ {
		at := int64(1700000000 + i)
		b.WriteString(newRecord(at, int64(i), subQueue, 1+i%8, fmt.Sprintf("user%d", i%50), "normal",
			"select[type==any] rusage[mem=1000]", "", "/bin/sleep 60", -1, -1))
		b.WriteByte('\n')
		fmt.Fprintf(&b, `"JOB_START" "10.108" %d %d 4 0 0 100.0 1 "host%d" "" "" 0 "" 0 "" 2147483647 4194304 "select[type == any] order[r15s:pg] " "" -1 "" -1 0 "" -1 0 0 -1 -1 1 %d 0 0 0 3 "GSLA_LOAN_FLAG" "0" "SCHEDULING_OVERHEAD" "0.00" "JDATA_JFLAG3" "0" 0`+"\n", at+1, i, i%100, at+1)
		fmt.Fprintf(&b, `"JOB_START_ACCEPT" "10.108" %d %d 3942 3942 0 "" -1 "" -1 -1`+"\n", at+1, i)
		fmt.Fprintf(&b, `"JOB_STATUS" "10.108" %d %d 64 0 0 0.0124 %d 1 0.012442 0.000000 3756 0 -1 0 0 439 4 0 928 0 -1 0 0 0 18 0 -1 0 0 0 0 2048 1024 "" -1 "" -1 0 -1 -1 0 0`+"\n", at+60, i, at+60)
		fmt.Fprintf(&b, `"JOB_CLEAN" "10.108" %d %d 0 0`+"\n", at+3660, i)
	}
	return b.Bytes()
}

// BenchmarkRead reads an lsb.events of 100,000 jobs (500,000 records)
// into histories.
func BenchmarkRead(b *testing.B) {
	data := benchLog(100000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		l := NewLog()
		if err := l.Read(bytes.NewReader(data), "lsb.events"); err != nil {
			b.Fatal(err)
		}
		if l.Malformed != 0 || len(l.Jobs()) != 100000 {
			b.Fatalf("malformed %d, jobs %d: %v", l.Malformed, len(l.Jobs()), l.Errors)
		}
	}
}
