package swf_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/swf"
)

// corpusFiles returns the SWF traces of the shared corpus, skipping the
// test when the corpus is absent.
func corpusFiles(t testing.TB) []string {
	dir := testkit.CorpusDir(t, "swf")
	paths, err := filepath.Glob(filepath.Join(dir, "*.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skipf("no *.swf.gz traces in %s", dir)
	}
	return paths
}

// countLines counts the job and comment lines of a gzip trace the plain
// way, as an independent check of the reader.
func countLines(t *testing.T, path string) (jobs, comments int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		switch s := strings.TrimSpace(sc.Text()); {
		case s == "":
		case strings.HasPrefix(s, ";"):
			comments++
		default:
			jobs++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return jobs, comments
}

func readFile(t testing.TB, path string) (*swf.Header, []swf.Job) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := swf.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return r.Header(), jobs
}

func TestCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			hdr, jobs := readFile(t, path)
			wantJobs, wantComments := countLines(t, path)
			if len(jobs) != wantJobs {
				t.Errorf("read %d jobs, the file has %d job lines", len(jobs), wantJobs)
			}
			if len(hdr.Fields) != wantComments {
				t.Errorf("header has %d fields, the file has %d comment lines", len(hdr.Fields), wantComments)
			}
			for i := 1; i < len(jobs); i++ {
				if jobs[i].Line <= jobs[i-1].Line {
					t.Fatalf("job %d: line %d after line %d", i, jobs[i].Line, jobs[i-1].Line)
				}
			}
			if v, ok := hdr.Get("Version"); !ok || v != "2.2" {
				t.Errorf("Version = %q, %v; want 2.2", v, ok)
			}
			if _, ok := hdr.UnixStartTime(); !ok {
				t.Error("no UnixStartTime")
			}
			procs, ok := hdr.MaxProcs()
			if !ok {
				t.Fatal("no MaxProcs")
			}
			for _, j := range jobs {
				if j.AllocProcs > procs {
					t.Fatalf("line %d: %d processors on a machine of %d", j.Line, j.AllocProcs, procs)
				}
			}
			if n, ok := hdr.Int("MaxQueues"); ok && len(hdr.Queues()) != n {
				t.Errorf("%d queues declared, MaxQueues is %d", len(hdr.Queues()), n)
			}
			if n, ok := hdr.Int("MaxPartitions"); ok && len(hdr.Partitions()) != n {
				t.Errorf("%d partitions declared, MaxPartitions is %d", len(hdr.Partitions()), n)
			}
		})
	}
}

func TestCorpusLANL(t *testing.T) {
	path := filepath.Join(testkit.CorpusDir(t, "swf"), "LANL-CM5-1994-4.1-cln.swf.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("LANL trace absent: %v", err)
	}
	hdr, jobs := readFile(t, path)
	if len(jobs) != 122060 {
		t.Errorf("%d jobs, want 122060", len(jobs))
	}
	if n, ok := hdr.MaxProcs(); n != 1024 || !ok {
		t.Errorf("MaxProcs = %d, %v; want 1024", n, ok)
	}
	if n, ok := hdr.UnixStartTime(); n != 781275672 || !ok {
		t.Errorf("UnixStartTime = %d, %v; want 781275672", n, ok)
	}
	qs := hdr.Queues()
	if len(qs) != 18 {
		t.Errorf("%d queues, want 18: %v", len(qs), qs)
	}
	for n, want := range map[int]string{0: "interactive", 6: "0", 9: "prod_long", 17: "iway"} {
		if qs[n] != want {
			t.Errorf("queue %d = %q, want %q", n, qs[n], want)
		}
	}
	if notes := hdr.Values("note"); len(notes) != 3 {
		t.Errorf("%d Note lines, want 3: %q", len(notes), notes)
	}
	// The second Information line is a continuation holding a URL: it
	// must not read as key "http".
	var cont swf.Field
	for _, f := range hdr.Fields {
		if strings.Contains(f.Value, "huji.ac.il/labs") {
			cont = f
		}
	}
	if cont.Key != "" || cont.Line != 6 {
		t.Errorf("continuation line = %+v, want key \"\" on line 6", cont)
	}
	// "    2      465      5   3362   32 489.00   988   32    900  1024  1   3   3   3  1 -1 -1 -1"
	want := swf.Job{
		Number: 2, SubmitTime: 465, WaitTime: 5, RunTime: 3362, AllocProcs: 32,
		AvgCPUTime: 489, UsedMemory: 988, ReqProcs: 32, ReqTime: 900, ReqMemory: 1024,
		Status: 1, UserID: 3, GroupID: 3, Executable: 3, Queue: 1, Partition: -1,
		PrecedingJob: -1, ThinkTime: -1, Line: jobs[0].Line + 1,
	}
	if jobs[1] != want {
		t.Errorf("second job:\n got %+v\nwant %+v", jobs[1], want)
	}
}

// TestPlainAndGzip reads one trace compressed and decompressed: the
// reader tells them apart by content alone.
func TestPlainAndGzip(t *testing.T) {
	paths := corpusFiles(t)
	path := paths[len(paths)-1]
	for _, p := range paths {
		if strings.Contains(p, "NASA") {
			path = p
		}
	}
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	read := func(data []byte) (*swf.Header, []swf.Job) {
		r, err := swf.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return r.Header(), jobs
	}
	h1, j1 := read(gz)
	h2, j2 := read(plain)
	if !reflect.DeepEqual(h1, h2) || !reflect.DeepEqual(j1, j2) {
		t.Error("gzip and plain reads differ")
	}
}

const sample = `; Version: 2.2
; Computer: test
;             http://example.org/continued
;
; MaxProcs: 64
; UnixStartTime: 781275672
; Queue:  0  interactive
; Queue:	1	batch
; Queue: 1 duplicate
; Note: first
; Note: second
; not a key: because of the blank
;Key-2:value without blank

1 0 0 10 4 -1 -1 4 60 -1 1 1 1 -1 0 -1 -1 -1
2 5 2.5 489.00 8 -1 -1 8 3600 -1 0 2 1 -1 1 -1 -1 -1
; Note: between jobs
   3	7 1 1 32.00 -1 -1 -1 -1 -1 5 3 1 -1 1 -1 2 12.5
`

func TestHeader(t *testing.T) {
	r, err := swf.NewReader(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if len(h.Fields) != 13 {
		t.Fatalf("%d leading header fields, want 13: %+v", len(h.Fields), h.Fields)
	}
	checks := []struct {
		i          int
		key, value string
		line       int
	}{
		{0, "Version", "2.2", 1},
		{2, "", "http://example.org/continued", 3},
		{3, "", "", 4},
		{7, "Queue", "1\tbatch", 8},
		{11, "", "not a key: because of the blank", 12},
		{12, "", "Key-2:value without blank", 13},
	}
	for _, c := range checks {
		if f := h.Fields[c.i]; f != (swf.Field{Key: c.key, Value: c.value, Line: c.line}) {
			t.Errorf("field %d = %+v, want {%q %q %d}", c.i, f, c.key, c.value, c.line)
		}
	}
	if v, ok := h.Get("computer"); v != "test" || !ok {
		t.Errorf("Get(computer) = %q, %v", v, ok)
	}
	if _, ok := h.Get("Missing"); ok {
		t.Error("Get(Missing) found")
	}
	if _, ok := h.Int("Computer"); ok {
		t.Error("Int(Computer) is not an integer")
	}
	if n, _ := h.MaxProcs(); n != 64 {
		t.Errorf("MaxProcs = %d", n)
	}
	if n, _ := h.UnixStartTime(); n != 781275672 {
		t.Errorf("UnixStartTime = %d", n)
	}
	if q := h.Queues(); !reflect.DeepEqual(q, map[int]string{0: "interactive", 1: "batch"}) {
		t.Errorf("Queues = %v", q)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3", len(jobs))
	}
	if got := h.Values("Note"); !reflect.DeepEqual(got, []string{"first", "second", "between jobs"}) {
		t.Errorf("Notes after reading = %q", got)
	}
	if last := h.Fields[len(h.Fields)-1]; last.Line != 17 {
		t.Errorf("late header line %d, want 17", last.Line)
	}
	want := swf.Job{
		Number: 3, SubmitTime: 7, WaitTime: 1, RunTime: 1, AllocProcs: 32, AvgCPUTime: -1,
		UsedMemory: -1, ReqProcs: -1, ReqTime: -1, ReqMemory: -1, Status: swf.StatusCancelled,
		UserID: 3, GroupID: 1, Executable: -1, Queue: 1, Partition: -1, PrecedingJob: 2,
		ThinkTime: 12.5, Line: 18,
	}
	if jobs[2] != want {
		t.Errorf("job 3:\n got %+v\nwant %+v", jobs[2], want)
	}
	if jobs[1].WaitTime != 2.5 || jobs[1].RunTime != 489 || jobs[0].Line != 15 {
		t.Errorf("jobs = %+v", jobs[:2])
	}
	var nilHeader *swf.Header
	if _, ok := nilHeader.Get("Version"); ok || len(nilHeader.Queues()) != 0 {
		t.Error("nil header has fields")
	}
}

const good = "1 0 0 10 4 -1 -1 4 60 -1 1 1 1 -1 0 -1 -1 -1"

// withField returns the good line with field i (1-based) replaced.
func withField(i int, v string) string {
	f := strings.Fields(good)
	f[i-1] = v
	return strings.Join(f, " ")
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // error of the first failing Next
		field    int
	}{
		{"letters", "; h\n\n" + withField(5, "x"), `line 3: field 5 (allocated processors): "x" is not a number`, 5},
		{"fraction in count", withField(8, "4.5"), `line 1: field 8 (requested processors): "4.5" is not an integer`, 8},
		{"int overflow", withField(1, "99999999999999999999999"), `line 1: field 1 (job number): "99999999999999999999999" is out of range`, 1},
		{"float overflow", withField(4, "1e999"), `line 1: field 4 (run time): "1e999" is out of range`, 4},
		{"nan", withField(2, "NaN"), `line 1: field 2 (submit time): "NaN" is not a number`, 2},
		{"inf", withField(3, "+Inf"), `line 1: field 3 (wait time): "+Inf" is not a number`, 3},
		{"hex", withField(18, "0x10"), `line 1: field 18 (think time): "0x10" is not a number`, 18},
		{"underscore", withField(9, "1_000"), `line 1: field 9 (requested time): "1_000" is not a number`, 9},
		{"bare sign", withField(11, "-"), `line 1: field 11 (status): "-" is not a number`, 11},
		{"bare dot", withField(6, "."), `line 1: field 6 (average cpu time): "." is not a number`, 6},
		{"bad exponent", withField(7, "1e"), `line 1: field 7 (used memory): "1e" is not a number`, 7},
		{"long token", withField(10, strings.Repeat("9", 50)+"x"), `line 1: field 10 (requested memory): "9999999999999999999999999999999999999999"... is not a number`, 10},
		{"too few", "1 2 3", "line 1: 3 fields, want 18", 0},
		{"too many", good + " 7", "line 1: 19 fields, want 18", 0},
		{"comment after job", good + " ; note", "line 1: 20 fields, want 18", 0},
		{"too long", good + "\n" + strings.Repeat(" ", swf.MaxLineLen+1) + "\n", "line 2: line longer than 65536 bytes", 0},
		{"too long at end", good + "\n" + strings.Repeat("1", 3*swf.MaxLineLen), "line 2: line longer than 65536 bytes", 0},
		{"header too large", strings.Repeat("; "+strings.Repeat("x", 1000)+"\n", 1100) + good, "line 1047: header longer than 1048576 bytes", 0},
		{"too long header", strings.Repeat(";", swf.MaxLineLen+1) + "\n" + good, "line 1: line longer than 65536 bytes", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := swf.NewReader(strings.NewReader(tt.in))
			if err != nil {
				t.Fatalf("NewReader: %v", err)
			}
			var got error
			for got == nil {
				_, got = r.Next()
			}
			if got == io.EOF {
				t.Fatal("no error")
			}
			var pe *swf.ParseError
			if !errors.As(got, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", got, got)
			}
			if got.Error() != tt.want || pe.Field != tt.field {
				t.Errorf("error = %q (field %d)\n want %q (field %d)", got, pe.Field, tt.want, tt.field)
			}
		})
	}
}

// TestSkipBadLines checks that line errors are not sticky: a caller may
// note them and go on.
func TestSkipBadLines(t *testing.T) {
	in := strings.Join([]string{
		withField(1, "x"),
		strings.Repeat("2", swf.MaxLineLen+10),
		good,
		"1 2",
		withField(1, "5") + "\r",
		"  \t ",
		withField(1, "6"), // no line ending at the end of the input
	}, "\n")
	r, err := swf.NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var errLines, jobLines []int
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if pe, ok := err.(*swf.ParseError); ok {
			errLines = append(errLines, pe.Line)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		jobLines = append(jobLines, j.Line)
	}
	if !reflect.DeepEqual(errLines, []int{1, 2, 4}) || !reflect.DeepEqual(jobLines, []int{3, 5, 7}) {
		t.Errorf("errors on lines %v, jobs on lines %v; want [1 2 4] and [3 5 7]", errLines, jobLines)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
}

func gzipped(t testing.TB, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// synthetic returns a trace of n jobs.
func synthetic(n int) string {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 128\n")
	for i := 1; i <= n; i++ {
		j := swf.Job{Number: i, SubmitTime: float64(i * 7), WaitTime: float64(i % 13), RunTime: float64(i%1000) + 0.5,
			AllocProcs: i%64 + 1, AvgCPUTime: -1, UsedMemory: -1, ReqProcs: i%64 + 1, ReqTime: 3600, ReqMemory: -1,
			Status: 1, UserID: i % 17, GroupID: 1, Executable: -1, Queue: i % 3, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
		b.WriteString(j.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestTruncatedGzip(t *testing.T) {
	full := gzipped(t, synthetic(5000))
	for _, cut := range []int{len(full) / 3, len(full) / 2, len(full) - 9, len(full) - 1} {
		r, err := swf.NewReader(bytes.NewReader(full[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: NewReader: %v", cut, err)
		}
		jobs, err := r.ReadAll()
		if err == nil {
			t.Fatalf("cut at %d of %d: read %d jobs and no error", cut, len(full), len(jobs))
		}
		var pe *swf.ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("cut at %d: error %#v, want a *ParseError wrapping io.ErrUnexpectedEOF", cut, err)
		}
		if want := "unexpected end of input: the stream is truncated"; pe.Msg != want {
			t.Errorf("message %q, want %q", pe.Msg, want)
		}
		// Every job returned was a whole line before the cut.
		if n := len(jobs); n > 0 && pe.Line != jobs[n-1].Line+1 {
			t.Errorf("cut at %d: error on line %d after the job of line %d", cut, pe.Line, jobs[n-1].Line)
		}
		if _, again := r.Next(); again != err {
			t.Errorf("input error is not sticky: %v then %v", err, again)
		}
	}
	// A cut inside the header fails NewReader itself.
	if _, err := swf.NewReader(bytes.NewReader(full[:12])); err == nil {
		t.Error("a 12-byte gzip prefix reads")
	}
}

func TestCorruptGzip(t *testing.T) {
	data := gzipped(t, synthetic(10))
	data[len(data)-6] ^= 0xff // in the CRC-32 of the trailer
	r, err := swf.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadAll(); !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("error %v, want %v", err, gzip.ErrChecksum)
	}
	_, err = swf.NewReader(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0, 0}))
	var pe *swf.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("bad gzip header: %v, want an error on line 1", err)
	}
}

func TestEmpty(t *testing.T) {
	for _, in := range []string{"", "\n\n", "; Version: 2.2\n;\n"} {
		r, err := swf.NewReader(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if j, err := r.Next(); err != io.EOF {
			t.Errorf("%q: Next = %+v, %v; want io.EOF", in, j, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	r, err := swf.NewReader(strings.NewReader(sample + "7 1e300 0.1 -0.25 1 1 1 1 1 1 1 1 1 1 1 1 1 123456789.123456789\n"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		r, err := swf.NewReader(strings.NewReader(j.String()))
		if err != nil {
			t.Fatal(err)
		}
		back, err := r.Next()
		if err != nil {
			t.Fatalf("%q: %v", j.String(), err)
		}
		back.Line = j.Line
		if back != j {
			t.Errorf("round trip:\n got %+v\nwant %+v", back, j)
		}
	}
}

// BenchmarkReadLANL reads the 122,060 jobs of the LANL CM-5 trace from
// its gzip file in memory: decompression and parsing.
func BenchmarkReadLANL(b *testing.B) {
	data := lanl(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := swf.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		jobs, err := r.ReadAll()
		if err != nil || len(jobs) != 122060 {
			b.Fatalf("%d jobs, %v", len(jobs), err)
		}
	}
}

// BenchmarkParseLANL is BenchmarkReadLANL on the decompressed text, with
// Next instead of ReadAll: the parser alone.
func BenchmarkParseLANL(b *testing.B) {
	zr, err := gzip.NewReader(bytes.NewReader(lanl(b)))
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := swf.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 122060 {
			b.Fatalf("%d jobs", n)
		}
	}
}

func lanl(b *testing.B) []byte {
	path := filepath.Join(testkit.CorpusDir(b, "swf"), "LANL-CM5-1994-4.1-cln.swf.gz")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("LANL trace absent: %v", err)
	}
	return data
}
