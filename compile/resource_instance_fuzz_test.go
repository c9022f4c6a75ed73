package compile

import (
	"strings"
	"testing"
)

// FuzzResourceInstance checks that any LOCATION text reads without a
// panic, and that what it reads keeps only names the text holds.
func FuzzResourceInstance(f *testing.F) {
	for _, s := range []string{"4@[gpu01]", "20@[all]", "[default]", "3@[all ~hostA]", "[h1 h2]", "x@[", "@[]", "[~]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, ok := ParseResourceInstance(s)
		if !ok {
			return
		}
		for _, h := range append(in.Hosts, in.Except...) {
			if h == "" || !strings.Contains(s, h) {
				t.Fatalf("%q: host %q is not in the text", s, h)
			}
		}
	})
}

func TestParseResourceInstance(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"4@[gpu01 gpu02]", "value=4 hosts=[gpu01 gpu02] all=false default=false except=[]"},
		{"20@[all]", "value=20 hosts=[] all=true default=false except=[]"},
		{"3@[all ~hostA]", "value=3 hosts=[] all=true default=false except=[hostA]"},
		{"[default]", "value= hosts=[] all=false default=true except=[]"},
	} {
		in, ok := ParseResourceInstance(tc.in)
		if !ok {
			t.Fatalf("%q: not read", tc.in)
		}
		got := "value=" + in.Value + " hosts=[" + strings.Join(in.Hosts, " ") + "] all=" + boolText(in.All) +
			" default=" + boolText(in.Default) + " except=[" + strings.Join(in.Except, " ") + "]"
		if got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
	if _, ok := ParseResourceInstance("4@gpu01"); ok {
		t.Error("a location without brackets was read")
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
