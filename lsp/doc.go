// Package lsp is lsfc's language server: it reads Language Server
// Protocol 3.17 messages (JSON-RPC 2.0 over a byte stream) from an editor
// and answers them for LSF configuration files, using the same loading,
// compiling and linting as lsfc lint.
//
// A file opened in the editor belongs to a tree, found as lsfc lint finds
// one: the nearest LSF_ENVDIR above the file whose configuration includes
// it, else the directory of lsb.* files holding it, else the file alone.
// The text of every open document is read instead of the disk's. The
// server publishes the diagnostics of the whole tree, offers the fixes
// of findings as code actions, formats with lsfc fmt's layout, and
// answers hover, completion, definition, references, rename, document
// symbols and folding ranges.
//
// Positions are UTF-16 code units, as the protocol's default encoding
// says; an invalid UTF-8 byte counts as one unit.
package lsp
