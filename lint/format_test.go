package lint_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

const (
	hostsText = "Begin Host\nHOST_NAME   MXJ   JL/U\nhostA       4\nEnd Hosts\nEnd Host\n"
	confText  = "LSF_CONFDIR = /opt/lsf/conf\n"
	// queuesText has a non-ASCII letter before the flagged key's end, so
	// that code point and byte columns differ.
	queuesText = "Begin Queue\nQUEUE_NAME = normal\nFAIRSHARÉ = USER_SHARES[[default,1]]\nEnd Queue\n"
)

// sample returns the diagnostics of a small tree under dir/conf: parser
// findings with related notes and fixes, a warning and an info with a
// non-ASCII line, a note in another file, and an error with no position.
func sample(t *testing.T, dir string) lang.Diagnostics {
	t.Helper()
	return sampleWith(t, dir, "")
}

// sampleWith is sample with prefix inserted above the text of every file.
func sampleWith(t *testing.T, dir, prefix string) lang.Diagnostics {
	t.Helper()
	conf := filepath.Join(dir, "conf")
	var ds lang.Diagnostics
	hosts := lang.NewSource(filepath.Join(conf, "lsb.hosts"), prefix+hostsText)
	_, d := lang.ParseConfig(hosts, lang.KindLSBHosts)
	ds = append(ds, d...)
	lsfconf := lang.NewSource(filepath.Join(conf, "lsf.conf"), prefix+confText)
	_, d = lang.ParseConfig(lsfconf, lang.KindLSFConf)
	ds = append(ds, d...)

	queues := lang.NewSource(filepath.Join(conf, "lsb.queues"), prefix+queuesText)
	key := len(prefix) + strings.Index(queuesText, "FAIRSHARÉ")
	ds.Add(lang.Warning, "LSF201", queues.SpanOf(key, key+len("FAIRSHARÉ")),
		"unknown key %q in section %q; did you mean %q?", "FAIRSHARÉ", "Queue", "FAIRSHARE").
		Suggest("write FAIRSHARE", queues.SpanOf(key, key+len("FAIRSHARÉ")), "FAIRSHARE")
	name := len(prefix) + strings.Index(queuesText, "normal")
	ds.Add(lang.Info, "LSF509", queues.SpanOf(name, name+len("normal")),
		"queue %q shares a slot pool with queues of other priorities", "normal").
		Note(hosts.SpanOf(len(prefix), len(prefix)+len("Begin Host")), "the hosts are defined here")
	ds.Add(lang.Error, "LSF303", lang.Span{}, "the local cluster cannot be told")
	if len(ds) < 7 {
		t.Fatalf("sample has %d diagnostics, want at least 7:\n%v", len(ds), ds)
	}
	ds.Sort()
	return ds
}

func write(t *testing.T, format string, ds lang.Diagnostics, opts lint.WriteOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := lint.Write(&b, format, ds, opts); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	return b.String()
}

func TestFormatsList(t *testing.T) {
	want := []string{"text", "json", "sarif", "github", "rdjsonl"}
	if got := lint.Formats(); !slices.Equal(got, want) {
		t.Errorf("Formats() = %v, want %v", got, want)
	}
	for _, f := range want {
		if !lint.ValidFormat(f) {
			t.Errorf("ValidFormat(%q) = false", f)
		}
	}
}

// TestSARIFValidates checks the log against the SARIF 2.1.0 schema and
// the parts of it that code scanning services read.
func TestSARIFValidates(t *testing.T) {
	dir := t.TempDir()
	ds := sample(t, dir)
	out := write(t, "sarif", ds, lint.WriteOptions{Base: dir, Version: "v1.2.3"})

	validateSARIF(t, out)

	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			ColumnKind string `json:"columnKind"`
			Tool       struct {
				Driver struct {
					Name           string `json:"name"`
					Version        string `json:"version"`
					InformationURI string `json:"informationUri"`
					Rules          []struct {
						ID               string `json:"id"`
						Name             string `json:"name"`
						HelpURI          string `json:"helpUri"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						FullDescription struct {
							Text string `json:"text"`
						} `json:"fullDescription"`
						Help struct {
							Text     string `json:"text"`
							Markdown string `json:"markdown"`
						} `json:"help"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q with %d runs, want 2.1.0 with 1", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	drv := run.Tool.Driver
	if drv.Name != "lsfc" || drv.Version != "v1.2.3" || drv.InformationURI != "https://github.com/lsfc/lsfc" {
		t.Errorf("driver = %q %q %q", drv.Name, drv.Version, drv.InformationURI)
	}
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", run.ColumnKind)
	}

	docs := map[lang.Code]lang.CodeInfo{}
	for _, c := range lint.Codes() {
		docs[c.Code] = c
	}
	var wantIDs []string
	for _, d := range ds {
		if !slices.Contains(wantIDs, string(d.Code)) {
			wantIDs = append(wantIDs, string(d.Code))
		}
	}
	slices.Sort(wantIDs)
	var ids []string
	for _, r := range drv.Rules {
		ids = append(ids, r.ID)
		c := docs[lang.Code(r.ID)]
		if r.Name != c.Name || r.ShortDescription.Text != c.Summary || r.FullDescription.Text != c.Doc ||
			r.Help.Text != c.Doc || !strings.Contains(r.Help.Markdown, "**What it finds:**") {
			t.Errorf("rule %s does not carry the code's documentation: %+v", r.ID, r)
		}
		if want := "https://github.com/lsfc/lsfc/blob/main/lint/CODES.md#" + strings.ToLower(r.ID); r.HelpURI != want {
			t.Errorf("rule %s helpUri = %q, want %q", r.ID, r.HelpURI, want)
		}
		if want := map[lang.Severity]string{lang.Error: "error", lang.Warning: "warning", lang.Info: "note"}[c.Severity]; r.DefaultConfiguration.Level != want {
			t.Errorf("rule %s level = %q, want %q", r.ID, r.DefaultConfiguration.Level, want)
		}
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("rules = %v, want %v (the codes used, in order)", ids, wantIDs)
	}

	if len(run.Results) != len(ds) {
		t.Fatalf("%d results for %d diagnostics", len(run.Results), len(ds))
	}
	levels := map[lang.Severity]string{lang.Error: "error", lang.Warning: "warning", lang.Info: "note"}
	for i, res := range run.Results {
		d := ds[i]
		if res.RuleID != string(d.Code) || drv.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleId %q, ruleIndex %d, want %s", i, res.RuleID, res.RuleIndex, d.Code)
		}
		if res.Level != levels[d.Severity] || res.Message.Text != d.Message {
			t.Errorf("result %d: level %q message %q, want %v %q", i, res.Level, res.Message.Text, d.Severity, d.Message)
		}
		if len(res.RelatedLocations) != len(d.Related) {
			t.Errorf("result %d: %d related locations, want %d", i, len(res.RelatedLocations), len(d.Related))
		}
		if fp := res.PartialFingerprints[lint.FingerprintKey]; fp == "" {
			t.Errorf("result %d has no %s", i, lint.FingerprintKey)
		}
		if !d.Span.IsValid() {
			if len(res.Locations) != 0 {
				t.Errorf("result %d: a diagnostic without position has locations %+v", i, res.Locations)
			}
			continue
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations", i, len(res.Locations))
		}
		loc := res.Locations[0].PhysicalLocation
		s, e := d.Span.StartPos(), d.Span.EndPos()
		wantURI := "conf/" + filepath.Base(d.Span.Path())
		if loc.ArtifactLocation.URI != wantURI || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %d: artifact %+v, want %s under %%SRCROOT%%", i, loc.ArtifactLocation, wantURI)
		}
		if got := [4]int{loc.Region.StartLine, loc.Region.StartColumn, loc.Region.EndLine, loc.Region.EndColumn}; got != [4]int{s.Line, s.Col, e.Line, e.Col} {
			t.Errorf("result %d: region %v, want %v", i, got, [4]int{s.Line, s.Col, e.Line, e.Col})
		}
		if (d.Fix != nil) != (len(res.Fixes) == 1) {
			t.Errorf("result %d: fixes %+v for fix %+v", i, res.Fixes, d.Fix)
		}
		if d.Fix != nil && len(res.Fixes) == 1 {
			f := res.Fixes[0]
			if f.Description.Text != d.Fix.Message || len(f.ArtifactChanges) != 1 ||
				f.ArtifactChanges[0].ArtifactLocation.URI != wantURI ||
				len(f.ArtifactChanges[0].Replacements) != len(d.Fix.Edits) ||
				f.ArtifactChanges[0].Replacements[0].InsertedContent.Text != d.Fix.Edits[0].NewText {
				t.Errorf("result %d: fix %+v, want %+v", i, f, d.Fix)
			}
		}
	}

	// The non-ASCII line: columns count code points.
	for _, res := range run.Results {
		if res.RuleID == "LSF201" {
			r := res.Locations[0].PhysicalLocation.Region
			if r.StartColumn != 1 || r.EndColumn != 10 {
				t.Errorf("LSF201 columns %d-%d, want 1-10 (code points)", r.StartColumn, r.EndColumn)
			}
		}
	}
}

// validateSARIF checks out against the SARIF 2.1.0 schema. The validator
// reads the log into its own object model first: the log must come back
// out of that model unchanged, so that what the schema sees is what was
// written, no property left out or read differently.
func validateSARIF(t *testing.T, out string) {
	t.Helper()
	// Strict reading keeps a null array null.
	rep, err := sarif.FromString(out, sarif.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var wrote, read any
	if err := json.Unmarshal([]byte(out), &wrote); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &read); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wrote, read) {
		t.Errorf("the validator reads the log as\n%s\nnot as written:\n%s", again, out)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("SARIF does not validate: %v\n%s", err, out)
	}
}

// TestSARIFValidatesEdges checks the logs of the unusual cases against the
// schema: no finding at all, a finding without a code or a position, a code
// lsfc does not document, a fix that deletes text, files outside Base and
// a related note without a position.
func TestSARIFValidatesEdges(t *testing.T) {
	dir := t.TempDir()
	queues := lang.NewSource(filepath.Join(dir, "lsb.queues"), "Begin Queue\nQUEUE_NAME = a<b>&c\nEnd Queue\n")
	other := lang.NewSource("/elsewhere/lsb.hosts", "Begin Host\nEnd Host\n")
	var ds lang.Diagnostics
	ds.Add(lang.Warning, "", queues.SpanOf(0, 5), "a finding without a code")
	ds.Add(lang.Error, "", lang.Span{}, "a finding without a code or a position")
	ds.Add(lang.Info, "LSF999", queues.SpanOf(12, 22), "an undocumented code").
		Note(lang.Span{}, "a note without a position").
		Note(other.SpanOf(0, 5), "a note in a file outside Base")
	ds.Add(lang.Error, "LSF201", queues.SpanOf(12, 22), "a fix that deletes").Suggest("delete it", queues.SpanOf(12, 22), "")
	for _, opts := range []lint.WriteOptions{{Base: dir, Version: "v0.0.1"}, {}, {Base: "/elsewhere"}} {
		validateSARIF(t, write(t, "sarif", ds, opts))
	}
	out := write(t, "sarif", nil, lint.WriteOptions{})
	validateSARIF(t, out)
	if !strings.Contains(out, `"results": []`) || !strings.Contains(out, `"rules": []`) {
		t.Errorf("a log without findings lacks its empty results and rules:\n%s", out)
	}

	res := sarifResults(t, write(t, "sarif", ds, lint.WriteOptions{Base: dir}))
	if res[0].RuleID != "" || res[0].RuleIndex != -1 {
		t.Errorf("a finding without a code has ruleId %q and ruleIndex %d, want none and -1", res[0].RuleID, res[0].RuleIndex)
	}
	if len(res[1].Locations) != 0 {
		t.Errorf("a finding without a position has locations %+v", res[1].Locations)
	}
	if rel := res[2].RelatedLocations; len(rel) != 2 || rel[0].PhysicalLocation != nil ||
		rel[1].PhysicalLocation == nil || rel[1].PhysicalLocation.ArtifactLocation.URI != "file:///elsewhere/lsb.hosts" {
		t.Errorf("related locations %+v, want one without a position and one file: URI", rel)
	}
	if f := res[3].Fixes; len(f) != 1 || f[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "" {
		t.Errorf("fix %+v, want one that inserts nothing", f)
	}
}

// sarifResult is the part of a SARIF result the tests read.
type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex int    `json:"ruleIndex"`
	Level     string `json:"level"`
	Message   struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	} `json:"locations"`
	RelatedLocations []struct {
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
		PhysicalLocation *sarifPhysical `json:"physicalLocation"`
	} `json:"relatedLocations"`
	Fixes []struct {
		Description struct {
			Text string `json:"text"`
		} `json:"description"`
		ArtifactChanges []struct {
			ArtifactLocation sarifArtifact `json:"artifactLocation"`
			Replacements     []struct {
				DeletedRegion   sarifRegion `json:"deletedRegion"`
				InsertedContent struct {
					Text string `json:"text"`
				} `json:"insertedContent"`
			} `json:"replacements"`
		} `json:"artifactChanges"`
	} `json:"fixes"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func sarifResults(t *testing.T, out string) []sarifResult {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs", len(log.Runs))
	}
	return log.Runs[0].Results
}

// TestSARIFSchemaCatchesMistakes makes sure the validator the tests rely
// on rejects a log that breaks the schema.
func TestSARIFSchemaCatchesMistakes(t *testing.T) {
	out := write(t, "sarif", sample(t, t.TempDir()), lint.WriteOptions{})
	bad := strings.Replace(out, `"level": "error"`, `"level": "fatal"`, 1)
	if bad == out {
		t.Fatal("no error level in the log")
	}
	rep, err := sarif.FromString(bad, sarif.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Validate() == nil {
		t.Error("a result with level \"fatal\" validates")
	}
}

// TestSARIFFingerprints checks that a finding keeps its fingerprint when
// lines are inserted above it, and that different findings have different
// ones.
func TestSARIFFingerprints(t *testing.T) {
	dir := t.TempDir()
	opts := lint.WriteOptions{Base: dir}
	before := sarifResults(t, write(t, "sarif", sample(t, dir), opts))
	after := sarifResults(t, write(t, "sarif", sampleWith(t, dir, "# a comment\n\n# another one\n"), opts))
	if len(before) != len(after) {
		t.Fatalf("%d results before, %d after", len(before), len(after))
	}
	seen := map[string]bool{}
	for i := range before {
		b, a := before[i], after[i]
		fb, fa := b.PartialFingerprints[lint.FingerprintKey], a.PartialFingerprints[lint.FingerprintKey]
		if fb != fa {
			t.Errorf("%s: fingerprint %q became %q when lines were inserted above", b.RuleID, fb, fa)
		}
		if seen[fb] {
			t.Errorf("%s: fingerprint %q is not unique", b.RuleID, fb)
		}
		seen[fb] = true
		if len(b.Locations) > 0 && a.Locations[0].PhysicalLocation.Region.StartLine != b.Locations[0].PhysicalLocation.Region.StartLine+3 {
			t.Errorf("%s: line %d became %d, want 3 more", b.RuleID,
				b.Locations[0].PhysicalLocation.Region.StartLine, a.Locations[0].PhysicalLocation.Region.StartLine)
		}
	}

	// Two findings alike on two identical lines are told apart.
	src := lang.NewSource(filepath.Join(dir, "lsb.params"), "X =\nX =\n")
	var ds lang.Diagnostics
	ds.Add(lang.Warning, "LSF111", src.SpanOf(0, 3), "KEY = has no value")
	ds.Add(lang.Warning, "LSF111", src.SpanOf(4, 7), "KEY = has no value")
	res := sarifResults(t, write(t, "sarif", ds, opts))
	if f0, f1 := res[0].PartialFingerprints[lint.FingerprintKey], res[1].PartialFingerprints[lint.FingerprintKey]; f0 == f1 {
		t.Errorf("identical findings share the fingerprint %q", f0)
	}
}

// TestRelativePaths checks that the formats for CI name files relative to
// Base with forward slashes, escape them as URIs in SARIF, and name a file
// outside Base by its absolute path.
func TestRelativePaths(t *testing.T) {
	dir := t.TempDir()
	inside := lang.NewSource(filepath.Join(dir, "lsf conf", "lsb.params"), "X =\n")
	outside := lang.NewSource(filepath.Join(filepath.Dir(dir), "elsewhere", "lsb.params"), "X =\n")
	var ds lang.Diagnostics
	ds.Add(lang.Warning, "LSF111", inside.SpanOf(0, 3), "KEY = has no value")
	ds.Add(lang.Warning, "LSF111", outside.SpanOf(0, 3), "KEY = has no value")
	opts := lint.WriteOptions{Base: dir}
	absOutside := filepath.ToSlash(outside.Name)

	res := sarifResults(t, write(t, "sarif", ds, opts))
	if a := res[0].Locations[0].PhysicalLocation.ArtifactLocation; a.URI != "lsf%20conf/lsb.params" || a.URIBaseID != "%SRCROOT%" {
		t.Errorf("SARIF artifact inside Base = %+v", a)
	}
	if a := res[1].Locations[0].PhysicalLocation.ArtifactLocation; !strings.HasPrefix(a.URI, "file:///") ||
		!strings.HasSuffix(a.URI, "/elsewhere/lsb.params") || a.URIBaseID != "" {
		t.Errorf("SARIF artifact outside Base = %+v", a)
	}

	gh := strings.Split(write(t, "github", ds, opts), "\n")
	if !strings.HasPrefix(gh[0], "::warning file=lsf conf/lsb.params,line=1,") {
		t.Errorf("github inside Base: %s", gh[0])
	}
	if want := "::warning file=" + strings.NewReplacer(":", "%3A", ",", "%2C").Replace(absOutside) + ",line=1,"; !strings.HasPrefix(gh[1], want) {
		t.Errorf("github outside Base: %s, want prefix %s", gh[1], want)
	}

	rd := rdLines(t, write(t, "rdjsonl", ds, opts))
	if rd[0].Location.Path != "lsf conf/lsb.params" || rd[1].Location.Path != absOutside {
		t.Errorf("rdjsonl paths %q, %q", rd[0].Location.Path, rd[1].Location.Path)
	}

	// Without Base, paths are relative to the working directory.
	rel := lang.NewSource("lsb.params", "X =\n")
	ds = nil
	ds.Add(lang.Warning, "LSF111", rel.SpanOf(0, 3), "KEY = has no value")
	if got := write(t, "github", ds, lint.WriteOptions{}); !strings.HasPrefix(got, "::warning file=lsb.params,") {
		t.Errorf("github without Base: %s", got)
	}
	if got := sarifResults(t, write(t, "sarif", ds, lint.WriteOptions{})); got[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "lsb.params" {
		t.Errorf("SARIF without Base: %+v", got[0].Locations[0].PhysicalLocation.ArtifactLocation)
	}
}

// TestGitHubEscaping checks the escapes of workflow commands: %, CR and
// LF everywhere, and : and , in properties too.
func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct {
		name, path, message, want string
	}{
		{"plain", "lsb.params", "KEY = has no value",
			"::warning file=lsb.params,line=1,col=1,endLine=1,endColumn=4,title=LSF111::KEY = has no value"},
		{"percent", "lsb.params", "100% busy, %0A is not a newline",
			"::warning file=lsb.params,line=1,col=1,endLine=1,endColumn=4,title=LSF111::100%25 busy, %250A is not a newline"},
		{"newline", "lsb.params", "first\nsecond\r\nthird",
			"::warning file=lsb.params,line=1,col=1,endLine=1,endColumn=4,title=LSF111::first%0Asecond%0D%0Athird"},
		{"colon and comma in message", "lsb.params", "a: b, c::d",
			"::warning file=lsb.params,line=1,col=1,endLine=1,endColumn=4,title=LSF111::a: b, c::d"},
		{"colon and comma in path", "a:b,c/100%/lsb.params", "m",
			"::warning file=a%3Ab%2Cc/100%25/lsb.params,line=1,col=1,endLine=1,endColumn=4,title=LSF111::m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := lang.NewSource(tc.path, "X =\n")
			var ds lang.Diagnostics
			ds.Add(lang.Warning, "LSF111", src.SpanOf(0, 3), "%s", tc.message)
			lines := strings.Split(strings.TrimSuffix(write(t, "github", ds, lint.WriteOptions{}), "\n"), "\n")
			if len(lines) != 2 || lines[0] != tc.want {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), tc.want)
			}
		})
	}
}

// TestGitHubOutput checks that every finding is one command of the right
// kind, with its notes and fix in the message, and that a summary ends
// the output.
func TestGitHubOutput(t *testing.T) {
	dir := t.TempDir()
	ds := sample(t, dir)
	out := write(t, "github", ds, lint.WriteOptions{Base: dir})
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(ds)+1 {
		t.Fatalf("%d lines for %d diagnostics, want one more:\n%s", len(lines), len(ds), out)
	}
	kinds := map[lang.Severity]string{lang.Error: "::error ", lang.Warning: "::warning ", lang.Info: "::notice "}
	for i, d := range ds {
		if !strings.HasPrefix(lines[i], kinds[d.Severity]) || !strings.Contains(lines[i], "title="+string(d.Code)+"::") {
			t.Errorf("line %d = %s, want %s...title=%s", i+1, lines[i], kinds[d.Severity], d.Code)
		}
		if d.Fix != nil && !strings.Contains(lines[i], "%0Afix: ") {
			t.Errorf("line %d lacks the fix: %s", i+1, lines[i])
		}
		if d.Span.IsValid() != strings.Contains(lines[i], " file=conf/") {
			t.Errorf("line %d: file property does not match the span: %s", i+1, lines[i])
		}
	}
	want := "::notice title=lsfc::4 errors, 2 warnings, 1 info"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("summary = %s, want %s", got, want)
	}
	if got := write(t, "github", nil, lint.WriteOptions{}); got != "::notice title=lsfc::0 errors, 0 warnings, 0 infos\n" {
		t.Errorf("empty output = %q", got)
	}
	// The note in another file names its line.
	for _, l := range lines {
		if strings.Contains(l, "title=LSF509::") && !strings.Contains(l, "%0Aconf/lsb.hosts:1:1: note: the hosts are defined here") {
			t.Errorf("LSF509 lacks its note: %s", l)
		}
	}
}

// rdDiag is reviewdog's Diagnostic as the tests read it.
type rdDiag struct {
	Message  string `json:"message"`
	Location *struct {
		Path  string  `json:"path"`
		Range rdRange `json:"range"`
	} `json:"location"`
	Severity string `json:"severity"`
	Source   struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"source"`
	Code struct {
		Value string `json:"value"`
		URL   string `json:"url"`
	} `json:"code"`
	Suggestions []struct {
		Range rdRange `json:"range"`
		Text  string  `json:"text"`
	} `json:"suggestions"`
}

type rdRange struct {
	Start struct{ Line, Column int } `json:"start"`
	End   struct{ Line, Column int } `json:"end"`
}

func rdLines(t *testing.T, out string) []rdDiag {
	t.Helper()
	var ds []rdDiag
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var d rdDiag
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("line %d is not an rdjson Diagnostic: %v\n%s", i+1, err, line)
		}
		ds = append(ds, d)
	}
	return ds
}

func TestRDJSONL(t *testing.T) {
	dir := t.TempDir()
	ds := sample(t, dir)
	got := rdLines(t, write(t, "rdjsonl", ds, lint.WriteOptions{Base: dir}))
	if len(got) != len(ds) {
		t.Fatalf("%d lines for %d diagnostics", len(got), len(ds))
	}
	sev := map[lang.Severity]string{lang.Error: "ERROR", lang.Warning: "WARNING", lang.Info: "INFO"}
	for i, d := range ds {
		r := got[i]
		if !strings.HasPrefix(r.Message, d.Message) || r.Severity != sev[d.Severity] {
			t.Errorf("line %d: message %q severity %q, want %q %v", i+1, r.Message, r.Severity, d.Message, d.Severity)
		}
		if r.Source.Name != "lsfc" || r.Source.URL != "https://github.com/lsfc/lsfc" {
			t.Errorf("line %d: source %+v", i+1, r.Source)
		}
		if r.Code.Value != string(d.Code) || r.Code.URL != lint.HelpURI(d.Code) {
			t.Errorf("line %d: code %+v", i+1, r.Code)
		}
		if !d.Span.IsValid() {
			if r.Location != nil {
				t.Errorf("line %d: location %+v for a diagnostic without position", i+1, r.Location)
			}
			continue
		}
		if r.Location == nil || r.Location.Path != "conf/"+filepath.Base(d.Span.Path()) {
			t.Fatalf("line %d: location %+v", i+1, r.Location)
		}
		s, e := d.Span.StartPos(), d.Span.EndPos()
		if r.Location.Range.Start.Line != s.Line || r.Location.Range.End.Line != e.Line {
			t.Errorf("line %d: range %+v, want lines %d-%d", i+1, r.Location.Range, s.Line, e.Line)
		}
		if d.Fix == nil {
			if len(r.Suggestions) != 0 {
				t.Errorf("line %d: suggestions without a fix", i+1)
			}
		} else if len(r.Suggestions) != len(d.Fix.Edits) || r.Suggestions[0].Text != d.Fix.Edits[0].NewText {
			t.Errorf("line %d: suggestions %+v for fix %+v", i+1, r.Suggestions, d.Fix)
		}
		if d.Code == "LSF201" {
			// reviewdog counts columns in bytes: É takes two.
			rg := r.Location.Range
			if rg.Start.Column != 1 || rg.End.Column != 11 || r.Suggestions[0].Range != rg {
				t.Errorf("LSF201 range %+v, suggestion %+v, want columns 1-11", rg, r.Suggestions)
			}
		}
	}
	if out := write(t, "rdjsonl", nil, lint.WriteOptions{}); out != "" {
		t.Errorf("no diagnostics wrote %q", out)
	}
}

// TestFormatsDeterministic checks that each format renders the same
// findings to the same bytes.
func TestFormatsDeterministic(t *testing.T) {
	dir := t.TempDir()
	opts := lint.WriteOptions{Base: dir, Version: "v0.0.0"}
	for _, f := range lint.Formats() {
		first := write(t, f, sample(t, dir), opts)
		for range 5 {
			if again := write(t, f, sample(t, dir), opts); again != first {
				t.Errorf("%s output differs between runs:\n%s\n---\n%s", f, first, again)
				break
			}
		}
	}
}
