//go:build !lsfclient

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// copyTree copies the directory src to dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestResReqMatchCache runs lsfc resreq match --conf on a copy of the demo
// tree with a cache directory of its own: the first run writes the
// tree's environment, the next uses it (seen through a resource only the
// entry declares), a change to any file of the tree or to a directory's
// listing makes it read the tree again and rewrite the entry, and a
// corrupt entry is ignored and rewritten, never an error.
func TestResReqMatchCache(t *testing.T) {
	tmp := t.TempDir()
	tree := filepath.Join(tmp, "demo")
	copyTree(t, filepath.Join("..", "..", "testdata", "clusters", "demo"), tree)
	hosts := filepath.Join("..", "..", "testdata", "hosts", "demo.yaml")
	vars := map[string]string{"XDG_CACHE_HOME": filepath.Join(tmp, "cache")}
	match := func(req string) (int, string, string) {
		return runLSF(t, vars, "resreq", "match", "-R", req, "--hosts", hosts, "--conf", tree)
	}
	entryPath := envCachePath(env{getenv: func(k string) string { return vars[k] }}, tree, "")

	code, want, errOut := match("select[ssd]")
	if code != 0 {
		t.Fatalf("first match: exit %d: %s", code, errOut)
	}
	var ent envCacheEntry
	readEntry := func() {
		t.Helper()
		b, err := os.ReadFile(entryPath)
		if err != nil {
			t.Fatalf("cache entry: %v", err)
		}
		ent = envCacheEntry{}
		if err := json.Unmarshal(b, &ent); err != nil {
			t.Fatalf("cache entry %s: %v\n%s", entryPath, err, b)
		}
	}
	readEntry()
	if len(ent.Files) < 9 || len(ent.Dirs) < 2 {
		t.Errorf("the entry names %d files and %d directories; want every file of the tree and its directories", len(ent.Files), len(ent.Dirs))
	}
	if code, got, errOut := match("select[ssd]"); code != 0 || got != want {
		t.Errorf("second match: exit %d, stdout %q (want %q), stderr %q", code, got, want, errOut)
	}

	// The entry is what the next run uses: a resource only it declares.
	plant := func() {
		t.Helper()
		readEntry()
		ent.Env.Site = append(ent.Env.Site, cachedResource{Name: "onlyincache", Type: 1})
		b, _ := json.Marshal(&ent)
		if err := os.WriteFile(entryPath, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	plant()
	if code, _, errOut := match("select[onlyincache || ssd]"); code != 0 {
		t.Fatalf("the entry was not used: exit %d: %s", code, errOut)
	}

	unknown := func(what string) {
		t.Helper()
		code, _, errOut := match("select[onlyincache || ssd]")
		if code != exitFindings || !strings.Contains(errOut, "onlyincache") {
			t.Errorf("%s: the stale entry was used: exit %d, stderr %q", what, code, errOut)
		}
		readEntry()
		for _, r := range ent.Env.Site {
			if r.Name == "onlyincache" {
				t.Errorf("%s: the entry was not rewritten", what)
			}
		}
		if code, got, errOut := match("select[ssd]"); code != 0 || got != want {
			t.Errorf("%s: match after: exit %d, stdout %q, stderr %q", what, code, got, errOut)
		}
	}
	// A file of the tree changes.
	queues := filepath.Join(tree, "lsbatch", "demo", "configdir", "lsb.queues")
	b, err := os.ReadFile(queues)
	if err != nil {
		t.Fatal(err)
	}
	plant()
	if err := os.WriteFile(queues, append(b, "# changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown("lsb.queues changed")

	// A file appears in a directory of the tree: one with a syntax error,
	// which the match must now report.
	plant()
	bad := filepath.Join(tree, "lsbatch", "demo", "configdir", "lsb.modules")
	if err := os.WriteFile(bad, []byte("Begin PluginModule\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := match("select[onlyincache || ssd]"); code != exitFindings || !strings.Contains(errOut, "lsb.modules") {
		t.Errorf("a new file with an error: exit %d, stderr %q; want its error", code, errOut)
	}
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}

	// Corrupt entries: garbage, a cut file, another format, an empty file.
	for name, text := range map[string]string{
		"garbage": "\x00\xffnot json", "cut": `{"format":1,"binary":"`, "format": `{"format":999}`, "empty": "",
	} {
		if err := os.WriteFile(entryPath, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, got, errOut := match("select[ssd]"); code != 0 || got != want {
			t.Errorf("%s entry: exit %d, stdout %q, stderr %q", name, code, got, errOut)
		}
		readEntry()
		if ent.Format != envCacheFormat {
			t.Errorf("%s entry: not rewritten (format %d)", name, ent.Format)
		}
	}

	// Concurrent runs with no entry: each answers, and one whole entry is left.
	if err := os.Remove(entryPath); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if code, got, errOut := match("select[ssd]"); code != 0 || got != want {
				t.Errorf("concurrent match: exit %d, stdout %q, stderr %q", code, got, errOut)
			}
		})
	}
	wg.Wait()
	readEntry()
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(entryPath), ".entry-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// FuzzMatchEnvCache gives lsfc resreq match --conf arbitrary bytes as its
// cache entry, seeded with a good entry: whatever the entry holds, the
// match answers as with no cache (exit 0 and the same hosts) or, when the
// entry passes its checks, without an internal error.
func FuzzMatchEnvCache(f *testing.F) {
	tmp := f.TempDir()
	tree := filepath.Join(tmp, "demo")
	copyTree(f, filepath.Join("..", "..", "testdata", "clusters", "demo"), tree)
	hosts := filepath.Join("..", "..", "testdata", "hosts", "demo.yaml")
	vars := map[string]string{"XDG_CACHE_HOME": filepath.Join(tmp, "cache")}
	e := env{getenv: func(k string) string { return vars[k] }}
	entryPath := envCachePath(e, tree, "")
	match := func() (int, string, string) {
		var stdout, stderr strings.Builder
		ee := env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: e.getenv}
		code := run([]string{"resreq", "match", "-R", "select[ssd] order[ut]", "--hosts", hosts, "--conf", tree}, ee)
		return code, stdout.String(), stderr.String()
	}
	code, want, errOut := match()
	if code != 0 {
		f.Fatalf("match: exit %d: %s", code, errOut)
	}
	good, err := os.ReadFile(entryPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(strings.Replace(string(good), `"unit":1`, `"unit":99`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"type":1`, `"type":7`, 1)))
	f.Add([]byte("{}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(entryPath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		rejected := cachedMatchEnv(e, tree, "") == nil
		code, got, errOut := match()
		if code == exitInternal {
			t.Fatalf("internal error with entry %q: %s", data, errOut)
		}
		if rejected && (code != 0 || got != want) {
			t.Fatalf("a rejected entry changed the answer: exit %d, stdout %q, stderr %q", code, got, errOut)
		}
	})
}
