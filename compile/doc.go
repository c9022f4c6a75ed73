// Package compile turns a tree of LSF configuration files into a checked,
// immutable Policy, reporting every mistake as a lang.Diagnostic.
//
// Load finds the files of a tree (an LSF_ENVDIR, a directory of lsb.*
// files, or a list of files) and parses them with package lang.
package compile
