package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/lsfc/lsfc/compile"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Options configure a Server. The zero value is ready to use.
type Options struct {
	// Load configures how trees are found and parsed; its EnvDir is
	// the LSF_ENVDIR tried when no directory above a file holds lsf.conf.
	// Its Overlay is set by the server.
	Load compile.LoadOptions
	// Compile configures the compilation (the dialect).
	Compile compile.Options
	// MaxDocumentSize is the largest document analysed, in bytes
	// (default 8 MiB); a larger one gets one diagnostic saying so.
	MaxDocumentSize int
	// Version is the version reported to the editor.
	Version string
	// Hosts, when not empty, are the hosts of an inventory: the hover of
	// a resource requirement tells how many of them it matches.
	Hosts []*compile.Host
}

// DefaultMaxDocumentSize is the default of Options.MaxDocumentSize.
const DefaultMaxDocumentSize = 8 << 20

// MemoryLimit is the soft memory limit lsfc lsp gives the Go runtime
// unless GOMEMLIMIT sets one: a check of a large tree builds its new
// snapshot beside the old, and the limit makes the collector reclaim
// the old one's garbage before the process grows past it.
const MemoryLimit = 450 << 20

// A Server answers one editor over one connection.
type Server struct {
	opts Options
	conn jsonrpc2.Conn

	// pubMu orders the publications of diagnostics; it is taken before
	// mu, never after.
	pubMu    sync.Mutex
	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*document
	trees    []*treeState
	shutdown bool
	exited   chan struct{}
	wake     chan struct{}
	// table maps each method to its handler.
	table map[string]method
	// parses keeps the files parsed by the last checks.
	parses *parseCache
}

// A treeState is one tree some open document belongs to: its latest
// snapshot and whether the documents changed since.
type treeState struct {
	// pending is the path of the document the tree was looked for.
	pending string
	paths   []string
	snap    *snapshot
	// gen counts the edits to the tree's documents; built is the gen the
	// snapshot was made at.
	gen, built int
	// published are the URIs given diagnostics at the last publication.
	published map[protocol.DocumentURI]bool
	// took is how long the last full check of the tree took.
	took time.Duration
}

// Serve answers the editor on rwc until the editor sends exit, the
// stream ends or ctx is done. It returns nil after exit following
// shutdown, and the stream's error otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	if opts.MaxDocumentSize <= 0 {
		opts.MaxDocumentSize = DefaultMaxDocumentSize
	}
	if opts.Load.Limits.MaxFileSize <= 0 || opts.Load.Limits.MaxFileSize > opts.MaxDocumentSize {
		opts.Load.Limits.MaxFileSize = opts.MaxDocumentSize
	}
	s := &Server{
		opts:   opts,
		conn:   jsonrpc2.NewConn(jsonrpc2.NewStream(rwc)),
		docs:   map[protocol.DocumentURI]*document{},
		exited: make(chan struct{}),
		wake:   make(chan struct{}, 1),
	}
	s.table = s.methods()
	s.parses = &parseCache{limits: opts.Load.Limits}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.checker(ctx)
	s.conn.Go(ctx, s.handle)
	select {
	case <-s.exited:
		// The read loop ends when the editor closes its end.
		s.conn.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.shutdown {
			return errors.New("exit before shutdown")
		}
		return nil
	case <-s.conn.Done():
		err := s.conn.Err()
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	case <-ctx.Done():
		s.conn.Close()
		return ctx.Err()
	}
}

// handle answers one request or notification. It never returns an error,
// which would end the connection: failures are error responses.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	_, isCall := req.(*jsonrpc2.Call)
	defer func() {
		if r := recover(); r != nil {
			// A bug must not take the editor's session down.
			if isCall {
				err = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
			} else {
				err = nil
			}
		}
	}()
	s.mu.Lock()
	down := s.shutdown
	s.mu.Unlock()
	if down && req.Method() != "exit" {
		if isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "server is shut down"))
		}
		return nil
	}
	h, ok := s.table[req.Method()]
	if !ok {
		if isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %q is not supported", req.Method()))
		}
		return nil
	}
	result, herr := h(ctx, req.Params())
	if !isCall {
		return nil
	}
	if herr != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(herr, &rpcErr) {
			herr = jsonrpc2.NewError(jsonrpc2.InvalidParams, herr.Error())
		}
		return reply(ctx, nil, herr)
	}
	return reply(ctx, result, nil)
}

type method func(ctx context.Context, params json.RawMessage) (any, error)

// decode reads params into a value of type P.
func decode[P any](params json.RawMessage) (P, error) {
	var p P
	if len(params) == 0 {
		return p, errors.New("missing params")
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return p, fmt.Errorf("invalid params: %v", err)
	}
	return p, nil
}

// on adapts a typed handler to a method.
func on[P any](fn func(ctx context.Context, p P) (any, error)) method {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		p, err := decode[P](raw)
		if err != nil {
			return nil, err
		}
		return fn(ctx, p)
	}
}

func (s *Server) methods() map[string]method {
	return map[string]method{
		"initialize":  on(s.initialize),
		"initialized": func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		"shutdown": func(context.Context, json.RawMessage) (any, error) {
			s.mu.Lock()
			s.shutdown = true
			s.mu.Unlock()
			return nil, nil
		},
		"exit": func(context.Context, json.RawMessage) (any, error) {
			close(s.exited)
			return nil, nil
		},
		"textDocument/didOpen":                on(s.didOpen),
		"textDocument/didChange":              on(s.didChange),
		"textDocument/didClose":               on(s.didClose),
		"textDocument/didSave":                on(s.didSave),
		"workspace/didChangeWatchedFiles":     on(s.didChangeWatchedFiles),
		"textDocument/hover":                  on(s.hover),
		"textDocument/completion":             on(s.completion),
		"textDocument/definition":             on(s.definition),
		"textDocument/references":             on(s.references),
		"textDocument/rename":                 on(s.rename),
		"textDocument/prepareRename":          on(s.prepareRename),
		"textDocument/documentSymbol":         on(s.documentSymbol),
		"textDocument/foldingRange":           on(s.foldingRange),
		"textDocument/codeAction":             on(s.codeAction),
		"textDocument/formatting":             on(s.formatting),
		"textDocument/rangeFormatting":        on(s.rangeFormatting),
		"textDocument/semanticTokens/full":    on(s.semanticTokens),
		"workspace/didChangeConfiguration":    func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		"workspace/didChangeWorkspaceFolders": func(context.Context, json.RawMessage) (any, error) { return nil, nil },
	}
}

func (s *Server) initialize(_ context.Context, _ protocol.InitializeParams) (any, error) {
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider: true,
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{"=", " ", "[", "(", "~"},
			},
			DefinitionProvider:              true,
			ReferencesProvider:              true,
			RenameProvider:                  map[string]bool{"prepareProvider": true},
			DocumentSymbolProvider:          true,
			FoldingRangeProvider:            true,
			CodeActionProvider:              map[string][]protocol.CodeActionKind{"codeActionKinds": {protocol.QuickFix, sourceFixAll}},
			DocumentFormattingProvider:      true,
			DocumentRangeFormattingProvider: true,
			SemanticTokensProvider: map[string]any{
				"legend": protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: []protocol.SemanticTokenModifiers{}},
				"full":   true,
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "lsfc", Version: s.opts.Version},
	}, nil
}

// pathOf returns the clean absolute path of a file URI, or "" for
// another scheme.
func pathOf(u protocol.DocumentURI) string {
	if len(u) < 7 || string(u[:7]) != "file://" {
		return ""
	}
	p := uri.URI(u).Filename()
	if !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// uriOf returns the file URI of a path.
func uriOf(path string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(path)) }

func (s *Server) didOpen(_ context.Context, p protocol.DidOpenTextDocumentParams) (any, error) {
	d := newDocument(p.TextDocument.URI, pathOf(p.TextDocument.URI), p.TextDocument.Version, p.TextDocument.Text)
	if d.path == "" {
		// An unsaved buffer: analysed alone, under a name of its own.
		d.path = "/" + string(p.TextDocument.URI)
	}
	s.mu.Lock()
	s.docs[d.uri] = d
	s.mu.Unlock()
	s.edited(d)
	return nil, nil
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []change                                 `json:"contentChanges"`
}

func (s *Server) didChange(_ context.Context, p didChangeParams) (any, error) {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", p.TextDocument.URI, errClosed)
	}
	err := d.apply(p.ContentChanges, 1<<30)
	d.version = p.TextDocument.Version
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	s.edited(d)
	return nil, nil
}

func (s *Server) didClose(_ context.Context, p protocol.DidCloseTextDocumentParams) (any, error) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	if d == nil {
		s.mu.Unlock()
		return nil, nil
	}
	t := s.treeOfLocked(d.path)
	if t == nil || s.treeOpenLocked(t) {
		// The disk's text counts again for the tree's other documents.
		if t != nil {
			t.gen++
		}
		s.mu.Unlock()
		s.poke()
		return nil, nil
	}
	// The tree's last document: forget the tree and clear its findings.
	s.trees = slices.DeleteFunc(s.trees, func(o *treeState) bool { return o == t })
	if t.snap != nil {
		s.parses.forget(t.snap.files)
	}
	var clear []protocol.DocumentURI
	for u := range t.published {
		clear = append(clear, u)
	}
	s.mu.Unlock()
	slices.Sort(clear)
	for _, u := range clear {
		_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics",
			protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil, nil
}

// treeOpenLocked reports whether a document of t is open. The caller
// holds s.mu.
func (s *Server) treeOpenLocked(t *treeState) bool {
	for _, d := range s.docs {
		if s.treeOfLocked(d.path) == t {
			return true
		}
	}
	return false
}

// didSave changes nothing: the document's text already counted, and the
// disk now holds the same.
func (s *Server) didSave(context.Context, protocol.DidSaveTextDocumentParams) (any, error) {
	return nil, nil
}

func (s *Server) didChangeWatchedFiles(_ context.Context, p protocol.DidChangeWatchedFilesParams) (any, error) {
	for _, c := range p.Changes {
		if path := pathOf(c.URI); path != "" {
			s.dirty(path)
		}
	}
	return nil, nil
}

// doc returns the open document of uri.
func (s *Server) doc(u protocol.DocumentURI) (*document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		return nil, fmt.Errorf("%s: %w", u, errClosed)
	}
	return d, nil
}

// overlay returns the text of every open document by path. The caller
// holds s.mu.
func (s *Server) overlayLocked() map[string]string {
	m := make(map[string]string, len(s.docs))
	for _, d := range s.docs {
		m[d.path] = d.text
	}
	return m
}

// treeOfLocked returns the tree state holding path, or nil.
func (s *Server) treeOfLocked(path string) *treeState {
	for _, t := range s.trees {
		if t.snap != nil && t.snap.contains(path) || t.pending == path || slices.Contains(t.paths, path) {
			return t
		}
	}
	return nil
}

// dirty marks the tree holding path as changed and wakes the checker.
func (s *Server) dirty(path string) {
	s.mu.Lock()
	if t := s.treeOfLocked(path); t != nil {
		t.gen++
	}
	s.mu.Unlock()
	s.poke()
}

func (s *Server) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
