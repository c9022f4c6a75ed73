package api

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// fillRequest sets every field of a request to a value made from s, n
// and f, none of them zero unless they are: each field is then written.
func fillRequest(s string, n int64, f float64, flag bool) *SubmitRequest {
	r := &SubmitRequest{}
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		switch fv := v.Field(i); fv.Kind() {
		case reflect.String:
			fv.SetString(s + v.Type().Field(i).Name)
		case reflect.Int, reflect.Int64:
			fv.SetInt(n + int64(i))
		case reflect.Float64:
			fv.SetFloat(f * float64(i))
		case reflect.Bool:
			fv.SetBool(flag)
		case reflect.Slice:
			if fv.Type().Elem().Kind() == reflect.Uint8 {
				fv.SetBytes([]byte(s))
			} else {
				fv.Set(reflect.ValueOf([]string{s, "", "x"}))
			}
		case reflect.Map:
			fv.Set(reflect.ValueOf(map[string]int64{"nofile": n, "core": -n, s: 1}))
		case reflect.Pointer:
			fv.Set(reflect.ValueOf(&Interactive{Mode: "Is", Addrs: []string{s}, Token: s, Tty: flag}))
		default:
			panic("a field of SubmitRequest of a kind the test does not fill: " + v.Type().Field(i).Name)
		}
	}
	return r
}

// checkSubmitJSON fails unless the request's own writing is encoding/json's.
func checkSubmitJSON(t *testing.T, r *SubmitRequest) {
	t.Helper()
	want, err := json.Marshal(r)
	got, ok := r.appendJSON(nil)
	if err != nil || !ok {
		if err == nil || ok {
			t.Fatalf("encoding/json: %v; the request's own writing ok=%v", err, ok)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the request's own writing differs from encoding/json:\n%s\n%s", got, want)
	}
}

// TestSubmitRequestJSON writes requests, from the empty one to one with
// every field set (a field the writer leaves out would differ), and
// checks each against encoding/json byte for byte.
func TestSubmitRequestJSON(t *testing.T) {
	checkSubmitJSON(t, &SubmitRequest{})
	checkSubmitJSON(t, &SubmitRequest{Command: "true", Hold: true, Umask: 0o22, Env: []string{"A=1", "B=<&>"}})
	for _, tc := range []struct {
		s string
		n int64
		f float64
	}{
		{"plain", 1, 1},
		{"quote\" back\\ <html> & \n\t\x01 \u2028 é \xff", -7, 0.1},
		{"", 0, 1e-7},
		{"x", math.MaxInt64 - 100, 1e21},
		{"y", math.MinInt64, -123456.789},
	} {
		checkSubmitJSON(t, fillRequest(tc.s, tc.n, tc.f, true))
		checkSubmitJSON(t, fillRequest(tc.s, tc.n, tc.f, false))
	}
	r := fillRequest("z", 1, 1, true)
	r.Interactive.Addrs = nil
	checkSubmitJSON(t, r)
	r.RunLimit = math.Inf(1)
	checkSubmitJSON(t, r) // refused by both
}

// FuzzSubmitRequestJSON writes requests made of arbitrary text and
// numbers, and checks each against encoding/json byte for byte.
func FuzzSubmitRequestJSON(f *testing.F) {
	f.Add("sleep 10", int64(4), 1.5, true)
	f.Add("<\x00\xff\u2028\"", int64(-1), 1e-9, false)
	f.Add("", int64(0), math.NaN(), true)
	f.Fuzz(func(t *testing.T, s string, n int64, x float64, flag bool) {
		checkSubmitJSON(t, fillRequest(s, n, x, flag))
	})
}

// FuzzReadSubmitResponse reads arbitrary answers to a submission: what
// the fast reader takes, encoding/json reads the same.
func FuzzReadSubmitResponse(f *testing.F) {
	for _, s := range []string{`{"id":12,"queue":"normal"}`, `{"id":3,"queue":"short","default":true}` + "\n",
		`{"id":012,"queue":"normal"}`, `{"id":1,"queue":"a\"b"}`, `{"id":99999999999999999999,"queue":"q"}`,
		`{"id":1,"queue":"q","default":false}`, `{"queue":"q","id":1}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got SubmitResponse
		if !readSubmitResponse(data, &got) {
			return
		}
		var want SubmitResponse
		if err := json.Unmarshal(data, &want); err != nil || got != want {
			t.Fatalf("%q: the fast reader gives %+v, encoding/json %+v (%v)", data, got, want, err)
		}
	})
}
