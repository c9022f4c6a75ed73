package main

import (
	"strings"
	"testing"
)

// FuzzBresizeSpecs feeds bresize release's host specifications and
// request's [MIN,]MAX: never a panic, and what is accepted is well formed.
func FuzzBresizeSpecs(f *testing.F) {
	for _, s := range []string{"all", "hostA", "hostB 2*hostC", "0*hostA", "2*", "*hostA", "3", "2,4", "4,2", ",3", "1,", "-1", "+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		all, hosts, err := parseReleaseSpec(s)
		if err == nil && !all {
			for _, h := range hosts {
				if h.Host == "" || h.Slots < 0 || strings.ContainsAny(h.Host, " *") {
					t.Fatalf("parseReleaseSpec(%q) = %+v", s, hosts)
				}
			}
		}
		lo, hi, err := parseTaskRange(s)
		if err == nil && (lo < 1 || hi < lo) {
			t.Fatalf("parseTaskRange(%q) = %d, %d", s, lo, hi)
		}
		lo, hi, err = parseSlotRange(s)
		if err == nil && (lo < 1 || hi != 0 && hi < lo) {
			t.Fatalf("parseSlotRange(%q) = %d, %d", s, lo, hi)
		}
	})
}
