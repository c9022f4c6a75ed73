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

// sarifSchema and sarifVersion name the SARIF version of the log.
const (
	sarifSchema  = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/main/sarif-2.1/schema/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
)

// The types below are the part of the SARIF 2.1.0 object model that lsfc
// writes, with their properties in the order lsfc has always written
// them. Beside the properties lsfc fills in, the log spells out some that
// it leaves at their default (empty arrays, a rank, index or offset of
// -1, the language "en-US", the newline sequences): each value is the
// one the specification gives as the default, so a consumer reads the
// same log either way, and logs stay comparable byte for byte across
// releases.

// none is an array property left empty; it is written as [].
type none [0]struct{}

// sarifLog is the top-level object of a SARIF log file (sarifLog in the
// specification).
type sarifLog struct {
	Schema     string     `json:"$schema"`
	Version    string     `json:"version"`
	Runs       []sarifRun `json:"runs"`
	Properties struct{}   `json:"properties"`
}

// sarifRun is one run of one tool.
type sarifRun struct {
	Addresses                none          `json:"addresses"`
	ColumnKind               string        `json:"columnKind"`
	Graphs                   none          `json:"graphs"`
	Invocations              none          `json:"invocations"`
	Language                 string        `json:"language"`
	LogicalLocations         none          `json:"logicalLocations"`
	NewlineSequences         []string      `json:"newlineSequences"`
	Policies                 none          `json:"policies"`
	RedactionTokens          none          `json:"redactionTokens"`
	Results                  []sarifResult `json:"results"`
	RunAggregates            none          `json:"runAggregates"`
	Taxonomies               none          `json:"taxonomies"`
	ThreadFlowLocations      none          `json:"threadFlowLocations"`
	Tool                     sarifTool     `json:"tool"`
	Translations             none          `json:"translations"`
	VersionControlProvenance none          `json:"versionControlProvenance"`
	WebRequests              none          `json:"webRequests"`
	WebResponses             none          `json:"webResponses"`
}

type sarifTool struct {
	Driver     sarifDriver `json:"driver"`
	Extensions none        `json:"extensions"`
}

// sarifDriver is the toolComponent of the tool's driver: lsfc itself.
type sarifDriver struct {
	Contents            []string    `json:"contents"`
	InformationURI      string      `json:"informationUri"`
	IsComprehensive     bool        `json:"isComprehensive"`
	Language            string      `json:"language"`
	Locations           none        `json:"locations"`
	Name                string      `json:"name"`
	Notifications       none        `json:"notifications"`
	Rules               []sarifRule `json:"rules"`
	SupportedTaxonomies none        `json:"supportedTaxonomies"`
	Taxa                none        `json:"taxa"`
	Version             string      `json:"version,omitempty"`
}

// sarifRule is the reportingDescriptor of one code. A code that Codes
// does not document has only an id and a default configuration.
type sarifRule struct {
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	FullDescription      *sarifText         `json:"fullDescription,omitempty"`
	Help                 *sarifText         `json:"help,omitempty"`
	HelpURI              string             `json:"helpUri,omitempty"`
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	Relationships        none               `json:"relationships"`
	ShortDescription     *sarifText         `json:"shortDescription,omitempty"`
}

// sarifConfiguration is a reportingConfiguration.
type sarifConfiguration struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
	Rank    int    `json:"rank"`
}

// sarifText is a multiformatMessageString: plain text, and Markdown when
// there is any.
type sarifText struct {
	Markdown string `json:"markdown,omitempty"`
	Text     string `json:"text"`
}

// sarifMessage is a message given as plain text.
type sarifMessage struct {
	Arguments none   `json:"arguments"`
	Text      string `json:"text"`
}

// sarifResult is one finding. A finding without a code has no ruleId and
// the ruleIndex -1.
type sarifResult struct {
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Attachments         none              `json:"attachments"`
	CodeFlows           none              `json:"codeFlows"`
	Fixes               []sarifFix        `json:"fixes"`
	GraphTraversals     none              `json:"graphTraversals"`
	Graphs              none              `json:"graphs"`
	Kind                string            `json:"kind"`
	Level               string            `json:"level"`
	Locations           []sarifLocation   `json:"locations"`
	Message             sarifMessage      `json:"message"`
	Rank                int               `json:"rank"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations"`
	RuleID              string            `json:"ruleId,omitempty"`
	RuleIndex           int               `json:"ruleIndex"`
	Stacks              none              `json:"stacks"`
	Taxa                none              `json:"taxa"`
}

// sarifLocation is a location: a result's, with no id (-1), or a related
// one, numbered from 1 and with a message of its own.
type sarifLocation struct {
	Annotations      none           `json:"annotations"`
	ID               int            `json:"id"`
	LogicalLocations none           `json:"logicalLocations"`
	Message          *sarifMessage  `json:"message,omitempty"`
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	Relationships    none           `json:"relationships"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

// sarifArtifact is an artifactLocation: a URI, relative to URIBaseID when
// that is set.
type sarifArtifact struct {
	Index     int    `json:"index"`
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is a region of a text file: lines and columns from 1, the
// end column exclusive, and the same range as bytes. Its characters are
// not counted (charOffset -1).
type sarifRegion struct {
	ByteLength  int `json:"byteLength"`
	ByteOffset  int `json:"byteOffset"`
	CharOffset  int `json:"charOffset"`
	EndColumn   int `json:"endColumn"`
	EndLine     int `json:"endLine"`
	StartColumn int `json:"startColumn"`
	StartLine   int `json:"startLine"`
}

type sarifFix struct {
	ArtifactChanges []sarifChange `json:"artifactChanges"`
	Description     sarifMessage  `json:"description"`
}

// sarifChange is an artifactChange: the replacements in one file.
type sarifChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion  `json:"deletedRegion"`
	InsertedContent sarifContent `json:"insertedContent"`
}

// sarifContent is an artifactContent given as text.
type sarifContent struct {
	Text string `json:"text"`
}

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
func sarifReport(ds lang.Diagnostics, opts WriteOptions) (*sarifLog, error) {
	paths, err := newPathMapper(opts.Base)
	if err != nil {
		return nil, err
	}
	run := sarifRun{
		// lang.Pos columns count code points; without columnKind a
		// consumer may assume UTF-16 code units.
		ColumnKind:       "unicodeCodePoints",
		Language:         "en-US",
		NewlineSequences: []string{"\r\n", "\n"},
		Results:          make([]sarifResult, 0, len(ds)),
		Tool: sarifTool{Driver: sarifDriver{
			Contents:       []string{"localizedData", "nonLocalizedData"},
			InformationURI: projectURL,
			Language:       "en-US",
			Name:           "lsfc",
			Rules:          []sarifRule{},
			Version:        opts.Version,
		}},
	}
	rules := &run.Tool.Driver.Rules
	ruleIndex := map[lang.Code]int{}
	for _, c := range usedCodes(ds) {
		ruleIndex[c.Code] = len(*rules)
		*rules = append(*rules, newSARIFRule(c))
	}

	fp := fingerprinter{seen: map[string]int{}}
	for _, d := range ds {
		res := sarifResult{
			Kind:             "fail",
			Level:            sarifLevel(d.Severity),
			Message:          sarifMessage{Text: d.Message},
			Rank:             -1,
			RuleIndex:        -1,
			Fixes:            []sarifFix{},
			Locations:        []sarifLocation{},
			RelatedLocations: []sarifLocation{},
		}
		if d.Code != "" {
			res.RuleID = string(d.Code)
			res.RuleIndex = ruleIndex[d.Code]
		}
		if d.Span.IsValid() {
			res.Locations = append(res.Locations, sarifLocation{ID: -1, PhysicalLocation: newSARIFPhysical(paths, d.Span)})
		}
		for i, r := range d.Related {
			loc := sarifLocation{ID: i + 1, Message: &sarifMessage{Text: r.Message}}
			if r.Span.IsValid() {
				loc.PhysicalLocation = newSARIFPhysical(paths, r.Span)
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if f := newSARIFFix(paths, d.Fix); f != nil {
			res.Fixes = append(res.Fixes, *f)
		}
		path, _ := paths.rel(d.Span.Path())
		res.PartialFingerprints = map[string]string{FingerprintKey: fp.of(d, path)}
		run.Results = append(run.Results, res)
	}
	return &sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}, nil
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

// newSARIFRule describes a code as a SARIF reportingDescriptor.
func newSARIFRule(c lang.CodeInfo) sarifRule {
	rule := sarifRule{
		ID:                   string(c.Code),
		DefaultConfiguration: sarifConfiguration{Enabled: true, Level: sarifLevel(c.Severity), Rank: -1},
	}
	if c.Name == "" {
		return rule
	}
	rule.Name = c.Name
	rule.ShortDescription = &sarifText{Text: c.Summary}
	rule.FullDescription = &sarifText{Text: c.Doc}
	rule.Help = &sarifText{Text: c.Doc, Markdown: docMarkdown(c.Doc)}
	rule.HelpURI = HelpURI(c.Code)
	return rule
}

// sarifLevel returns the SARIF level of a severity: error, warning, or
// note for an info.
func sarifLevel(s lang.Severity) string {
	switch s {
	case lang.Error:
		return "error"
	case lang.Warning:
		return "warning"
	}
	return "note"
}

// newSARIFPhysical returns the file and region of a valid span.
func newSARIFPhysical(paths pathMapper, sp lang.Span) *sarifPhysical {
	return &sarifPhysical{ArtifactLocation: newSARIFArtifact(paths, sp.Path()), Region: newSARIFRegion(sp)}
}

// newSARIFArtifact returns the location of the file p: a URI relative to
// %SRCROOT% when p lies under the base directory, and a file: URI
// otherwise.
func newSARIFArtifact(paths pathMapper, p string) sarifArtifact {
	rel, inside := paths.rel(p)
	if inside {
		// url.URL escapes what a URI reference cannot hold, and keeps a
		// first segment with a colon from reading as a scheme.
		return sarifArtifact{Index: -1, URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRoot}
	}
	if !strings.HasPrefix(rel, "/") {
		// A Windows path, C:/dir/file, is /C:/dir/file in a file: URI.
		rel = "/" + rel
	}
	return sarifArtifact{Index: -1, URI: (&url.URL{Scheme: "file", Path: rel}).String()}
}

// newSARIFRegion returns the region of a valid span: lines and code point
// columns (the end column exclusive, as in SARIF), and the same range as
// bytes.
func newSARIFRegion(sp lang.Span) sarifRegion {
	r := sp.Root()
	start, end := r.Src.Pos(r.Start), r.Src.Pos(r.End)
	return sarifRegion{
		StartLine: start.Line, StartColumn: start.Col,
		EndLine: end.Line, EndColumn: end.Col,
		ByteOffset: start.Offset, ByteLength: end.Offset - start.Offset,
		CharOffset: -1,
	}
}

// newSARIFFix returns f as a SARIF fix, its edits grouped by file in the
// order the files first appear, or nil when f has no edit with a
// position.
func newSARIFFix(paths pathMapper, f *lang.Fix) *sarifFix {
	if f == nil {
		return nil
	}
	var files []string
	changes := map[string]*sarifChange{}
	for _, e := range f.Edits {
		if !e.Span.IsValid() {
			continue
		}
		p := e.Span.Path()
		ch, ok := changes[p]
		if !ok {
			ch = &sarifChange{ArtifactLocation: newSARIFArtifact(paths, p)}
			changes[p] = ch
			files = append(files, p)
		}
		ch.Replacements = append(ch.Replacements, sarifReplacement{
			DeletedRegion:   newSARIFRegion(e.Span),
			InsertedContent: sarifContent{Text: e.NewText},
		})
	}
	if len(files) == 0 {
		return nil
	}
	fix := &sarifFix{Description: sarifMessage{Text: f.Message}}
	for _, p := range files {
		fix.ArtifactChanges = append(fix.ArtifactChanges, *changes[p])
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
