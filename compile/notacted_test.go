package compile_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// TestCheckedOnlyProfileKeys keeps the lsb.queues and lsb.applications
// part of checked-only-keys.txt true: each listed key is a key of its
// section, and no code of the scheduler, the daemon or the commands names
// it, except where bqueues -l shows a queue's settings as written
// (queuedef.go) and where reconfig says when a change applies
// (changes.go). A key leaves the list when code starts to act on it.
func TestCheckedOnlyProfileKeys(t *testing.T) {
	shown := map[string]bool{"queuedef.go": true, "changes.go": true}
	var sources []string
	for _, dir := range []string{"../runtime", "../cmd"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				shown[filepath.Base(path)] && filepath.Base(filepath.Dir(path)) == "daemon" {
				return err
			}
			b, err := os.ReadFile(path)
			sources = append(sources, path+"\x00"+string(b))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	keys := compile.CheckedOnlyKeys()
	for _, c := range []struct {
		kind    lang.FileKind
		section string
	}{{lang.KindLSBQueues, "Queue"}, {lang.KindLSBApplications, "Application"}} {
		if len(keys[c.kind]) == 0 {
			t.Errorf("checked-only-keys.txt lists no key of %s", c.kind)
		}
		ss := schema.Lookup(c.kind).Section(c.section)
		for key := range keys[c.kind] {
			if ss.Key(key, true) == nil {
				t.Errorf("checked-only-keys.txt lists %s %s, which the schema does not have", c.kind, key)
				continue
			}
			lit := regexp.MustCompile(`"` + key + `"`)
			for _, src := range sources {
				path, text, _ := strings.Cut(src, "\x00")
				if lit.MatchString(text) {
					t.Errorf("checked-only-keys.txt lists %s %s, but %s names it: remove it from the list if lsfc acts on it", c.kind, key, path)
				}
			}
		}
	}
	// Being built now: the requeue keys are acted on.
	for _, key := range []string{"REQUEUE_EXIT_VALUES", "SUCCESS_EXIT_VALUES", "MAX_JOB_REQUEUE"} {
		_, queue := keys[lang.KindLSBQueues][key]
		_, app := keys[lang.KindLSBApplications][key]
		if queue || app {
			t.Errorf("checked-only-keys.txt lists %s, which the daemon acts on", key)
		}
	}
}

// TestNotActedOn names, one line per file, the keys a tree sets that lsfc
// does not act on, with their lines, and nothing for keys it acts on.
func TestNotActedOn(t *testing.T) {
	p, diags := compileArchive(t, `
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
ADVRSV_USER_LIMIT = 10
CONDENSE_PENDING_REASONS = ALL
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
JOB_STARTER = /bin/env
End Queue
Begin Queue
QUEUE_NAME = other
JOB_STARTER = /bin/env
NICE = 5
End Queue
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := strings.Join(p.NotActedOn(), "\n")
	want := "lsb.params: read and checked, not acted on by lsfc: ADVRSV_USER_LIMIT (line 3), CONDENSE_PENDING_REASONS (line 4)\n" +
		"lsb.queues: read and checked, not acted on by lsfc: JOB_STARTER (lines 4, 8), NICE (line 9)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	p, diags = compileArchive(t, `
-- lsf.conf --
LSF_BINDIR=/opt/lsf/bin
LSF_LIM_PORT=7869
LSF_STRICT_RESREQ=Y
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got = strings.Join(p.NotActedOn(), "\n")
	want = "lsf.conf: read and checked, not acted on by lsfc: LSF_STRICT_RESREQ (line 3), and 2 settings of the LSF installation (directories, ports, daemons)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// LSF_LINUX_CGROUP_ACCT acts on jobs tracked by cgroup alone.
	for _, tc := range []struct{ conf, want string }{
		{"LSF_LINUX_CGROUP_ACCT=Y\n", "lsf.conf: read and checked, not acted on by lsfc: LSF_LINUX_CGROUP_ACCT without LSF_PROCESS_TRACKING=Y (line 1)"},
		{"LSF_LINUX_CGROUP_ACCT=Y\nLSF_PROCESS_TRACKING=Y\n", ""},
		{"LSF_LINUX_CGROUP_ACCT=N\n", ""},
	} {
		p, diags = compileArchive(t, "-- lsf.conf --\n"+tc.conf)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := strings.Join(p.NotActedOn(), "\n"); got != tc.want {
			t.Errorf("%q: got\n%s\nwant\n%s", tc.conf, got, tc.want)
		}
	}
	// lsb.hosts, lsb.users and lsb.resources: keys and columns named with
	// their section, with the lines of the rows that set them (a "-"
	// sets nothing); a section lsfc does not act on at all, once.
	p, diags = compileArchive(t, `
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ  MIG
default    2    10
hostA      1    -
End Host
Begin HostGroup
GROUP_NAME  GROUP_MEMBER  GROUP_ADMIN
grp         (all)         (alice)
End HostGroup
-- lsb.users --
Begin User
USER_NAME  MAX_JOBS  PRIORITY
alice      4         5
End User
-- lsb.resources --
Begin Limit
NAME  = l1
SLOTS = 4
SWP   = 100
End Limit
Begin PowerPolicy
NAME        = night
HOSTS       = all
TIME_WINDOW = 20:00-8:00
End PowerPolicy
Begin ResourceReservation
NAME        = r1
USERS       = alice
HOSTS       = all
TIME_WINDOW = 8:00-9:00
End ResourceReservation
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got = strings.Join(p.NotActedOn(), "\n")
	want = "lsb.hosts: read and checked, not acted on by lsfc: Host MIG (line 3), HostGroup GROUP_ADMIN (line 8)\n" +
		"lsb.users: read and checked, not acted on by lsfc: User PRIORITY (line 3)\n" +
		"lsb.resources: read and checked, not acted on by lsfc: Limit SWP (line 4), PowerPolicy section (line 6)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	p, diags = compileArchive(t, `
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
End Parameters
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := p.NotActedOn(); got != nil {
		t.Errorf("a tree setting only keys lsfc acts on: got %q", got)
	}
}

// TestCheckedOnlySectionKeys keeps the lsb.hosts, lsb.users and
// lsb.resources part of checked-only-keys.txt true. Each listed key is a
// key of its section. A section all of whose keys are listed is kept by
// compile only as an OtherSection, which code reaches by its name: no code
// of the scheduler, the daemon or the commands names it. The columns of
// host and user groups and compute units reach no code outside compile:
// their structures carry no settings. The other listed keys (of lsb.hosts
// Host rows, lsb.users User rows and Limit sections, whose settings the
// scheduler reads by name) are named by no such code, but where the
// same word means something else, as said below, and where bqueues -l and
// reconfig show settings as written. A key leaves the list when code
// starts to act on it.
func TestCheckedOnlySectionKeys(t *testing.T) {
	// The files where a listed word names something else.
	otherMeaning := map[string][]string{
		"MIG":      {"runtime/lsbevents/record.go"},                    // a field of an lsb.events record
		"PRIORITY": {"cmd/lsfc/bqueues.go", "cmd/lsfc/bsla.go"},        // a queue's and a service class's priority
		"RESOURCE": {"cmd/lsfc/lsshared.go", "cmd/lsfc/gpu_format.go"}, // lsf.shared's and bhosts' columns
	}
	shown := map[string]bool{"queuedef.go": true, "changes.go": true}
	type source struct{ path, text string }
	var sources []source
	for _, dir := range []string{"../runtime", "../cmd"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				shown[filepath.Base(path)] && filepath.Base(filepath.Dir(path)) == "daemon" {
				return err
			}
			b, err := os.ReadFile(path)
			sources = append(sources, source{filepath.ToSlash(strings.TrimPrefix(path, "../")), string(b)})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	named := func(word string) []string {
		var out []string
		for _, s := range sources {
			if strings.Contains(s.text, `"`+word+`"`) && !slices.Contains(otherMeaning[word], s.path) {
				out = append(out, s.path)
			}
		}
		return out
	}
	// Sections compile reads into structures of their own.
	typed := map[string]bool{"Host": true, "HostGroup": true, "ComputeUnit": true, "UserGroup": true, "User": true, "Limit": true}
	for _, typ := range []reflect.Type{reflect.TypeFor[compile.HostGroup](), reflect.TypeFor[compile.UserGroup]()} {
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() && f.Type == reflect.TypeFor[compile.Settings]() {
				t.Errorf("%s.%s carries the settings of its row out of compile: check its listed columns by name", typ.Name(), f.Name)
			}
		}
	}
	sections := compile.CheckedOnlySectionKeys()
	for _, kind := range []lang.FileKind{lang.KindLSBHosts, lang.KindLSBUsers, lang.KindLSBResources} {
		if len(sections[kind]) == 0 {
			t.Errorf("checked-only-keys.txt lists no key of %s", kind)
		}
		for section, keys := range sections[kind] {
			ss := schema.Lookup(kind).Section(section)
			if ss == nil {
				t.Errorf("checked-only-keys.txt lists section %s of %s, which the schema does not have", section, kind)
				continue
			}
			whole := true
			for _, k := range ss.KeyNames() {
				whole = whole && keys[k]
			}
			for key := range keys {
				if ss.Key(key, true) == nil {
					t.Errorf("checked-only-keys.txt lists %s %s %s, which the schema does not have", kind, section, key)
				}
			}
			switch {
			case whole:
				if typed[section] {
					t.Errorf("%s %s: every key is listed, but compile reads the section into a structure", kind, section)
				}
				p, _ := compileArchive(t, "-- "+kind.String()+" --\nBegin "+section+"\nEnd "+section+"\n")
				if !slices.ContainsFunc(p.Sections, func(o *compile.OtherSection) bool { return o.Name == section }) {
					t.Errorf("%s %s: every key is listed, but compile does not keep it as an OtherSection", kind, section)
				}
				for _, path := range named(section) {
					t.Errorf("checked-only-keys.txt lists every key of %s %s, but %s names the section: remove its keys from the list if lsfc acts on them", kind, section, path)
				}
			case section == "HostGroup" || section == "ComputeUnit" || section == "UserGroup":
				// Checked by the structures above.
			default:
				for key := range keys {
					for _, path := range named(key) {
						t.Errorf("checked-only-keys.txt lists %s %s %s, but %s names it: remove it from the list if lsfc acts on it", kind, section, key, path)
					}
				}
			}
		}
	}
}
