package lang

import (
	"slices"
	"strings"
)

// ClusterFileName returns the cluster an lsf.cluster.<name> (or
// ll.cluster.<name>) file is named for, given the file's base name; ""
// for another file.
func ClusterFileName(base string) string {
	if KindOf(base) != KindLSFCluster {
		return ""
	}
	for _, prefix := range []string{"lsf.cluster.", "ll.cluster."} {
		if name, ok := strings.CutPrefix(base, prefix); ok && name != "" {
			return name
		}
	}
	return ""
}

// SharedClusterNames returns the cluster names of an lsf.shared file's
// Cluster section, in file order; nil for a nil file.
func SharedClusterNames(shared *File) []string {
	if shared == nil {
		return nil
	}
	var out []string
	for _, it := range shared.Items {
		s, ok := it.(*Section)
		if !ok || !s.Is("Cluster") || s.Header == nil {
			continue
		}
		col := 0
		for i, c := range s.Header.Cells {
			if strings.EqualFold(c.Text, "ClusterName") {
				col = i
			}
		}
		for _, r := range s.Rows {
			if col < len(r.Cells) {
				out = append(out, r.Cells[col].Text)
			}
		}
	}
	return out
}

// ChooseCluster picks the local cluster among the clusters whose
// lsf.cluster files are present and those lsf.shared declares: the one
// declared cluster with a file; else the only file; else, with no file,
// the only declared cluster; else "" (none, or no way to tell).
func ChooseCluster(present, declared []string) string {
	var both []string
	for _, name := range present {
		if slices.Contains(declared, name) {
			both = append(both, name)
		}
	}
	switch {
	case len(both) == 1:
		return both[0]
	case len(present) == 1:
		return present[0]
	case len(present) == 0 && len(declared) == 1:
		return declared[0]
	}
	return ""
}
