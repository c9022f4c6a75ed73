// Package lang reads the text of LSF configuration files and resource
// requirement strings: it takes bytes and returns syntax trees whose every
// node carries its span, together with Diagnostics for what could not be
// read.
//
// The package knows LSF's lexical rules (comments, quoting, line
// continuation, sections, tables, preprocessor lines) but nothing of what a
// key or a column means; that belongs to package compile.
//
// Every user mistake is reported as a Diagnostic with a stable code and a
// precise Span. Diagnostics render as text (path:line:col, the source line
// and a caret underline) or as JSON; see Diagnostics.WriteText and
// Diagnostics.WriteJSON.
package lang
