package lsp

import (
	"sync"

	"github.com/lsfc/lsfc/lang"
)

// A parseCache keeps the last parse of each file by path, so that a
// check of a tree after an edit parses only the files whose text
// changed. It is safe for concurrent use.
type parseCache struct {
	limits lang.Limits
	mu     sync.Mutex
	files  map[string]parsed
}

type parsed struct {
	text  string
	kind  lang.FileKind
	file  *lang.File
	diags lang.Diagnostics
}

// parse returns the syntax tree and diagnostics of text as the file at
// path. The diagnostics are copies: lint changes their severity in place
// as .lsfc.yaml says.
func (c *parseCache) parse(path, text string, kind lang.FileKind) (*lang.File, lang.Diagnostics) {
	c.mu.Lock()
	p, ok := c.files[path]
	c.mu.Unlock()
	if !ok || p.text != text || p.kind != kind {
		f, diags := lang.ConfigParser{Limits: c.limits}.Parse(lang.NewSource(path, text), kind)
		p = parsed{text: text, kind: kind, file: f, diags: diags}
		c.mu.Lock()
		if c.files == nil {
			c.files = map[string]parsed{}
		}
		c.files[path] = p
		c.mu.Unlock()
	}
	out := make(lang.Diagnostics, len(p.diags))
	for i, d := range p.diags {
		cp := *d
		out[i] = &cp
	}
	return p.file, out
}

// forget drops the files of a tree no longer checked.
func (c *parseCache) forget(files map[string]*lang.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for path := range files {
		delete(c.files, path)
	}
}
