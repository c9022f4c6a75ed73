package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/lang"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// srcRoot is the uriBaseId of every relative artifact location: code
// scanning services resolve it to the root of the checked-out repository.
// lsfc does not record what it stands for on the machine that ran it, so
// that the log does not depend on where the files were checked out.
const srcRoot = "%SRCROOT%"

// FingerprintKey is the key of lsfc's entry in a SARIF result's
// partialFingerprints. Its value hashes the code, the file's relative
// path, the flagged line's text and the message, not the line number, so
// that a finding keeps its fingerprint when lines are added or removed
// above it; the version suffix changes whenever the recipe does.
const FingerprintKey = "lsfcFingerprint/v1"

// writeSARIF writes ds as a SARIF 2.1.0 log.
func writeSARIF(w io.Writer, ds lang.Diagnostics, opts WriteOptions) error {
	report, err := sarifReport(ds, opts)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Messages quote configuration text such as "mem < 100"; leave it
	// readable instead of escaping < > & for HTML.
	enc.SetEscapeHTML(false)
	return enc.Encode(report)
}

// sarifReport builds the SARIF log of ds: one run of the tool "lsfc" with
// a rule for each code the results use, in code order, and a result for
// each diagnostic, in the order of ds.
func sarifReport(ds lang.Diagnostics, opts WriteOptions) (*sarif.Report, error) {
	paths, err := newPathMapper(opts.Base)
	if err != nil {
		return nil, err
	}
	run := sarif.NewRunWithInformationURI("lsfc", projectURL)
	if opts.Version != "" {
		run.Tool.Driver.Version = new(opts.Version)
	}
	// lang.Pos columns count code points; without columnKind a consumer
	// may assume UTF-16 code units.
	run.ColumnKind = new("unicodeCodePoints")

	ruleIndex := map[lang.Code]int{}
	for _, c := range usedCodes(ds) {
		ruleIndex[c.Code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule(c))
	}

	fp := fingerprinter{seen: map[string]int{}}
	for _, d := range ds {
		var res *sarif.Result
		if d.Code != "" {
			res = sarif.NewRuleResult(string(d.Code)).WithRuleIndex(ruleIndex[d.Code])
		} else {
			res = sarif.NewResult()
		}
		res.Level = sarifLevel(d.Severity)
		res.Message = sarif.NewTextMessage(d.Message)
		if d.Span.IsValid() {
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(sarifPhysical(paths, d.Span)))
		}
		for i, r := range d.Related {
			loc := sarif.NewLocation()
			loc.ID = i + 1
			loc.Message = sarif.NewTextMessage(r.Message)
			if r.Span.IsValid() {
				loc.PhysicalLocation = sarifPhysical(paths, r.Span)
			}
			res.AddRelatedLocation(loc)
		}
		if f := sarifFix(paths, d.Fix); f != nil {
			res.AddFixe(f)
		}
		path, _ := paths.rel(d.Span.Path())
		res.WithPartialFingerprints(map[string]string{FingerprintKey: fp.of(d, path)})
		run.AddResult(res)
	}
	report := sarif.NewReport()
	report.AddRun(run)
	return report, nil
}

// usedCodes returns the documentation of the codes ds uses, in code order.
// A code that Codes does not document gets an entry with only its code
// and the severity of its first diagnostic.
func usedCodes(ds lang.Diagnostics) []lang.CodeInfo {
	docs := map[lang.Code]lang.CodeInfo{}
	for _, c := range Codes() {
		docs[c.Code] = c
	}
	used := map[lang.Code]lang.CodeInfo{}
	for _, d := range ds {
		if d.Code == "" {
			continue
		}
		if _, ok := used[d.Code]; ok {
			continue
		}
		c, ok := docs[d.Code]
		if !ok {
			c = lang.CodeInfo{Code: d.Code, Severity: d.Severity}
		}
		used[d.Code] = c
	}
	out := make([]lang.CodeInfo, 0, len(used))
	for _, c := range used {
		out = append(out, c)
	}
	sortCodes(out)
	return out
}

// sarifRule describes a code as a SARIF reportingDescriptor.
func sarifRule(c lang.CodeInfo) *sarif.ReportingDescriptor {
	rule := sarif.NewRule(string(c.Code))
	cfg := sarif.NewReportingConfiguration()
	cfg.Level = sarifLevel(c.Severity)
	rule.DefaultConfiguration = cfg
	if c.Name == "" {
		return rule
	}
	rule.Name = new(c.Name)
	rule.ShortDescription = sarif.NewMultiformatMessageString().WithText(c.Summary)
	rule.FullDescription = sarif.NewMultiformatMessageString().WithText(c.Doc)
	rule.Help = sarif.NewMultiformatMessageString().WithText(c.Doc).WithMarkdown(docMarkdown(c.Doc))
	rule.HelpURI = new(HelpURI(c.Code))
	return rule
}

func sarifLevel(s lang.Severity) string {
	switch s {
	case lang.Error:
		return sarif.LevelError
	case lang.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// sarifPhysical returns the file and region of a valid span.
func sarifPhysical(paths pathMapper, sp lang.Span) *sarif.PhysicalLocation {
	loc := sarif.NewPhysicalLocation()
	loc.ArtifactLocation = sarifArtifact(paths, sp.Path())
	loc.Region = sarifRegion(sp)
	return loc
}

// sarifArtifact returns the location of the file p: a URI relative to
// %SRCROOT% when p lies under the base directory, and a file: URI
// otherwise.
func sarifArtifact(paths pathMapper, p string) *sarif.ArtifactLocation {
	rel, inside := paths.rel(p)
	if inside {
		// url.URL escapes what a URI reference cannot hold, and keeps a
		// first segment with a colon from reading as a scheme.
		loc := sarif.NewSimpleArtifactLocation((&url.URL{Path: rel}).String())
		loc.URIBaseID = new(srcRoot)
		return loc
	}
	if !strings.HasPrefix(rel, "/") {
		// A Windows path, C:/dir/file, is /C:/dir/file in a file: URI.
		rel = "/" + rel
	}
	return sarif.NewSimpleArtifactLocation((&url.URL{Scheme: "file", Path: rel}).String())
}

// sarifRegion returns the region of a valid span: lines and code point
// columns (the end column exclusive, as in SARIF), and the same range as
// bytes.
func sarifRegion(sp lang.Span) *sarif.Region {
	r := sp.Root()
	start, end := r.Src.Pos(r.Start), r.Src.Pos(r.End)
	return sarif.NewRegion().
		WithStartLine(start.Line).WithStartColumn(start.Col).
		WithEndLine(end.Line).WithEndColumn(end.Col).
		WithByteOffset(start.Offset).WithByteLength(end.Offset - start.Offset)
}

// sarifFix returns f as a SARIF fix, its edits grouped by file in the
// order the files first appear, or nil when f has no edit with a
// position.
func sarifFix(paths pathMapper, f *lang.Fix) *sarif.Fix {
	if f == nil {
		return nil
	}
	fix := sarif.NewFix()
	fix.Description = sarif.NewTextMessage(f.Message)
	var files []string
	changes := map[string]*sarif.ArtifactChange{}
	for _, e := range f.Edits {
		if !e.Span.IsValid() {
			continue
		}
		p := e.Span.Path()
		ch, ok := changes[p]
		if !ok {
			ch = sarif.NewArtifactChange()
			ch.ArtifactLocation = sarifArtifact(paths, p)
			changes[p] = ch
			files = append(files, p)
		}
		rep := sarif.NewReplacement()
		rep.DeletedRegion = sarifRegion(e.Span)
		rep.InsertedContent = sarif.NewArtifactContent()
		rep.InsertedContent.Text = new(e.NewText)
		ch.Replacements = append(ch.Replacements, rep)
	}
	if len(files) == 0 {
		return nil
	}
	for _, p := range files {
		fix.ArtifactChanges = append(fix.ArtifactChanges, changes[p])
	}
	return fix
}

// A fingerprinter computes the partial fingerprints of the results of one
// log. Two findings that hash alike (the same mistake on two identical
// lines of a file) are told apart by an ordinal, as GitHub does for its
// own line hashes: the first keeps ":1", the next gets ":2".
type fingerprinter struct {
	seen map[string]int
}

func (f *fingerprinter) of(d *lang.Diagnostic, path string) string {
	h := sha256.New()
	for _, part := range []string{string(d.Code), path, flaggedLine(d.Span), d.Message} {
		// Length prefixes keep the parts from running into each other.
		io.WriteString(h, strconv.Itoa(len(part))+":"+part)
	}
	sum := hex.EncodeToString(h.Sum(nil)[:16])
	f.seen[sum]++
	return sum + ":" + strconv.Itoa(f.seen[sum])
}
