package compile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
)

// writeFiles writes files (relative path → content) under a new temporary
// directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := testkit.WriteTree(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

const shared1 = "Begin Cluster\nClusterName\nc1\nEnd Cluster\n"

func codes(ds lang.Diagnostics) string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Code)+" "+d.Severity.String())
	}
	return strings.Join(out, ",")
}

func names(t *compile.Tree) []string {
	var out []string
	for _, f := range t.Files {
		out = append(out, filepath.Base(f.Src.Name))
	}
	return out
}

func TestLoadDemo(t *testing.T) {
	tree, diags, err := compile.Load([]string{filepath.Join("..", "testdata", "clusters", "demo")}, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(diags); got != "LSF301 info" {
		t.Errorf("diagnostics = %s, want the LSB_CONFDIR fallback only", got)
	}
	if tree.Cluster != "demo" {
		t.Errorf("cluster = %q", tree.Cluster)
	}
	want := "lsf.conf lsf.shared lsf.cluster.demo lsb.params lsb.queues lsb.hosts lsb.users lsb.resources lsb.applications"
	if got := strings.Join(names(tree), " "); got != want {
		t.Errorf("files = %s\nwant    %s", got, want)
	}
}

// TestLoadConfOnly reads only what names the cluster: lsf.conf and
// lsf.shared.
func TestLoadConfOnly(t *testing.T) {
	tree, diags, err := compile.Load([]string{filepath.Join("..", "testdata", "clusters", "demo")}, compile.LoadOptions{ConfOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 0 {
		t.Errorf("diagnostics = %s, want none", codes(diags))
	}
	if tree.Cluster != "demo" {
		t.Errorf("cluster = %q, want demo", tree.Cluster)
	}
	if got, want := strings.Join(names(tree), " "), "lsf.conf lsf.shared"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
}

func TestLoadLayouts(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		opts    compile.LoadOptions
		files2  string // expected file names
		cluster string
		diags   string
	}{
		{
			name: "LSB_CONFDIR that exists",
			files: map[string]string{
				"env/lsf.conf":                     "LSB_CONFDIR=@ROOT@/batch\n",
				"env/lsf.shared":                   shared1,
				"env/lsf.cluster.c1":               "",
				"batch/c1/configdir/lsb.queues":    "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
				"env/lsbatch/c1/configdir/lsb.old": "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c1 lsb.queues", cluster: "c1",
		},
		{
			name: "LSB_CONFDIR unset: lsbatch next to lsf.conf is LSF's default",
			files: map[string]string{
				"env/lsf.conf":                        "LSF_LOGDIR=/tmp\n",
				"env/lsf.shared":                      shared1,
				"env/lsf.cluster.c1":                  "",
				"env/lsbatch/c1/configdir/lsb.params": "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c1 lsb.params", cluster: "c1",
		},
		{
			name: "lsb files beside lsf.conf",
			files: map[string]string{
				"env/lsf.conf":       "LSB_CONFDIR=/no/such/dir\n",
				"env/lsf.shared":     shared1,
				"env/lsf.cluster.c1": "",
				"env/lsb.hosts":      "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c1 lsb.hosts", cluster: "c1", diags: "LSF301 info",
		},
		{
			name: "no batch directory",
			files: map[string]string{
				"env/lsf.conf":       "LSB_CONFDIR=/no/such/dir\n",
				"env/lsf.shared":     shared1,
				"env/lsf.cluster.c1": "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c1", cluster: "c1", diags: "LSF304 warning",
		},
		{
			name: "missing lsf.shared and lsf.cluster",
			files: map[string]string{
				"env/lsf.conf": "LSF_LOGDIR=/tmp\n",
			},
			files2: "lsf.conf", diags: "LSF302 error,LSF302 error",
		},
		{
			name: "several clusters, one file: the file tells",
			files: map[string]string{
				"env/lsf.conf":       "",
				"env/lsf.shared":     "Begin Cluster\nClusterName\nc1\nc2\nEnd Cluster\n",
				"env/lsf.cluster.c2": "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c2", cluster: "c2", diags: "LSF304 warning",
		},
		{
			name: "several clusters and files: ambiguous",
			files: map[string]string{
				"env/lsf.conf":       "",
				"env/lsf.shared":     "Begin Cluster\nClusterName\nc1\nc2\nEnd Cluster\n",
				"env/lsf.cluster.c1": "",
				"env/lsf.cluster.c2": "",
			},
			files2: "lsf.conf lsf.shared", diags: "LSF303 error",
		},
		{
			name: "several clusters and files: --cluster chooses",
			files: map[string]string{
				"env/lsf.conf":       "",
				"env/lsf.shared":     "Begin Cluster\nClusterName\nc1\nc2\nEnd Cluster\n",
				"env/lsf.cluster.c1": "",
				"env/lsf.cluster.c2": "",
			},
			opts:   compile.LoadOptions{Cluster: "c1"},
			files2: "lsf.conf lsf.shared lsf.cluster.c1", cluster: "c1", diags: "LSF304 warning",
		},
		{
			name: "LSF_CONFDIR that exists holds lsf.shared",
			files: map[string]string{
				"env/lsf.conf":                         "LSF_CONFDIR=@ROOT@/conf\n",
				"conf/lsf.shared":                      shared1,
				"conf/lsf.cluster.c1":                  "",
				"conf/lsbatch/c1/configdir/lsb.params": "",
			},
			files2: "lsf.conf lsf.shared lsf.cluster.c1 lsb.params", cluster: "c1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for k, v := range tt.files {
				files[k] = strings.ReplaceAll(v, "@ROOT@", dir)
			}
			if err := testkit.WriteTree(dir, files); err != nil {
				t.Fatal(err)
			}
			tree, diags, err := compile.Load([]string{filepath.Join(dir, "env")}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names(tree), " "); got != tt.files2 {
				t.Errorf("files = %s, want %s", got, tt.files2)
			}
			if tree.Cluster != tt.cluster {
				t.Errorf("cluster = %q, want %q", tree.Cluster, tt.cluster)
			}
			if got := codes(diags); got != tt.diags {
				t.Errorf("diagnostics = %q, want %q", got, tt.diags)
			}
		})
	}
}

func TestLoadBatchDirAndFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"lsb.queues":  "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
		"lsb.hosts":   "",
		"lsb.events":  "not configuration",
		"notes.txt":   "",
		"custom.conf": "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
	})
	tree, diags, err := compile.Load([]string{dir}, compile.LoadOptions{})
	if err != nil || len(diags) != 1 || diags[0].Code != compile.CodeUncheckedRefs {
		t.Fatalf("Load: %v %v, want only %s", err, diags, compile.CodeUncheckedRefs)
	}
	if got := strings.Join(names(tree), " "); got != "lsb.queues lsb.hosts" {
		t.Errorf("files = %s", got)
	}
	// A file whose name says nothing is read by its content.
	tree, _, err = compile.Load([]string{filepath.Join(dir, "custom.conf")}, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if k := tree.Files[0].Kind; k != lang.KindLSBQueues {
		t.Errorf("custom.conf read as %v", k)
	}
}

// TestLoadUncheckedReferences: lsb.* files read without lsf.cluster or
// lsf.shared get one info, on the first lsb.* file, naming the missing
// files and the checks they would have allowed; with both files, or with
// no lsb.* file, nothing is said.
func TestLoadUncheckedReferences(t *testing.T) {
	queues := "Begin Queue\nQUEUE_NAME = q\nHOSTS = gpu_hostz\nEnd Queue\n"
	shared := "Begin Cluster\nClusterName\ntest\nEnd Cluster\n"
	cluster := "Begin Host\nHOSTNAME model type server\nhostA ! ! 1\nEnd Host\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string // in the info's message; nil: no info
	}{
		{"batch only", map[string]string{"lsb.queues": queues, "lsb.params": ""},
			[]string{"lsf.cluster.<cluster> and lsf.shared are not among the files read", "host names (in HOSTS", "host models and types"}},
		{"no cluster file", map[string]string{"lsb.queues": queues, "lsf.shared": shared},
			[]string{"lsf.cluster.<cluster> is not among the files read", "host names (in HOSTS"}},
		{"no shared file", map[string]string{"lsb.queues": queues, "lsf.cluster.test": cluster},
			[]string{"lsf.shared is not among the files read", "site resource names"}},
		{"both", map[string]string{"lsb.queues": queues, "lsf.shared": shared, "lsf.cluster.test": cluster}, nil},
		{"no batch file", map[string]string{"lsf.shared": shared}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags, err := compile.Load([]string{writeFiles(t, c.files)}, compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []*lang.Diagnostic
			for _, d := range diags {
				if d.Code == compile.CodeUncheckedRefs {
					got = append(got, d)
				}
			}
			if c.want == nil {
				if len(got) != 0 {
					t.Errorf("got %v, want no %s", got, compile.CodeUncheckedRefs)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != lang.Info || !strings.HasPrefix(filepath.Base(got[0].Span.Path()), "lsb.") {
				t.Fatalf("got %v, want one info on an lsb.* file", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got[0].Message, w) {
					t.Errorf("message %q lacks %q", got[0].Message, w)
				}
			}
			if strings.Contains(c.name, "no shared") && strings.Contains(got[0].Message, "host names") {
				t.Errorf("message %q names host checks, which lsf.cluster allowed", got[0].Message)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	if _, _, err := compile.Load(nil, compile.LoadOptions{}); err == nil {
		t.Error("no path and no LSF_ENVDIR: want an error")
	}
	if _, _, err := compile.Load([]string{"/no/such/path"}, compile.LoadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing path: err = %v", err)
	}
	dir := writeFiles(t, map[string]string{"README": "x"})
	if _, _, err := compile.Load([]string{dir}, compile.LoadOptions{}); !errors.Is(err, compile.ErrNoConfig) {
		t.Errorf("empty dir: err = %v", err)
	}
	// The default path is EnvDir.
	tree, _, err := compile.Load(nil, compile.LoadOptions{EnvDir: filepath.Join("..", "testdata", "clusters", "demo")})
	if err != nil || tree.Cluster != "demo" {
		t.Errorf("EnvDir: %v, cluster %q", err, tree.Cluster)
	}
}

// BenchmarkLoadSynthetic finds, reads and parses a generated LSF_ENVDIR
// tree of 2,000 queues and 20,000 hosts from disk, files in parallel.
func BenchmarkLoadSynthetic(b *testing.B) {
	dir := b.TempDir()
	if err := testkit.WriteTree(dir, testkit.Synthetic(2000, 20000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tree, diags, err := compile.Load([]string{dir}, compile.LoadOptions{})
		if err != nil || len(tree.Files) != 9 {
			b.Fatalf("Load: %v, %d files", err, len(tree.Files))
		}
		for _, d := range diags {
			if d.Code != compile.CodeBatchDirFallback {
				b.Fatal(d)
			}
		}
	}
}

// TestLoadOverlay: a file of the overlay is read from it instead of the
// disk, in a directory and as a file given alone; the others from disk.
func TestLoadOverlay(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"lsb.queues": "Begin Queue\nQUEUE_NAME = disk\nEnd Queue\n",
		"lsb.params": "Begin Parameters\nDEFAULT_QUEUE = disk\nEnd Parameters\n",
	})
	queues := filepath.Join(dir, "lsb.queues")
	edited := "Begin Queue\nQUEUE_NAME = edited\nEnd Queue\n"
	opts := compile.LoadOptions{Overlay: map[string]string{queues: edited}}
	for _, paths := range [][]string{{dir}, {queues}} {
		tree, _, err := compile.Load(paths, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range tree.Files {
			want := "disk"
			if f.Src.Name == queues {
				want = "edited"
			}
			if !strings.Contains(f.Src.Text, want) {
				t.Errorf("Load(%v): %s holds %q, want the text with %q", paths, f.Src.Name, f.Src.Text, want)
			}
		}
	}
}
