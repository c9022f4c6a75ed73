package lsp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// A client drives a Server through a real JSON-RPC connection.
type client struct {
	t    testing.TB
	conn jsonrpc2.Conn
	done chan error

	mu    sync.Mutex
	diags map[protocol.DocumentURI][]protocol.Diagnostic
	got   chan struct{}
}

func startClient(t testing.TB, opts Options) *client {
	t.Helper()
	a, b := net.Pipe()
	c := &client{t: t, done: make(chan error, 1), diags: map[protocol.DocumentURI][]protocol.Diagnostic{}, got: make(chan struct{}, 1)}
	go func() { c.done <- Serve(context.Background(), a, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "textDocument/publishDiagnostics" {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.mu.Lock()
			c.diags[p.URI] = p.Diagnostics
			c.mu.Unlock()
			select {
			case c.got <- struct{}{}:
			default:
			}
			return nil
		}
		return reply(ctx, nil, jsonrpc2.ErrMethodNotFound)
	})
	t.Cleanup(func() { c.conn.Close(); b.Close() })
	var res protocol.InitializeResult
	c.call("initialize", protocol.InitializeParams{}, &res)
	if res.Capabilities.HoverProvider != true || res.ServerInfo == nil || res.ServerInfo.Name != "lsfc" {
		t.Fatalf("initialize: unexpected result %+v", res)
	}
	c.notify("initialized", struct{}{})
	return c
}

func (c *client) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitDiags waits until the diagnostics published for u satisfy ok.
func (c *client) waitDiags(u protocol.DocumentURI, what string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		ds, have := c.diags[u]
		c.mu.Unlock()
		if have && ok(ds) {
			return ds
		}
		select {
		case <-c.got:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s %s; last: %+v", u, what, ds)
		}
	}
}

func (c *client) open(path, text string) protocol.DocumentURI {
	u := uriOf(path)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "lsf", Version: 1, Text: text,
	}})
	return u
}

func (c *client) shutdown() {
	c.t.Helper()
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve after exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Errorf("Serve did not return after exit")
	}
}

func hasCode(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

// demoTree copies the demo cluster into a temporary LSF_ENVDIR and
// returns it and the path of its configdir.
func demoTree(t *testing.T) (string, string) {
	t.Helper()
	src := filepath.Join("..", "testdata", "clusters", "demo")
	dst := t.TempDir()
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
	return dst, filepath.Join(dst, "lsbatch", "demo", "configdir")
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pos returns the position of the n-th (0-based) occurrence of sub in
// text, plus delta bytes.
func pos(t testing.TB, text, sub string, n, delta int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], sub)
		if j < 0 {
			t.Fatalf("%q not found %d times", sub, n+1)
		}
		off += 1 + j
	}
	return position(text, lineStarts(text), off+delta)
}

func TestDiagnosticsAndEdits(t *testing.T) {
	_, conf := demoTree(t)
	c := startClient(t, Options{})
	qpath := filepath.Join(conf, "lsb.queues")
	orig := readFile(t, qpath)
	broken := strings.Replace(orig, "QUEUE_NAME  = gpu\n", "QUEUE_NAME  = gpu\nPRIORTY = 40\n", 1)
	u := c.open(qpath, broken)
	ds := c.waitDiags(u, "with LSF201", func(ds []protocol.Diagnostic) bool { return hasCode(ds, "LSF201") != nil })
	d := hasCode(ds, "LSF201")
	if d.CodeDescription == nil || !strings.HasSuffix(string(d.CodeDescription.Href), "CODES.md#lsf201") {
		t.Errorf("LSF201 codeDescription = %+v, want a link to CODES.md#lsf201", d.CodeDescription)
	}
	if want := pos(t, broken, "PRIORTY", 0, 0); d.Range.Start != want || !strings.Contains(d.Message, "PRIORITY") {
		t.Errorf("LSF201 at %+v %q, want at %+v naming PRIORITY", d.Range.Start, d.Message, want)
	}

	// Code action: the safe fix, preferred, that writes PRIORITY.
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*d}},
	}, &actions)
	var fix *protocol.CodeAction
	for i := range actions {
		if actions[i].Kind == protocol.QuickFix && actions[i].IsPreferred {
			fix = &actions[i]
		}
	}
	if fix == nil || fix.Edit == nil || len(fix.Edit.Changes[u]) != 1 || fix.Edit.Changes[u][0].NewText != "PRIORITY" {
		t.Fatalf("code actions = %+v, want a preferred quick fix writing PRIORITY", actions)
	}

	// An incremental edit fixing the typo clears the finding.
	e := fix.Edit.Changes[u][0]
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		"contentChanges": []map[string]any{{"range": e.Range, "text": e.NewText}},
	})
	c.waitDiags(u, "without LSF201", func(ds []protocol.Diagnostic) bool { return hasCode(ds, "LSF201") == nil })

	// A duplicate queue name is reported with its first definition.
	dup := strings.Replace(broken, "PRIORTY", "PRIORITY", 1) + "\nBegin Queue\nQUEUE_NAME = gpu\nEnd Queue\n"
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 3},
		"contentChanges": []map[string]any{{"text": dup}},
	})
	ds = c.waitDiags(u, "with a related note", func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if len(d.RelatedInformation) > 0 {
				return true
			}
		}
		return false
	})
	for _, d := range ds {
		if len(d.RelatedInformation) > 0 && d.RelatedInformation[0].Location.URI != u {
			t.Errorf("related information %+v points outside lsb.queues", d.RelatedInformation)
		}
	}

	// An unsaved edit of lsb.hosts re-checks lsb.queues' references.
	hpath := filepath.Join(conf, "lsb.hosts")
	htext := readFile(t, hpath)
	hu := c.open(hpath, strings.Replace(htext, "gpu_hosts     (gpu01 gpu02)", "gpu_nodes     (gpu01 gpu02)", 1))
	c.waitDiags(u, "naming gpu_hosts", func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if strings.Contains(d.Message, "gpu_hosts") && d.Severity == protocol.DiagnosticSeverityError {
				return true
			}
		}
		return false
	})
	// Closing lsb.hosts makes the disk's text count again.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: hu}})
	c.waitDiags(u, "no longer naming gpu_hosts", func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if strings.Contains(d.Message, "gpu_hosts") {
				return false
			}
		}
		return true
	})
	// Closing the tree's last document clears its findings.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	c.waitDiags(u, "cleared", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	c.shutdown()
}

// TestSettings: the .lsfc.yaml above the tree and suppression comments
// apply as they do for lsfc lint.
func TestSettings(t *testing.T) {
	root, conf := demoTree(t)
	if err := os.WriteFile(filepath.Join(root, ".lsfc.yaml"), []byte("rules:\n  LSF201: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, Options{})
	qpath := filepath.Join(conf, "lsb.queues")
	text := strings.Replace(readFile(t, qpath), "QUEUE_NAME  = gpu\n", "QUEUE_NAME  = gpu\nPRIORTY = 40\n# lsfc:ignore LSF201 kept for the old scheduler\nMEMLIMT = 4\n", 1)
	u := c.open(qpath, text)
	ds := c.waitDiags(u, "with LSF201", func(ds []protocol.Diagnostic) bool { return hasCode(ds, "LSF201") != nil })
	n := 0
	for _, d := range ds {
		if d.Code == "LSF201" {
			n++
			if d.Severity != protocol.DiagnosticSeverityInformation || !strings.Contains(d.Message, "PRIORTY") {
				t.Errorf("LSF201 %q at severity %v, want PRIORTY's at info (.lsfc.yaml)", d.Message, d.Severity)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d LSF201 findings, want 1: MEMLIMT's is suppressed", n)
	}
	c.shutdown()
}
