package compile

import "testing"

// TestPolicyHost checks the host index: the first host of a name, nil
// for a name not there, and hosts added after the first look-up found.
func TestPolicyHost(t *testing.T) {
	a1, a2, b := &HostDef{Name: "a"}, &HostDef{Name: "a"}, &HostDef{Name: "b"}
	p := &Policy{Hosts: []*HostDef{a1, a2}}
	if got := p.Host("a"); got != a1 {
		t.Errorf("Host(%q) = %p, want the first host so named (%p)", "a", got, a1)
	}
	if got := p.Host("b"); got != nil {
		t.Errorf("Host(%q) = %v, want nil", "b", got)
	}
	p.Hosts = append(p.Hosts, b)
	if got := p.Host("b"); got != b {
		t.Errorf("Host(%q) after it was added = %v, want it", "b", got)
	}
	p.Hosts = []*HostDef{b}
	if got := p.Host("a"); got != nil {
		t.Errorf("Host(%q) after Hosts was replaced = %v, want nil", "a", got)
	}
}

// BenchmarkPolicyHost looks up one host of 5,000, as the master does for
// every request of its agents.
func BenchmarkPolicyHost(b *testing.B) {
	p := &Policy{}
	for i := range 5000 {
		p.Hosts = append(p.Hosts, &HostDef{Name: "h" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))})
	}
	name := p.Hosts[4999].Name
	b.ReportAllocs()
	for b.Loop() {
		if p.Host(name) == nil {
			b.Fatal("not found")
		}
	}
}
