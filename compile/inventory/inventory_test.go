package inventory_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
)

// invRender renders diagnostics one per line as "line:col: severity:
// message [CODE] «span text»", each related note on its own line as
// "  note line:col: message".
func invRender(ds lang.Diagnostics) []string { return invRenderAs(ds, false) }

// invRenderPaths is invRender with the path before every position.
func invRenderPaths(ds lang.Diagnostics) []string { return invRenderAs(ds, true) }

func invRenderAs(ds lang.Diagnostics, paths bool) []string {
	where := func(sp lang.Span) string {
		p := sp.StartPos()
		if paths {
			return fmt.Sprintf("%s:%d:%d", sp.Path(), p.Line, p.Col)
		}
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s: %s: %s [%s] «%s»", where(d.Span), d.Severity, d.Message, d.Code, d.Span.Text()))
		for _, r := range d.Related {
			out = append(out, fmt.Sprintf("  note %s: %s", where(r.Span), r.Message))
		}
	}
	return out
}

// invSummary describes a host in one line: its name and every field that
// is not at its default, maps in key order, memory in megabytes.
func invSummary(h *compile.Host) string {
	var b strings.Builder
	b.WriteString(h.Name)
	str := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, " %s=%s", k, v)
		}
	}
	num := func(k string, v, def float64) {
		if v != def {
			fmt.Fprintf(&b, " %s=%g", k, v)
		}
	}
	str("type", h.Type)
	str("model", h.Model)
	num("ncpus", h.Ncpus, 0)
	num("ncores", h.Ncores, 0)
	num("nthreads", h.Nthreads, 0)
	num("nprocs", h.Nprocs, 0)
	num("maxmem", h.Maxmem, 0)
	num("maxswp", h.Maxswp, 0)
	num("maxtmp", h.Maxtmp, 0)
	num("cpuf", h.Cpuf, 0)
	if !h.Server {
		b.WriteString(" server=false")
	}
	num("slots", h.Slots, -1)
	num("maxslots", h.MaxSlots, -1)
	if len(h.Booleans) > 0 {
		str("resources", strings.Join(h.Booleans, ","))
	}
	if len(h.Exclusive) > 0 {
		str("exclusive", strings.Join(h.Exclusive, ","))
	}
	invMap(&b, "numbers", h.Numbers)
	var ss []string
	for k, v := range h.Strings {
		ss = append(ss, k+":"+v)
	}
	sort.Strings(ss)
	if len(ss) > 0 {
		str("strings", strings.Join(ss, ","))
	}
	invMap(&b, "load", h.Load)
	invMap(&b, "reserved", h.Reserved)
	if h.Status != "ok" {
		str("status", h.Status)
	}
	return b.String()
}

func invMap(b *strings.Builder, name string, m map[string]float64) {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	fmt.Fprintf(b, " %s=", name)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(b, "%s:%g", k, m[k])
	}
}

// invSummaries describes every host of inv.
func invSummaries(inv *inventory.Inventory) []string {
	var out []string
	for _, h := range inv.Hosts {
		out = append(out, invSummary(h))
	}
	return out
}

// invDiff returns a readable difference between two lists of lines, or "".
func invDiff(want, got []string) string {
	if slices.Equal(want, got) {
		return ""
	}
	var b strings.Builder
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n  -%s\n  +%s\n", i+1, w, g)
		}
	}
	return b.String()
}

// invCheckSpans fails when a diagnostic, note or host span lies outside
// its source.
func invCheckSpans(t *testing.T, inv *inventory.Inventory, ds lang.Diagnostics) {
	t.Helper()
	check := func(what string, sp lang.Span) {
		if !sp.IsValid() {
			t.Fatalf("%s has no span", what)
		}
		r := sp.Root()
		if r.Start < 0 || r.End < r.Start || r.End > len(r.Src.Text) {
			t.Fatalf("%s span [%d,%d) outside input of %d bytes", what, r.Start, r.End, len(r.Src.Text))
		}
	}
	for _, d := range ds {
		check("diagnostic "+d.Message, d.Span)
		for _, rel := range d.Related {
			check("note "+rel.Message, rel.Span)
		}
	}
	if inv == nil {
		t.Fatal("nil inventory")
	}
	for _, h := range inv.Hosts {
		check("host "+h.Name, h.Span)
	}
}

func invRead(t *testing.T, text string, def compile.Unit) (*inventory.Inventory, lang.Diagnostics) {
	t.Helper()
	inv, ds := inventory.Read(lang.NewSource("inv.yaml", text), def)
	invCheckSpans(t, inv, ds)
	return inv, ds
}

func TestReadInventoryDemo(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "hosts", "demo.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inv, ds := invRead(t, string(b), compile.MB)
	if len(ds) > 0 {
		t.Fatalf("diagnostics:\n%s", strings.Join(invRender(ds), "\n"))
	}
	var names []string
	for _, h := range inv.Hosts {
		names = append(names, h.Name)
	}
	// The hosts of lsf.cluster.demo, in its order.
	want := "master01 master02 cn01 cn02 cn03 cn04 gpu01 gpu02 big01 pwr01 arm01"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("hosts = %s\nwant    %s", got, want)
	}
	gpu := inv.Host("gpu01")
	if gpu == nil {
		t.Fatal(`Host("gpu01") = nil`)
	}
	wantGPU := "gpu01 type=X86_64 model=EPYC7543 ncpus=64 ncores=32 nthreads=2 nprocs=2 maxmem=524288 maxswp=32768 maxtmp=409600 cpuf=70 slots=24 maxslots=32 resources=gpu,ssd numbers=ngpus:4 strings=rack:r02 load=io:800,it:300,ls:0,mem:307200,pg:0.1,r15m:7.9,r15s:8,r1m:8.1,scratch:3.5e+06,swp:32768,tmp:358400,ut:0.13 reserved=mem:131072"
	if got := invSummary(gpu); got != wantGPU {
		t.Errorf("gpu01 = %s\nwant    %s", got, wantGPU)
	}
	if p := gpu.Span.StartPos(); gpu.Span.Text() != "gpu01" || p.Line != 113 || p.Col != 11 {
		t.Errorf("gpu01 span = %q at %d:%d", gpu.Span.Text(), p.Line, p.Col)
	}
	if got := inv.Host("cn04").Status; got != "busy" {
		t.Errorf("cn04 status = %q, want busy", got)
	}
	if got := inv.Host("pwr01"); got.Status != "unavail" || got.Slots != -1 || len(got.Load) != 0 {
		t.Errorf("pwr01 = %s", invSummary(got))
	}
	if inv.Host("nosuch") != nil {
		t.Error(`Host("nosuch") != nil`)
	}
	var nilInv *inventory.Inventory
	if nilInv.Host("cn01") != nil {
		t.Error("Host on a nil inventory != nil")
	}
}

func TestReadInventoryJSON(t *testing.T) {
	src := "{\n\t\"hosts\": [\n\t\t{\"name\": \"cn01\", \"type\": \"X86_64\", \"ncpus\": 40, \"maxmem\": 393216,\n\t\t \"server\": true, \"resources\": [\"ssd\"], \"values\": {\"rack\": \"r01\", \"ngpus\": 0},\n\t\t \"load\": {\"mem\": \"120G\", \"ut\": 0.8, \"r1m\": 32.0}, \"status\": \"ok\"},\n\t\t{\"name\": \"cn02\", \"maxmem\": \"384G\", \"server\": false}\n\t]\n}\n"
	inv, ds := invRead(t, src, compile.MB)
	if len(ds) > 0 {
		t.Fatalf("diagnostics:\n%s", strings.Join(invRender(ds), "\n"))
	}
	want := []string{
		"cn01 type=X86_64 ncpus=40 maxmem=393216 resources=ssd numbers=ngpus:0 strings=rack:r01 load=mem:122880,r1m:32,ut:0.8",
		"cn02 maxmem=393216 server=false",
	}
	if d := invDiff(want, invSummaries(inv)); d != "" {
		t.Errorf("hosts mismatch (-want +got):\n%s", d)
	}
	if p := inv.Hosts[1].Span.StartPos(); p.Line != 6 || p.Col != 12 || inv.Hosts[1].Span.Text() != `"cn02"` {
		t.Errorf("cn02 span = %q at %d:%d, want \"cn02\" at 6:12", inv.Hosts[1].Span.Text(), p.Line, p.Col)
	}
}

func TestReadInventoryValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		def  compile.Unit
		src  string
		want []string
	}{
		{"defaults", compile.MB, "hosts:\n  - name: a\n",
			[]string{"a"}},
		{"empty list", compile.MB, "hosts: []\n", nil},
		{"null list", compile.MB, "hosts:\n", nil},
		{"bare memory in the default unit", compile.KB, "hosts:\n  - {name: a, maxmem: 1048576, maxswp: 2048, maxtmp: 0}\n",
			[]string{"a maxmem=1024 maxswp=2"}},
		{"bare memory in GB", compile.GB, "hosts:\n  - {name: a, maxmem: 1.5, load: {mem: 1, swp: 0.5, tmp: 2}, reserved: {mem: 0.25}}\n",
			[]string{"a maxmem=1536 load=mem:1024,swp:512,tmp:2048 reserved=mem:256"}},
		{"memory units", compile.KB, "hosts:\n  - {name: a, maxmem: 16G, maxswp: \"512MB\", maxtmp: 1t, load: {mem: 8g, swp: 100M, tmp: 2048K}}\n",
			[]string{"a maxmem=16384 maxswp=512 maxtmp=1.048576e+06 load=mem:8192,swp:100,tmp:2"}},
		{"counts and cpuf", compile.MB, "hosts:\n  - {name: a, ncpus: 64, ncores: 32, nthreads: 2, nprocs: 2, cpuf: 12.5, slots: 0, maxslots: 64}\n",
			[]string{"a ncpus=64 ncores=32 nthreads=2 nprocs=2 cpuf=12.5 slots=0 maxslots=64"}},
		{"numbers in YAML forms", compile.MB, "hosts:\n  - {name: a, ncpus: 0x10, ncores: 1_000, cpuf: 1e2, slots: -0}\n",
			[]string{"a ncpus=16 ncores=1000 cpuf=100 slots=0"}},
		{"server spellings", compile.MB, "hosts:\n  - {name: a, server: false}\n  - {name: b, server: 0}\n  - {name: c, server: no}\n  - {name: d, server: Yes}\n  - {name: e, server: 1}\n",
			[]string{"a server=false", "b server=false", "c server=false", "d", "e"}},
		{"type and model as numbers", compile.MB, "hosts:\n  - {name: a, type: 9000, model: 7.5}\n",
			[]string{"a type=9000 model=7.5"}},
		{"numeric names", compile.MB, "hosts:\n  - name: 10.0.0.1\n  - name: 42\n",
			[]string{"10.0.0.1", "42"}},
		{"resources sorted, exclusive marked", compile.MB, "hosts:\n  - name: a\n    resources:\n      - ssd\n      - \"!fs\"\n      - gpu\n",
			[]string{"a resources=fs,gpu,ssd exclusive=fs"}},
		{"values by type", compile.MB, "hosts:\n  - name: a\n    values: {ngpus: 4, temp: -3.5, rack: r01, speed: \"10G\", label: \"42\", big: 8G}\n",
			[]string{"a numbers=ngpus:4,temp:-3.5 strings=big:8G,label:42,rack:r01,speed:10G"}},
		{"load aliases", compile.MB, "hosts:\n  - name: a\n    load: {swap: 1G, cpu: 0.5, login: 3, idle: 10, r15s: 0.1, r15m: 0.2, pg: 1, io: 20}\n",
			[]string{"a load=io:20,it:10,ls:3,pg:1,r15m:0.2,r15s:0.1,r1m:0.5,swp:1024"}},
		{"ut as fraction and percentage", compile.MB, "hosts:\n  - {name: a, load: {ut: 0.35}}\n  - {name: b, load: {ut: 35%}}\n  - {name: c, load: {ut: \"12.5%\"}, reserved: {ut: 0%}}\n",
			[]string{"a load=ut:0.35", "b load=ut:0.35", "c load=ut:0.125 reserved=ut:0"}},
		{"site load indices", compile.MB, "hosts:\n  - {name: a, load: {scratch: 800000, gpu_util: 0.5}}\n",
			[]string{"a load=gpu_util:0.5,scratch:800000"}},
		{"status", compile.MB, "hosts:\n  - {name: a, status: closed_Adm}\n  - {name: b, status: -ok}\n  - {name: c, status: unavail}\n",
			[]string{"a status=closed_Adm", "b status=-ok", "c status=unavail"}},
		{"aliases", compile.MB, "hosts:\n  - {name: a, maxmem: &m 64G, resources: &r [fs, ssd]}\n  - {name: b, maxmem: *m, resources: *r}\n",
			[]string{"a maxmem=65536 resources=fs,ssd", "b maxmem=65536 resources=fs,ssd"}},
		{"merge keys", compile.MB, "hosts:\n  - &cn\n    name: cn01\n    type: X86_64\n    ncpus: 40\n    values: {rack: r01}\n  - <<: *cn\n    name: cn02\n    ncpus: 20\n  - <<: [*cn, {maxmem: 1G, ncpus: 8}]\n    name: cn03\n",
			[]string{"cn01 type=X86_64 ncpus=40 strings=rack:r01", "cn02 type=X86_64 ncpus=20 strings=rack:r01", "cn03 type=X86_64 ncpus=40 maxmem=1024 strings=rack:r01"}},
		{"nested merge keys", compile.MB, "hosts:\n  - {name: a, values: &v1 {x: 1, y: 2}}\n  - {name: b, values: &v2 {<<: *v1, y: 3}}\n  - {name: c, values: {<<: *v2, z: 4}}\n",
			[]string{"a numbers=x:1,y:2", "b numbers=x:1,y:3", "c numbers=x:1,y:3,z:4"}},
		{"document start and comments", compile.MB, "---\n# hosts\nhosts: # the list\n  - name: a # a host\n...\n",
			[]string{"a"}},
		{"CRLF", compile.MB, "hosts:\r\n  - name: a\r\n    ncpus: 4\r\n",
			[]string{"a ncpus=4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, ds := invRead(t, tc.src, tc.def)
			if len(ds) > 0 {
				t.Errorf("diagnostics:\n%s", strings.Join(invRender(ds), "\n"))
			}
			if d := invDiff(tc.want, invSummaries(inv)); d != "" {
				t.Errorf("hosts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// invDiagCases are inventories with mistakes and the diagnostics they give.
var invDiagCases = []struct {
	name string
	src  string
	want []string
}{
	// The file as a whole.
	{"empty", "", []string{
		"1:1: error: inventory is empty; want a mapping with the key \"hosts\" [LSF420] «»",
	}},
	{"comments only", "# nothing\n", []string{
		"1:1: error: inventory is empty; want a mapping with the key \"hosts\" [LSF420] «»",
	}},
	{"bad YAML", "hosts:\n  - name: a\n   bad: x\n", []string{
		"1:1: error: bad YAML: did not find expected '-' indicator [LSF420] «hosts:»",
	}},
	{"bad YAML in a flow list", "hosts: [\n  {name: a},\n  {name: b\n", []string{
		"2:3: error: bad YAML: did not find expected ',' or '}' [LSF420] «{name: a},»",
	}},
	{"control character", "hosts:\n  - name: a\x01\n", []string{
		"2:12: error: bad YAML: control characters are not allowed [LSF420] «\x01»",
	}},
	{"invalid UTF-8", "hosts:\n  - name: a\xff\n", []string{
		"2:12: error: bad YAML: invalid leading UTF-8 octet [LSF420] «\xff»",
	}},
	{"UTF-16", "\xff\xfeh\x00", []string{
		"1:1: error: inventory is UTF-16 text; save it as UTF-8 [LSF420] «\xff\xfe»",
	}},
	{"unknown anchor", "hosts:\n  - *nope\n", []string{
		"2:5: error: bad YAML: unknown anchor 'nope' referenced [LSF420] «*nope»",
	}},
	{"second document", "hosts: []\n---\nhosts: []\n", []string{
		"2:1: warning: the inventory holds more than one YAML document; only the first is read [LSF421] «---»",
	}},
	{"bad second document", "hosts: []\n---\n[\n", []string{
		"3:1: error: bad YAML: did not find expected node content [LSF420] «[»",
	}},
	{"top-level list", "- name: a\n", []string{
		"1:1: error: inventory must be a mapping with the key \"hosts\", not a list (write \"hosts:\" above the list) [LSF420] «-»",
	}},
	{"top-level string", "hosts\n", []string{
		"1:1: error: inventory must be a mapping with the key \"hosts\", not the string \"hosts\" [LSF420] «hosts»",
	}},
	{"no hosts key", "host:\n  - name: a\n", []string{
		"1:1: error: inventory has no key \"hosts\" [LSF420] «host»",
		"1:1: warning: unknown key \"host\" at the top of the inventory; it is ignored (did you mean \"hosts\"?) [LSF421] «host»",
	}},
	{"unknown top-level key", "hosts: []\nclusters: [demo]\n", []string{
		"2:1: warning: unknown key \"clusters\" at the top of the inventory; it is ignored [LSF421] «clusters»",
	}},
	{"hosts not a list", "hosts: {name: a}\n", []string{
		"1:8: error: hosts must be a list of hosts, not a mapping [LSF420] «{»",
	}},
	{"hosts twice", "hosts: []\nhosts: []\n", []string{
		"2:1: error: key \"hosts\" is given twice in the inventory; the second value is ignored [LSF420] «hosts»",
		"  note 1:1: \"hosts\" is first given here",
	}},
	// Hosts and names.
	{"host not a mapping", "hosts:\n  - cn01\n  - [a]\n", []string{
		"2:5: error: host 1 must be a mapping of keys to values, not the string \"cn01\" [LSF420] «cn01»",
		"3:5: error: host 2 must be a mapping of keys to values, not a list [LSF420] «[»",
	}},
	{"missing name", "hosts:\n  - type: X86_64\n    ncpus: 4\n  - {ncpus: 4}\n", []string{
		"2:5: error: host 1 has no name [LSF420] «type»",
		"4:5: error: host 2 has no name [LSF420] «{»",
	}},
	{"empty name", "hosts:\n  - name: \"\"\n  - name:\n", []string{
		"2:11: error: name of host 1 is empty [LSF420] «\"\"»",
		"3:10: error: name of host 2 is empty [LSF420] «»",
	}},
	{"name not text", "hosts:\n  - name: [a, b]\n  - name: true\n", []string{
		"2:11: error: name of host 1 must be text, not a list [LSF420] «[»",
		"3:11: error: name of host 2 must be text, not true [LSF420] «true»",
	}},
	{"name with blanks", "hosts:\n  - name: \"cn 01\"\n  - name: \"a,b\"\n", []string{
		"2:11: error: host name \"cn 01\" holds a character not allowed in host names [LSF420] «\"cn 01\"»",
		"3:11: error: host name \"a,b\" holds a character not allowed in host names [LSF420] «\"a,b\"»",
	}},
	{"duplicate host", "hosts:\n  - name: cn01\n  - name: cn02\n  - name: cn01\n    ncpus: 4\n", []string{
		"4:11: error: host \"cn01\" is defined twice; the second definition is ignored [LSF420] «cn01»",
		"  note 2:11: host \"cn01\" is first defined here",
	}},
	{"duplicate key", "hosts:\n  - name: a\n    ncpus: 4\n    ncpus: 8\n", []string{
		"4:5: error: key \"ncpus\" is given twice in host 1; the second value is ignored [LSF420] «ncpus»",
		"  note 3:5: \"ncpus\" is first given here",
	}},
	{"key not text", "hosts:\n  - name: a\n    [x]: 1\n    ~: 2\n", []string{
		"3:5: error: keys in host 1 must be text, not a list [LSF420] «[»",
		"4:5: error: keys in host 1 must be text, not an empty value [LSF420] «~»",
	}},
	// Keys.
	{"unknown keys", "hosts:\n  - name: a\n    maxmen: 4G\n    hostname: a\n    Ncpus: 4\n    color: red\n", []string{
		"3:5: warning: unknown key \"maxmen\" in host \"a\"; it is ignored (did you mean \"maxmem\"?) [LSF421] «maxmen»",
		"4:5: warning: unknown key \"hostname\" in host \"a\"; it is ignored (did you mean \"name\"?) [LSF421] «hostname»",
		"5:5: warning: unknown key \"Ncpus\" in host \"a\"; it is ignored (did you mean \"ncpus\"?) [LSF421] «Ncpus»",
		"6:5: warning: unknown key \"color\" in host \"a\"; it is ignored [LSF421] «color»",
	}},
	// Types and values.
	{"wrong types", "hosts:\n  - name: a\n    ncpus: \"4\"\n    cpuf: [1]\n    maxmem: {v: 1}\n    server: maybe\n    type: [X86_64]\n    model: true\n", []string{
		"3:12: error: ncpus of host \"a\" must be a number, not the string \"4\" [LSF420] «\"4\"»",
		"4:11: error: cpuf of host \"a\" must be a number, not a list [LSF420] «[»",
		"5:13: error: maxmem of host \"a\" must be a memory amount like 64G, not a mapping [LSF420] «{»",
		"6:13: error: server of host \"a\" must be true or false, not the string \"maybe\" [LSF420] «maybe»",
		"7:11: error: type of host \"a\" must be text, not a list [LSF420] «[»",
		"8:12: error: model of host \"a\" must be text, not true [LSF420] «true»",
	}},
	{"word with blanks", "hosts:\n  - name: a\n    type: X86 64\n    model: \"\"\n", []string{
		"3:11: error: type of host \"a\" must be one word, not \"X86 64\" [LSF420] «X86 64»",
		"4:12: error: model of host \"a\" must be one word, not \"\" [LSF420] «\"\"»",
	}},
	{"negative numbers", "hosts:\n  - name: a\n    ncpus: -4\n    cpuf: -1.5\n    maxmem: -8\n    maxswp: \"-8G\"\n    slots: -1\n    load: {r1m: -0.5, mem: -1}\n", []string{
		"3:12: error: ncpus of host \"a\" must not be negative, not -4 [LSF420] «-4»",
		"4:11: error: cpuf of host \"a\" must not be negative, not -1.5 [LSF420] «-1.5»",
		"5:13: error: maxmem of host \"a\" must not be negative, not -8 [LSF420] «-8»",
		"6:13: error: maxswp of host \"a\": negative memory amount \"-8G\" [LSF420] «\"-8G\"»",
		"7:12: error: slots of host \"a\" must not be negative, not -1 [LSF420] «-1»",
		"8:17: error: load r1m of host \"a\" must not be negative, not -0.5 [LSF420] «-0.5»",
		"8:28: error: load mem of host \"a\" must not be negative, not -1 [LSF420] «-1»",
	}},
	{"not whole", "hosts:\n  - name: a\n    ncpus: 2.5\n    maxslots: 1e-1\n", []string{
		"3:12: error: ncpus of host \"a\" must be a whole number, not 2.5 [LSF420] «2.5»",
		"4:15: error: maxslots of host \"a\" must be a whole number, not 1e-1 [LSF420] «1e-1»",
	}},
	{"not finite", "hosts:\n  - name: a\n    cpuf: .nan\n    ncpus: .inf\n    maxmem: -.Inf\n    values: {x: .NaN}\n", []string{
		"3:11: error: cpuf of host \"a\" must be a finite number, not .nan [LSF420] «.nan»",
		"4:12: error: ncpus of host \"a\" must be a finite number, not .inf [LSF420] «.inf»",
		"5:13: error: maxmem of host \"a\" must be a finite number, not -.Inf [LSF420] «-.Inf»",
		"6:17: error: value of \"x\" in host \"a\" must be a finite number, not .NaN [LSF420] «.NaN»",
	}},
	{"bad units", "hosts:\n  - name: a\n    maxmem: 8X\n    maxswp: 8GM\n    maxtmp: \"8 G\"\n    load: {mem: 1e3G, swp: lots}\n    reserved: {tmp: \"\"}\n", []string{
		"3:13: error: maxmem of host \"a\": unknown unit \"X\" in memory amount \"8X\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «8X»",
		"4:13: error: maxswp of host \"a\": unknown unit \"GM\" in memory amount \"8GM\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «8GM»",
		"5:13: error: maxtmp of host \"a\": unknown unit \" G\" in memory amount \"8 G\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «\"8 G\"»",
		"6:17: error: load mem of host \"a\": unknown unit \"e3G\" in memory amount \"1e3G\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «1e3G»",
		"6:28: error: load swp of host \"a\": memory amount \"lots\" does not start with a number [LSF420] «lots»",
		"7:21: error: reserved tmp of host \"a\": empty memory amount [LSF420] «\"\"»",
	}},
	// resources and values.
	{"resources not a list", "hosts:\n  - name: a\n    resources: fs ssd\n  - name: b\n    resources: {fs: true}\n", []string{
		"3:16: error: resources of host \"a\" must be a list like [fs, ssd], not the string \"fs ssd\" [LSF420] «fs ssd»",
		"5:16: error: resources of host \"b\" must be a list like [fs, ssd], not a mapping [LSF420] «{»",
	}},
	{"resource names", "hosts:\n  - name: a\n    resources: [fs, fs, 9lives, \"a-b\", \"\", mem, [x]]\n", []string{
		"3:21: warning: resource \"fs\" is listed twice for host \"a\" [LSF421] «fs»",
		"3:25: error: resource name \"9lives\" of host \"a\" starts with a digit [LSF420] «9lives»",
		"3:33: error: resource name \"a-b\" of host \"a\" holds a character LSF does not allow in resource names [LSF420] «\"a-b\"»",
		"3:40: error: resource name \"\" of host \"a\" is empty [LSF420] «\"\"»",
		"3:44: error: \"mem\" is a built-in resource, not a site resource of host \"a\"; give it under \"load\" [LSF420] «mem»",
		"3:49: error: a resource of host \"a\" must be text, not a list [LSF420] «[»",
	}},
	{"values not a mapping", "hosts:\n  - name: a\n    values: [rack]\n", []string{
		"3:13: error: values of host \"a\" must be a mapping like {rack: r01, ngpus: 4}, not a list [LSF420] «[»",
	}},
	{"value types", "hosts:\n  - name: a\n    values: {gpu: true, rack: [r01], x: ~, y: {z: 1}}\n", []string{
		"3:19: error: value of \"gpu\" in host \"a\" must be a number or a string, not true (list Boolean resources under resources) [LSF420] «true»",
		"3:31: error: value of \"rack\" in host \"a\" must be a number or a string, not a list [LSF420] «[»",
		"3:41: error: value of \"x\" in host \"a\" must be a number or a string, not an empty value [LSF420] «~»",
		"3:47: error: value of \"y\" in host \"a\" must be a number or a string, not a mapping [LSF420] «{»",
	}},
	{"built-in names in values", "hosts:\n  - name: a\n    values: {maxmem: 8G, mem: 1G, type: X, slots: 4, hname: a}\n", []string{
		"3:14: error: \"maxmem\" is a built-in resource, not a site resource of host \"a\"; give it with the key \"maxmem\" [LSF420] «maxmem»",
		"3:26: error: \"mem\" is a built-in resource, not a site resource of host \"a\"; give it under \"load\" [LSF420] «mem»",
		"3:35: error: \"type\" is a built-in resource, not a site resource of host \"a\"; give it with the key \"type\" [LSF420] «type»",
		"3:44: error: \"slots\" is a built-in resource, not a site resource of host \"a\"; give it with the key \"slots\" [LSF420] «slots»",
		"3:54: error: \"hname\" is a built-in resource, not a site resource of host \"a\"; give it with the key \"name\" [LSF420] «hname»",
	}},
	{"value also Boolean", "hosts:\n  - name: a\n    resources: [gpu]\n    values: {gpu: 4}\n", []string{
		"4:14: error: resource \"gpu\" of host \"a\" is both a Boolean (in resources) and a value [LSF420] «gpu»",
	}},
	// load and reserved.
	{"load not a mapping", "hosts:\n  - name: a\n    load: 5\n    reserved: [mem]\n", []string{
		"3:11: error: load of host \"a\" must be a mapping like {r1m: 0.5, mem: 64G}, not the number 5 [LSF420] «5»",
		"4:15: error: reserved of host \"a\" must be a mapping like {r1m: 0.5, mem: 64G}, not a list [LSF420] «[»",
	}},
	{"load index twice", "hosts:\n  - name: a\n    load: {swap: 1G, swp: 2G, cpu: 1, r1m: 2}\n", []string{
		"3:22: error: load index \"swp\" of host \"a\" is given twice; the second value is ignored [LSF420] «swp»",
		"  note 3:12: \"swp\" is first given here, as \"swap\"",
		"3:39: error: load index \"r1m\" of host \"a\" is given twice; the second value is ignored [LSF420] «r1m»",
		"  note 3:31: \"r1m\" is first given here, as \"cpu\"",
	}},
	{"misspelt load index", "hosts:\n  - name: a\n    load: {r1min: 2, Mem: 4, scratch: 5}\n", []string{
		"3:12: warning: \"r1min\" under load of host \"a\" is not a built-in load index (did you mean \"r1m\"?); it is read as a site resource [LSF421] «r1min»",
		"3:22: warning: \"Mem\" under load of host \"a\" is not a built-in load index (did you mean \"mem\"?); it is read as a site resource [LSF421] «Mem»",
	}},
	{"bad load names", "hosts:\n  - name: a\n    load: {\"a b\": 1, 2x: 3}\n", []string{
		"3:12: error: load name \"a b\" of host \"a\" holds a character LSF does not allow in resource names [LSF420] «\"a b\"»",
		"3:22: error: load name \"2x\" of host \"a\" starts with a digit [LSF420] «2x»",
	}},
	{"load value types", "hosts:\n  - name: a\n    load: {r1m: \"0.5\", ls: true, it: [1]}\n", []string{
		"3:17: error: load r1m of host \"a\" must be a number, not the string \"0.5\" [LSF420] «\"0.5\"»",
		"3:28: error: load ls of host \"a\" must be a number, not true [LSF420] «true»",
		"3:38: error: load it of host \"a\" must be a number, not a list [LSF420] «[»",
	}},
	{"ut", "hosts:\n  - name: a\n    load: {ut: 35}\n  - name: b\n    load: {ut: 35%}\n  - name: c\n    load: {ut: \"-5%\"}\n", []string{
		"3:16: warning: load ut of host \"a\" is 35, but ut is a fraction from 0 to 1 (write \"35%\" for a percentage) [LSF421] «35»",
		"7:16: error: load ut of host \"c\" must be a fraction from 0 to 1 or a percentage like 35%, not \"-5%\" [LSF420] «\"-5%\"»",
	}},
	// status.
	{"unknown status", "hosts:\n  - name: a\n    status: okay\n  - name: b\n    status: down\n  - name: c\n    status: closed_\n", []string{
		"3:13: warning: unknown status \"okay\" of host \"a\" [LSF421] «okay»",
		"5:13: warning: unknown status \"down\" of host \"b\" [LSF421] «down»",
		"7:13: warning: unknown status \"closed_\" of host \"c\" (did you mean \"closed\"?) [LSF421] «closed_»",
	}},
	// Contradictions.
	{"more free than max", "hosts:\n  - name: a\n    maxmem: 8G\n    maxswp: 1G\n    maxtmp: 10G\n    load: {mem: 9G, swp: 2G, tmp: 10G}\n", []string{
		"6:17: warning: free mem of host \"a\" (9G) is more than its maxmem (8G) [LSF421] «9G»",
		"  note 3:13: maxmem of host \"a\" is given here",
		"6:26: warning: free swp of host \"a\" (2G) is more than its maxswp (1G) [LSF421] «2G»",
		"  note 4:13: maxswp of host \"a\" is given here",
	}},
	{"more free than max, in one unit", "hosts:\n  - name: a\n    maxmem: 1G\n    load: {mem: 1200M}\n", []string{
		"4:17: warning: free mem of host \"a\" (1200M) is more than its maxmem (1024M) [LSF421] «1200M»",
		"  note 3:13: maxmem of host \"a\" is given here",
	}},
	{"more slots than maxslots", "hosts:\n  - name: a\n    slots: 9\n    maxslots: 8\n", []string{
		"3:12: warning: host \"a\" has more free slots (9) than maxslots (8) [LSF421] «9»",
		"  note 4:15: maxslots of host \"a\" is given here",
	}},
	// Merge keys.
	{"merge of a scalar", "hosts:\n  - name: a\n    <<: 5\n", []string{
		"3:9: error: a merge key (<<) in host 1 must name a mapping, not the number 5 [LSF420] «5»",
	}},
	{"merge list of scalars", "hosts:\n  - name: a\n    <<: [1, {ncpus: 2}]\n", []string{
		"3:10: error: a merge key (<<) in host 1 must name a mapping, not the number 1 [LSF420] «1»",
	}},
	// Positions after multi-byte characters and anchors.
	{"columns count characters", "hosts:\n  - {name: \"é€\", ncpus: -1}\n", []string{
		"2:25: error: ncpus of host \"é€\" must not be negative, not -1 [LSF420] «-1»",
	}},
	{"anchored value", "hosts:\n  - name: a\n    ncpus: &n -1\n", []string{
		"3:15: error: ncpus of host \"a\" must not be negative, not -1 [LSF420] «-1»",
	}},
	{"tagged value", "hosts:\n  - name: a\n    ncpus: !!str 4\n", []string{
		"3:18: error: ncpus of host \"a\" must be a number, not the string \"4\" [LSF420] «4»",
	}},
	{"block scalar", "hosts:\n  - name: a\n    type: |\n      X86_64\n", []string{
		"3:11: error: type of host \"a\" must be one word, not \"X86_64\\n\" [LSF420] «|»",
	}},
	{"multi-line plain scalar", "hosts:\n  - name: a\n    type: X86\n      64\n", []string{
		"3:11: error: type of host \"a\" must be one word, not \"X86 64\" [LSF420] «X86»",
	}},
}

func TestReadInventoryDiagnostics(t *testing.T) {
	for _, tc := range invDiagCases {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := invRead(t, tc.src, compile.MB)
			got := invRender(ds)
			if d := invDiff(tc.want, got); d != "" {
				var b strings.Builder
				for _, l := range got {
					fmt.Fprintf(&b, "\t\t%q,\n", l)
				}
				t.Errorf("diagnostics mismatch (-want +got):\n%sgot:\n%s", d, b.String())
			}
		})
	}
}

// FuzzReadInventory checks Read on any input: no panic, every
// span inside the input, rendering never fails.
func FuzzReadInventory(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hosts", "demo.yaml")); err == nil {
		f.Add(string(b))
	}
	for _, tc := range invDiagCases {
		f.Add(tc.src)
	}
	f.Add("{\"hosts\": [{\"name\": \"a\", \"load\": {\"mem\": \"1G\"}}]}")
	f.Fuzz(func(t *testing.T, s string) {
		inv, ds := inventory.Read(lang.NewSource("fuzz.yaml", s), compile.MB)
		invCheckSpans(t, inv, ds)
		if err := ds.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := ds.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, h := range inv.Hosts {
			if h.Name == "" || seen[h.Name] {
				t.Fatalf("host name %q empty or repeated", h.Name)
			}
			seen[h.Name] = true
		}
	})
}

func TestReadInventoryLimits(t *testing.T) {
	t.Run("bytes", func(t *testing.T) {
		inv, ds := invRead(t, strings.Repeat("#", inventory.MaxBytes+1), compile.MB)
		want := []string{`1:1: error: inventory is 67108865 bytes, more than the limit of 64 MiB [LSF420] «»`}
		if d := invDiff(want, invRender(ds)); d != "" || len(inv.Hosts) != 0 {
			t.Errorf("diagnostics mismatch (-want +got):\n%s", d)
		}
	})
	t.Run("hosts", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("hosts:\n")
		for i := range inventory.MaxHosts + 1 {
			fmt.Fprintf(&b, "- {name: h%d}\n", i)
		}
		inv, ds := invRead(t, b.String(), compile.MB)
		want := []string{`2:1: error: inventory lists 100001 hosts, more than the limit of 100000 [LSF420] «-»`}
		if d := invDiff(want, invRender(ds)); d != "" || len(inv.Hosts) != 0 {
			t.Errorf("diagnostics mismatch (-want +got):\n%s", d)
		}
	})
	t.Run("aliases", func(t *testing.T) {
		// One mapping of 2000 values, given to 20000 hosts through an
		// alias: far more work than the file has bytes.
		var b strings.Builder
		b.WriteString("hosts:\n- {name: a, values: &v {x0: 1")
		for i := range 2000 {
			fmt.Fprintf(&b, ", x%d: 1", i+1)
		}
		b.WriteString("}}\n")
		for i := range 20000 {
			fmt.Fprintf(&b, "- {name: b%d, values: *v}\n", i)
		}
		inv, ds := invRead(t, b.String(), compile.MB)
		if len(ds) != 1 || !strings.Contains(ds[0].Message, "expands to too many values through aliases") {
			t.Fatalf("diagnostics:\n%s", strings.Join(invRender(ds), "\n"))
		}
		if n := len(inv.Hosts); n < 10 || n > 1000 {
			t.Errorf("%d hosts read before the limit", n)
		}
	})
	t.Run("diagnostics", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("hosts:\n")
		for i := range 1200 {
			fmt.Fprintf(&b, "- {name: h%d, ncpus: -1}\n", i)
		}
		inv, ds := invRead(t, b.String(), compile.MB)
		if len(ds) != 1001 || len(inv.Hosts) != 1200 {
			t.Fatalf("%d diagnostics and %d hosts, want 1001 and 1200", len(ds), len(inv.Hosts))
		}
		last := invRender(ds[1000:])[0]
		if want := "1002:24: error: too many problems in the inventory; the rest are not reported [LSF420] «-1»"; last != want {
			t.Errorf("last diagnostic = %s\nwant                %s", last, want)
		}
	})
	t.Run("one long line", func(t *testing.T) {
		// Minified JSON: every position is on line 1.
		var b strings.Builder
		b.WriteString(`{"hosts":[`)
		for i := range 50000 {
			fmt.Fprintf(&b, `{"name":"h%d","ncpus":-1},`, i)
		}
		b.WriteString(`{"name":"é","ncpus":-1}]}`)
		inv, ds := invRead(t, b.String(), compile.MB)
		if len(ds) != 1001 || len(inv.Hosts) != 50001 {
			t.Fatalf("%d diagnostics and %d hosts, want 1001 and 50001", len(ds), len(inv.Hosts))
		}
		if got := invRender(ds[:1])[0]; got != `1:32: error: ncpus of host "h0" must not be negative, not -1 [LSF420] «-1»` {
			t.Errorf("first diagnostic = %s", got)
		}
	})
	t.Run("too large", func(t *testing.T) {
		_, ds := invRead(t, "hosts:\n  - {name: a, maxmem: 1e300, load: {mem: 5}}\n", compile.ZB)
		want := []string{`2:23: error: maxmem of host "a" is too large [LSF420] «1e300»`}
		if d := invDiff(want, invRender(ds)); d != "" {
			t.Errorf("diagnostics mismatch (-want +got):\n%s", d)
		}
	})
}

// TestReadInventoryRender checks one diagnostic as lsfc prints it, with the
// source line and a caret under the smallest span.
func TestReadInventoryRender(t *testing.T) {
	_, ds := invRead(t, "hosts:\n  - name: cn01\n    maxmem: 256X\n", compile.MB)
	var b strings.Builder
	if err := ds.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "inv.yaml:3:13: error: maxmem of host \"cn01\": unknown unit \"X\" in memory amount \"256X\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420]\n" +
		"    3 |     maxmem: 256X\n" +
		"      |             ^^^^\n"
	if got := b.String(); got != want {
		t.Errorf("WriteText =\n%s\nwant\n%s", got, want)
	}
}

func TestCodes(t *testing.T) {
	infos := inventory.Codes()
	if len(infos) != 2 || infos[0].Code != inventory.CodeInventory || infos[1].Code != inventory.CodeInventoryWarn {
		t.Fatalf("Codes() = %+v", infos)
	}
	if infos[0].Severity != lang.Error || infos[1].Severity != lang.Warning {
		t.Errorf("severities = %v, %v", infos[0].Severity, infos[1].Severity)
	}
	for _, info := range infos {
		for _, part := range []string{"What it finds:", "Why it matters:", "Example:", "Fix:"} {
			if !strings.Contains(info.Doc, part) {
				t.Errorf("%s: Doc lacks %q", info.Code, part)
			}
		}
		if info.Name == "" || info.Summary == "" {
			t.Errorf("%s: empty name or summary", info.Code)
		}
	}
	infos[0].Code = "changed"
	if inventory.Codes()[0].Code != inventory.CodeInventory {
		t.Error("Codes returns shared state")
	}
}
