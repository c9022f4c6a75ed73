package compile_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
