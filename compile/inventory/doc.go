// Package inventory reads a host inventory (a YAML or JSON hosts list, or
// the output of lshosts -w and lsload -w) into the hosts that a resource
// requirement is matched against, as compile.Host values, reporting every
// problem as a lang.Diagnostic with its position.
//
// Read takes the YAML or JSON form and ReadLSHosts the command output;
// both give an Inventory (never nil) and the diagnostics side by side.
// Codes documents the diagnostic codes they report.
package inventory
