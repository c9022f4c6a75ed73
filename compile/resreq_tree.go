package compile

import (
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// EnvFromTree builds the resource requirement environment of a
// configuration tree: the site resources, host types and models of
// lsf.shared, and the memory unit of lsf.conf's LSF_UNIT_FOR_LIMITS and
// LSF_ENABLE_TMP_UNIT. When LSF_UNIT_FOR_LIMITS is not set, limits are in
// KB but resource requirements (rusage[mem=...], select[mem>...]) are in
// MB, as LSF documents; the unit set applies to both.
func EnvFromTree(t *Tree) *Env { return NewEnv(EnvConfigFromTree(t)) }

// EnvConfigFromTree returns the configuration of EnvFromTree's
// environment: plain data, which a caller may keep and give NewEnv again.
func EnvConfigFromTree(t *Tree) EnvConfig {
	cfg := EnvConfig{Unit: MB}
	if conf := t.File(lang.KindLSFConf); conf != nil {
		if a := lookup(conf, "LSF_UNIT_FOR_LIMITS"); a != nil {
			if u, err := ParseUnit(a.Value.Text); err == nil {
				cfg.Unit = u
			}
		}
		if a := lookup(conf, "LSF_ENABLE_TMP_UNIT"); a != nil {
			cfg.TmpUnit = strings.EqualFold(a.Value.Text, "y")
		}
	}
	if shared := t.File(lang.KindLSFShared); shared != nil {
		cfg.Site = SiteResourcesFromShared(shared)
		cfg.Types = columnValues(shared, "HostType", "TYPENAME")
		cfg.Models = columnValues(shared, "HostModel", "MODELNAME")
	}
	return cfg
}

// columnValues returns the values of one column of every table section of
// a file named section.
func columnValues(f *lang.File, section, column string) []string {
	var out []string
	for _, it := range f.Items {
		s, ok := it.(*lang.Section)
		if !ok || !s.Is(section) || s.Header == nil {
			continue
		}
		col := -1
		for i, c := range s.Header.Cells {
			if strings.EqualFold(c.Text, column) {
				col = i
			}
		}
		if col < 0 {
			continue
		}
		for _, r := range s.Rows {
			if col < len(r.Cells) && !r.Cells[col].IsEmpty() {
				out = append(out, r.Cells[col].Inner())
			}
		}
	}
	return out
}

// SectionValue returns the value of key in the section of a file of kind
// whose nameKey (QUEUE_NAME, NAME) is name: the last assignment, as LSF
// keeps it. found reports whether the section exists.
func (t *Tree) SectionValue(kind lang.FileKind, section, nameKey, name, key string) (v *lang.Value, found bool) {
	for _, f := range t.Files {
		if f.Kind != kind {
			continue
		}
		for _, it := range f.Items {
			s, ok := it.(*lang.Section)
			if !ok || !s.Is(section) {
				continue
			}
			var val *lang.Value
			match := false
			for _, a := range s.Assigns {
				switch {
				case strings.EqualFold(a.Key.Text, nameKey) && a.Value.Text == name:
					match = true
				case strings.EqualFold(a.Key.Text, key):
					val = &a.Value
				}
			}
			if match {
				return val, true
			}
		}
	}
	return nil, false
}
