package daemon

import (
	"net/url"
	"testing"
	"time"
)

func TestPerf(t *testing.T) {
	p := newPerf(time.Unix(1000, 0))
	// 1..100 ms of job queries; then, past the window, only 1 s ones.
	for i := 1; i <= 100; i++ {
		p.add("GET /v1/jobs/{id}", nil, time.Duration(i)*time.Millisecond)
	}
	p.add("POST /v1/jobs", nil, 5*time.Millisecond)
	p.add("GET /nowhere", nil, time.Millisecond)
	s := p.snapshot()
	if s.Since != 1000 || len(s.Requests) != 3 {
		t.Fatalf("snapshot = %+v, want three kinds since 1000", s)
	}
	q := s.Requests[0]
	if q.Kind != "job query" || q.Count != 100 || q.P50 != 0.050 || q.P90 != 0.090 || q.P99 != 0.099 || q.Max != 0.100 {
		t.Errorf("job queries = %+v, want 100 with p50 50 ms, p90 90 ms, p99 99 ms, max 100 ms", q)
	}
	if s.Requests[1].Kind != "other" || s.Requests[2].Kind != "submit" || s.Requests[2].P50 != 0.005 {
		t.Errorf("kinds = %+v, want other and submit (5 ms) after job query", s.Requests)
	}
	for range 10000 {
		p.add("GET /v1/jobs/{id}", nil, time.Second)
	}
	q = p.snapshot().Requests[0]
	if q.Count != 10100 || q.P50 != 1 || q.Max != 1 {
		t.Errorf("after 10000 more = %+v: the quantiles must be of the latest 10000", q)
	}
}

// TestPerfJobListFormats counts the job lists of bjobs -json apart from
// the others, so that their response time is their own.
func TestPerfJobListFormats(t *testing.T) {
	p := newPerf(time.Unix(1000, 0))
	for i := 1; i <= 3; i++ {
		p.add("GET /v1/jobs", url.Values{"format": {"json"}, "id": {"7"}}, time.Duration(i)*time.Millisecond)
	}
	p.add("GET /v1/jobs", url.Values{"id": {"7"}}, 40*time.Millisecond)
	p.add("GET /v1/jobs", nil, 50*time.Millisecond)
	s := p.snapshot()
	if len(s.Requests) != 2 {
		t.Fatalf("snapshot = %+v, want two kinds", s)
	}
	if l := s.Requests[0]; l.Kind != "job list" || l.Count != 2 || l.P50 != 0.040 {
		t.Errorf("job lists = %+v, want 2 with p50 40 ms", l)
	}
	if j := s.Requests[1]; j.Kind != "job list json" || j.Count != 3 || j.P50 != 0.002 || j.Max != 0.003 {
		t.Errorf("bjobs -json lists = %+v, want 3 with p50 2 ms, max 3 ms", j)
	}
}
