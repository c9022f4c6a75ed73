// Package lint checks the configuration of an LSF cluster for CI: it takes
// paths (an LSF_ENVDIR, a directory of lsb.* files, or files), loads and
// compiles them (syntax, keys and values, names across files, resource
// requirements), runs the analyzers (LSF5xx), applies the suppressions
// written in the files and the rule settings of .lsfc.yaml, and returns
// every finding as a lang.Diagnostic, ready to render in the formats CI
// systems read.
package lint
