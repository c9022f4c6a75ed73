package lint

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// projectURL is the home of lsfc, named as the tool's address in SARIF and
// rdjsonl output.
const projectURL = "https://github.com/lsfc/lsfc"

// Formats lists the output formats Write accepts.
func Formats() []string { return []string{"text", "json", "sarif", "github", "rdjsonl"} }

// WriteOptions configure Write.
type WriteOptions struct {
	// Base is the directory that paths in SARIF, GitHub and rdjsonl output
	// are made relative to; "" means the working directory.
	Base string
	// Version is lsfc's version, written where a format records the tool's.
	Version string
}

// Write renders ds in the named format:
//
//   - "text": path:line:col: severity: message [CODE], the source line and
//     a caret underline;
//   - "json": an array of objects with path, line, col, endLine, endCol,
//     severity, code, message, related and fix;
//   - "sarif": a SARIF 2.1.0 log for code scanning services;
//   - "github": GitHub Actions workflow commands, one annotation per
//     finding and a summary line;
//   - "rdjsonl": reviewdog's JSON Lines, one diagnostic per line.
//
// The last three name files relative to opts.Base, with forward slashes, so
// that the services match them to the files of the repository.
func Write(w io.Writer, format string, ds lang.Diagnostics, opts WriteOptions) error {
	switch format {
	case "text", "":
		return ds.WriteText(w)
	case "json":
		return ds.WriteJSON(w)
	case "sarif":
		return writeSARIF(w, ds, opts)
	case "github":
		return writeGitHub(w, ds, opts)
	case "rdjsonl":
		return writeRDJSONL(w, ds, opts)
	}
	return fmt.Errorf("unknown format %q (want one of %v)", format, Formats())
}

// ValidFormat reports whether Write accepts format.
func ValidFormat(format string) bool { return slices.Contains(Formats(), format) }

// pathMapper turns the paths of spans, as given on the command line, into
// paths relative to a base directory.
type pathMapper struct {
	base string // absolute
}

func newPathMapper(base string) (pathMapper, error) {
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return pathMapper{}, fmt.Errorf("cannot resolve relative paths: %w", err)
		}
		base = wd
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return pathMapper{}, fmt.Errorf("cannot resolve base directory %q: %w", base, err)
	}
	return pathMapper{base: abs}, nil
}

// rel returns p relative to the base with forward slashes, and true; or,
// when p lies outside the base, p made absolute (still with forward
// slashes) and false, since a path climbing out of the base would name
// nothing in the repository a service looks at.
func (m pathMapper) rel(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p), false
	}
	r, err := filepath.Rel(m.base, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs), false
	}
	return filepath.ToSlash(r), true
}

// flaggedLine returns the text of the line sp starts on in the file the
// user wrote, without surrounding blanks.
func flaggedLine(sp lang.Span) string {
	r := sp.Root()
	if r.Src == nil {
		return ""
	}
	return strings.TrimSpace(r.Src.Line(r.Src.Pos(r.Start).Line))
}

// byteCol returns the 1-based column of the byte offset off of src,
// counted in bytes, as reviewdog counts columns.
func byteCol(src *lang.Source, off int) int {
	off = max(0, min(off, len(src.Text)))
	return off - (strings.LastIndexByte(src.Text[:off], '\n') + 1) + 1
}

// countSummary returns "N errors, M warnings, K infos".
func countSummary(ds lang.Diagnostics) string {
	return fmt.Sprintf("%s, %s, %s",
		plural(ds.Count(lang.Error), "error"), plural(ds.Count(lang.Warning), "warning"),
		plural(ds.Count(lang.Info), "info"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
