package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"
)

// strict decodes data as the daemon does without the fast path: one
// value, no unknown field.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// sameAsStrict checks one input: what the fast path accepts, the strict
// decoder accepts too, with the same value; what it refuses leaves the
// value zero.
func sameAsStrict(t *testing.T, data []byte) {
	t.Helper()
	var fl, sl AgentLoad
	if fl.DecodeFast(data) {
		if err := strict(data, &sl); err != nil {
			t.Fatalf("load %q: the fast path accepts it, encoding/json: %v", data, err)
		}
		if !reflect.DeepEqual(fl, sl) {
			t.Fatalf("load %q: fast %+v, encoding/json %+v", data, fl, sl)
		}
	} else if !reflect.DeepEqual(fl, AgentLoad{}) {
		t.Fatalf("load %q: refused, but left %+v", data, fl)
	}
	var fs, ss AgentSync
	if fs.DecodeFast(data) {
		if err := strict(data, &ss); err != nil {
			t.Fatalf("sync %q: the fast path accepts it, encoding/json: %v", data, err)
		}
		if !reflect.DeepEqual(fs, ss) {
			t.Fatalf("sync %q: fast %+v, encoding/json %+v", data, fs, ss)
		}
	} else if !reflect.DeepEqual(fs, AgentSync{}) {
		t.Fatalf("sync %q: refused, but left %+v", data, fs)
	}
}

// randomRequests returns load reports and exchanges as agents send them,
// drawn from r.
func randomRequests(r *rand.Rand) (*AgentLoad, *AgentSync) {
	l := &AgentLoad{Host: "host" + string(rune('a'+r.IntN(26))), Interval: r.Float64() * 10, Type: "X86_64", Model: "Intel_EM64T",
		Ncpus: float64(r.IntN(128)), Nprocs: float64(r.IntN(4)), Maxmem: r.Float64() * 1e6, Maxtmp: r.ExpFloat64() * 1e5}
	if r.IntN(4) > 0 {
		l.Load = map[string]float64{"r15s": r.Float64() * 4, "ut": r.Float64(), "mem": -r.NormFloat64() * 1e9, "ls": 0, "über": 1e-9}
	}
	x := &AgentSync{Host: "h-é", Interval: 5, Session: "s1", Ack: r.Uint64(), Wait: r.Float64() * 30}
	for range r.IntN(4) {
		x.Known = append(x.Known, AgentRun{Job: r.Int64() - r.Int64(), Start: r.Float64() * 2e9, Post: r.IntN(2) == 0})
	}
	if r.IntN(2) == 0 {
		x.Dirs = map[int64]string{r.Int64N(1 << 40): "/home/u/a b", -3: ""}
	}
	return l, x
}

// TestAgentDecodeFast decodes the requests agents send through the fast
// path, with the values encoding/json gives them; it refuses what it
// does not read (escapes, other cases, nulls, ends, duplicates), which
// encoding/json then reads.
func TestAgentDecodeFast(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		l, x := randomRequests(r)
		ld, _ := json.Marshal(l)
		xd, _ := json.Marshal(x)
		var fl AgentLoad
		if !fl.DecodeFast(ld) || !reflect.DeepEqual(&fl, l) {
			t.Fatalf("load %s: fast path gives %+v, want %+v", ld, fl, *l)
		}
		var fx AgentSync
		if !fx.DecodeFast(xd) || !reflect.DeepEqual(&fx, x) {
			t.Fatalf("sync %s: fast path gives %+v, want %+v", xd, fx, *x)
		}
		sameAsStrict(t, ld)
		sameAsStrict(t, xd)
	}
	for _, in := range []string{
		`{"Host":"a"}`, `{"host":null}`, `{"host":"a","host":"b"}`,
		`{"host":"a","ends":[{"job":1,"start":2}]}`, `{"load":{"a":1,"a":2}}`, `{"ack":-1}`, `{"ack":1.0}`,
		`{"known":[{"job":01,"start":1}]}`, `{"dirs":{" 1":"x"}}`, `{"dirs":{"1":"x","01":"y"}}`, `{"interval":1e999}`,
		`{"host":"a"} {}`, `{"host":"a",}`, `[]`, `{"wait":.5}`, `{"wait":1.}`, `{"known":[{"job":1,"job":2}]}`,
	} {
		var fl AgentLoad
		var fx AgentSync
		if fl.DecodeFast([]byte(in)) || fx.DecodeFast([]byte(in)) {
			t.Errorf("%s: the fast path took it, want it left to encoding/json", in)
		}
		sameAsStrict(t, []byte(in))
	}
	// An exchange with ends, with their end times, is encoding/json's.
	var x AgentSync
	in := []byte(`{"host":"a","ends":[{"job":1,"start":2,"end":1700000300.5}]}`)
	if x.DecodeFast(in) {
		t.Errorf("%s: the fast path took it, want it left to encoding/json", in)
	}
	if err := strict(in, &x); err != nil || len(x.Ends) != 1 || x.Ends[0].End != 1700000300.5 {
		t.Errorf("%s: encoding/json reads %+v, %v; want the end's time", in, x, err)
	}
	// Escapes and bytes beyond ASCII are read as encoding/json reads them.
	for _, in := range []string{` { "host" : "a" , "wait" : 5 } `, `{"known":[],"dirs":{},"ack":0}`, `{"load":{}}`, `{}`,
		`{"host":"a\u0062"}`, "{\"host\":\"a\xff\"}", `{"session":"\u00e9t\u00e9","dirs":{"3":"/tmp/\u00e9"}}`} {
		var fl AgentLoad
		var fx AgentSync
		if !fl.DecodeFast([]byte(in)) && !fx.DecodeFast([]byte(in)) {
			t.Errorf("%s: the fast path left it to encoding/json", in)
		}
		sameAsStrict(t, []byte(in))
	}
}

// FuzzAgentDecodeFast checks that whatever the fast path accepts,
// encoding/json reads the same, and that what it refuses leaves nothing
// behind.
func FuzzAgentDecodeFast(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 8 {
		l, x := randomRequests(r)
		ld, _ := json.Marshal(l)
		xd, _ := json.Marshal(x)
		f.Add(ld)
		f.Add(xd)
	}
	f.Add([]byte(`{"dirs":{"-0":"x"},"known":[{"job":-0,"start":-0.0e+0,"post":false}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsStrict(t, data)
	})
}
