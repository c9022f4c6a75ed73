package lint

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lsfc/lsfc/lang"
	"go.yaml.in/yaml/v3"
)

// ConfigName is the name of the rule settings file lsfc looks for.
const ConfigName = ".lsfc.yaml"

// A Config holds the rule settings of a .lsfc.yaml:
//
//	rules:                 # for every file
//	  LSF520: off          # off, or a severity: error, warning, info
//	  LSF512: error
//	paths:                 # for the files a pattern matches, later entries winning
//	  - path: "lsbatch/*/configdir/lsb.queues"
//	    rules:
//	      LSF503: off
//
// Patterns are relative to the directory of the .lsfc.yaml, use "/" and
// path.Match's syntax, and "**" for any number of directories. A nil
// *Config changes nothing.
type Config struct {
	// Path is the file the settings were read from.
	Path  string
	Rules map[lang.Code]RuleSetting
	Paths []PathRules
	dir   string
}

// A RuleSetting turns a rule off or gives its findings a severity.
type RuleSetting struct {
	Off      bool
	Severity lang.Severity
}

// PathRules are the rule settings of the files a pattern matches.
type PathRules struct {
	Pattern string
	Rules   map[lang.Code]RuleSetting
}

// FindConfig looks for a .lsfc.yaml in dir and its parents and returns
// its path, or "" when there is none.
func FindConfig(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, ConfigName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LoadConfig reads a .lsfc.yaml. Mistakes in it are Diagnostics (LSF592)
// at their line and column; the error is for a file that cannot be read.
func LoadConfig(p string) (*Config, lang.Diagnostics, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, err
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, nil, err
	}
	cfg, diags := ParseConfig(lang.NewSource(p, string(b)))
	cfg.dir = filepath.Dir(abs)
	return cfg, diags, nil
}

// ParseConfig reads the text of a .lsfc.yaml.
func ParseConfig(src *lang.Source) (*Config, lang.Diagnostics) {
	r := &configReader{src: src}
	cfg := &Config{Path: src.Name, Rules: map[lang.Code]RuleSetting{}}
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(src.Text))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return cfg, nil
		}
		r.errorAt(1, 1, "%s is not YAML: %v", ConfigName, err)
		return cfg, r.diags
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		r.errorNode(root, "%s holds a mapping with keys rules and paths", ConfigName)
		return cfg, r.diags
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "rules":
			cfg.Rules = r.rules(v)
		case "paths":
			cfg.Paths = r.paths(v)
		default:
			r.errorNode(k, "unknown key %q in %s (keys: rules, paths)", k.Value, ConfigName)
		}
	}
	return cfg, r.diags
}

type configReader struct {
	src   *lang.Source
	diags lang.Diagnostics
}

func (r *configReader) errorAt(line, col int, format string, args ...any) {
	off := 0
	for l := 1; l < line && off < len(r.src.Text); l++ {
		i := strings.IndexByte(r.src.Text[off:], '\n')
		if i < 0 {
			off = len(r.src.Text)
			break
		}
		off += i + 1
	}
	off = min(off+max(col-1, 0), len(r.src.Text))
	end := off
	for end < len(r.src.Text) && r.src.Text[end] != '\n' && r.src.Text[end] != ' ' && r.src.Text[end] != ':' {
		end++
	}
	r.diags.Add(lang.Error, CodeBadConfig, r.src.SpanOf(off, end), format, args...)
}

func (r *configReader) errorNode(n *yaml.Node, format string, args ...any) {
	r.errorAt(n.Line, n.Column, format, args...)
}

// rules reads a mapping of codes to off or a severity.
func (r *configReader) rules(n *yaml.Node) map[lang.Code]RuleSetting {
	out := map[lang.Code]RuleSetting{}
	if n.Kind != yaml.MappingNode {
		r.errorNode(n, "rules is a mapping of codes to off, error, warning or info")
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		code := lang.Code(strings.ToUpper(k.Value))
		if !codeRE.MatchString(string(code)) || !knownCode(code) {
			r.errorNode(k, "%q is not a code lsfc reports (see lsfc lint --list-rules)", k.Value)
			continue
		}
		val := strings.ToLower(v.Value)
		if v.Tag == "!!bool" && val == "false" {
			val = "off"
		}
		switch val {
		case "off", "none", "disable", "disabled":
			out[code] = RuleSetting{Off: true}
		default:
			sev, err := lang.ParseSeverity(val)
			if err != nil {
				r.errorNode(v, "%s: %q is not off, error, warning or info", code, v.Value)
				continue
			}
			out[code] = RuleSetting{Severity: sev}
		}
	}
	return out
}

// paths reads the list of path-scoped rule settings.
func (r *configReader) paths(n *yaml.Node) []PathRules {
	var out []PathRules
	if n.Kind != yaml.SequenceNode {
		r.errorNode(n, "paths is a list of {path: PATTERN, rules: {...}}")
		return nil
	}
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			r.errorNode(item, "each entry of paths is {path: PATTERN, rules: {...}}")
			continue
		}
		var pr PathRules
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			switch k.Value {
			case "path":
				pr.Pattern = v.Value
				if _, err := path.Match(strings.ReplaceAll(v.Value, "**", "*"), ""); err != nil {
					r.errorNode(v, "bad pattern %q: %v", v.Value, err)
					pr.Pattern = ""
				}
			case "rules":
				pr.Rules = r.rules(v)
			default:
				r.errorNode(k, "unknown key %q in a paths entry (keys: path, rules)", k.Value)
			}
		}
		if pr.Pattern == "" {
			r.errorNode(item, "a paths entry needs a path pattern")
			continue
		}
		out = append(out, pr)
	}
	return out
}

// offEverywhere reports whether a rule is off for every file, so that it
// need not run.
func (c *Config) offEverywhere(code lang.Code) bool {
	if c == nil || !c.Rules[code].Off {
		return false
	}
	for _, p := range c.Paths {
		if s, ok := p.Rules[code]; ok && !s.Off {
			return false
		}
	}
	return true
}

// apply drops the findings of rules turned off and overrides severities.
// Findings about the configuration itself (LSF59x) are kept as they are.
func (c *Config) apply(diags lang.Diagnostics) lang.Diagnostics {
	if c == nil {
		return diags
	}
	out := diags[:0:0]
	for _, d := range diags {
		s, ok := c.setting(d)
		switch {
		case ok && s.Off:
			continue
		case ok && s.Severity != 0:
			d.Severity = s.Severity
		}
		out = append(out, d)
	}
	return out
}

// setting returns the rule setting that applies to a finding.
func (c *Config) setting(d *lang.Diagnostic) (RuleSetting, bool) {
	s, ok := c.Rules[d.Code]
	rel := c.relative(d.Span.Path())
	for _, p := range c.Paths {
		if ps, has := p.Rules[d.Code]; has && rel != "" && matchPattern(p.Pattern, rel) {
			s, ok = ps, true
		}
	}
	return s, ok
}

// relative returns a finding's path relative to the configuration's
// directory, with "/" separators, or "" when it lies outside.
func (c *Config) relative(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	dir := c.dir
	if dir == "" {
		dir, _ = filepath.Abs(".")
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// matchPattern matches a "/"-separated path against a pattern where "**"
// stands for any number of directories and the rest is path.Match syntax.
// A pattern without "/" matches the base name.
func matchPattern(pattern, name string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// String describes the configuration for messages.
func (c *Config) String() string {
	if c == nil {
		return "no " + ConfigName
	}
	return fmt.Sprintf("%s (%d rule settings, %d path entries)", c.Path, len(c.Rules), len(c.Paths))
}
