package daemon

import (
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// requestKind names a request to an API route, with its URL query, as
// badmin perfmon view shows it. Job lists for bjobs -json (format=json)
// are a kind of their own, "job list json", so that the response time of
// what workflow engines poll with is known apart from the other lists.
func requestKind(pattern string, query url.Values) string {
	switch pattern {
	case "POST /v1/jobs":
		return "submit"
	case "GET /v1/jobs":
		if query.Get("format") == "json" {
			return "job list json"
		}
		return "job list"
	case "GET /v1/jobs/{id}":
		return "job query"
	case "POST /v1/jobs/{id}/{action}":
		return "job control"
	case "GET /v1/queues":
		return "queue query"
	case "POST /v1/queues/{name}/{op}":
		return "queue control"
	case "GET /v1/hosts":
		return "host query"
	case "POST /v1/hosts/{name}/{op}":
		return "host control"
	case "GET /v1/status":
		return "status"
	case "GET /v1/params":
		return "params"
	case "GET /v1/conf":
		return "conf"
	case "GET /v1/perf":
		return "perf"
	case "POST /v1/reconfig":
		return "reconfig"
	case "GET /v1/sla":
		return "sla query"
	case "POST /v1/agent/load":
		return "agent load"
	case "POST /v1/agent/sync":
		return "agent sync"
	case "POST /v1/mc/forward":
		return "mc forward"
	case "POST /v1/mc/poll":
		return "mc poll"
	case "POST /v1/mc/withdraw":
		return "mc withdraw"
	}
	return "other"
}

// perf counts the requests the daemon serves and keeps the response times
// of each kind's latest api.PerfWindow. Handlers run on many goroutines.
type perf struct {
	mu    sync.Mutex
	since time.Time
	kinds map[string]*kindStats
}

type kindStats struct {
	count int64
	max   time.Duration
	// ring holds the latest response times; next is where the next goes.
	ring []time.Duration
	next int
}

func newPerf(since time.Time) *perf {
	return &perf{since: since, kinds: map[string]*kindStats{}}
}

// add records one request of a route pattern, with its URL query, that
// took d.
func (p *perf) add(pattern string, query url.Values, d time.Duration) {
	p.note(requestKind(pattern, query), d)
}

// The kinds of the daemon's own steps, which perfmon shows with the
// requests: the wait of a request for the goroutine that holds the
// cluster (every request that reads or changes it), and the time from a
// job's start, as the scheduling cycle decides it, to its order's
// hand-off to its execution agent (the answer of the agent's exchange
// that first carries it).
const (
	kindOwnerWait = "owner wait"
	kindDispatch  = "agent dispatch"
)

// note records one d of a kind; a daemon built without counters (nil)
// records nothing.
func (p *perf) note(kind string, d time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := p.kinds[kind]
	if k == nil {
		k = &kindStats{}
		p.kinds[kind] = k
	}
	k.count++
	k.max = max(k.max, d)
	if len(k.ring) < api.PerfWindow {
		k.ring = append(k.ring, d)
	} else {
		k.ring[k.next] = d
		k.next = (k.next + 1) % api.PerfWindow
	}
}

// snapshot returns the counts and quantiles, kinds sorted by name.
func (p *perf) snapshot() api.Perf {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := api.Perf{Since: p.since.Unix(), Requests: []api.RequestStats{}}
	for kind, k := range p.kinds {
		sorted := slices.Clone(k.ring)
		slices.Sort(sorted)
		out.Requests = append(out.Requests, api.RequestStats{Kind: kind, Count: k.count,
			P50: quantile(sorted, 0.50), P90: quantile(sorted, 0.90), P99: quantile(sorted, 0.99),
			Max: k.max.Seconds()})
	}
	slices.SortFunc(out.Requests, func(a, b api.RequestStats) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// quantile returns the q-quantile of sorted durations (nearest rank), in
// seconds; 0 for none.
func quantile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)].Seconds()
}
