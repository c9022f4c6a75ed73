package lint

import (
	"slices"
	"strings"
	"unicode"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// usageRules are the analyzers of definitions and references across the
// tree: unused definitions, defaults, windows, host names, service classes (LSF520–LSF549).
func usageRules() []*Analyzer {
	return []*Analyzer{
		unusedResource(), unusedHostGroup(), unusedUserGroup(), defaultQueueRestricted(),
		dispatchOutsideRun(), hostNameMix(), fairshareUserWithoutShare(), hostInNoQueue(),
		windowAlwaysClosed(), queueHostsNeverOpen(), slaEgoKeys(), slaGuarantee(),
	}
}

// A mentionIndex holds, by word, every place the word is written in the
// tree: the spans of the values, table cells, keys and column names that
// hold it (load thresholds are keys of queues and columns of host
// tables).
type mentionIndex map[string][]lang.Span

// Separators of the words of the mention indexes. Resource names cannot
// hold any of resourceSeparators (LSF rejects them in lsf.shared), so
// that "mem>ngpus*2" yields ngpus. Host and user names may hold "-" and
// ".", so nameSeparators keep them and split only at the syntax of host
// and user lists: "~grp", "grp+2", "grp@", "[grp, 10]".
const (
	resourceSeparators = ":.()[]{}+-*/!&|<>@=,'\"~;"
	nameSeparators     = "()[]{},'\"=~+@!;|&<>:/*?"
)

// indexMentions splits every value, key and column name of the files of
// the tree, but those of the kinds skipped, into words at blanks and the
// separators. Free text (DESCRIPTION) names nothing and is left out, as
// are comments.
func indexMentions(tree *compile.Tree, separators string, skip ...lang.FileKind) mentionIndex {
	idx := mentionIndex{}
	split := func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(separators, r) }
	add := func(key, text string, sp lang.Span) {
		if strings.EqualFold(key, "DESCRIPTION") {
			return
		}
		for _, w := range strings.FieldsFunc(text, split) {
			idx[w] = append(idx[w], sp)
		}
	}
	for _, f := range tree.Files {
		if slices.Contains(skip, f.Kind) {
			continue
		}
		for _, it := range f.Items {
			switch it := it.(type) {
			case *lang.Assignment:
				add("", it.Key.Text, it.Key.Span)
				add(it.Key.Text, it.Value.Text, it.Value.Span)
			case *lang.Section:
				for _, a := range it.Assigns {
					add("", a.Key.Text, a.Key.Span)
					add(a.Key.Text, a.Value.Text, a.Value.Span)
				}
				var header []string
				if it.Header != nil {
					for _, c := range it.Header.Cells {
						header = append(header, c.Text)
						add("", c.Text, c.Span)
					}
				}
				for _, r := range it.Rows {
					for i, c := range r.Cells {
						key := ""
						if i < len(header) {
							key = header[i]
						}
						add(key, c.Text, c.Span)
					}
				}
			}
		}
	}
	return idx
}

// usedElsewhere reports whether name is written anywhere in the index but
// at the span of its own definition.
func (idx mentionIndex) usedElsewhere(name string, def lang.Span) bool {
	d := def.Root()
	for _, m := range idx[name] {
		if sp := m.Root(); sp.Src != d.Src || sp.Start != d.Start || sp.End != d.End {
			return true
		}
	}
	return false
}

// dynamicHosts reports whether hosts may join the cluster without being
// listed in lsf.cluster (LSF_HOST_ADDR_RANGE, LSF_DYNAMIC_HOST_WAIT_TIME,
// as the resource connector uses): such hosts bring their own resources
// (LSF_LOCAL_RESOURCES in their lsf.conf), unseen here.
func dynamicHosts(p *compile.Policy) bool {
	return p.ClusterParams["LSF_HOST_ADDR_RANGE"] != nil || p.Conf["LSF_DYNAMIC_HOST_WAIT_TIME"] != nil
}

// steady reports whether a setting has one value at all times: it lies
// outside any #if and no #if arm sets the key otherwise. Rules that
// compare two settings skip values that change with time or host.
func steady(st *compile.Setting) bool {
	return st == nil || st.When == "" && len(st.Alternatives) == 0
}

// userGroups resolves the user groups of lsb.users.
type userGroups map[string]*compile.UserGroup

func userGroupsOf(p *compile.Policy) userGroups {
	gs := userGroups{}
	for _, g := range p.UserGroups {
		gs[g.Name] = g
	}
	return gs
}

// open reports whether a user group may hold any user: it has "all"
// among its members or its members come from egroup ("!"), directly or
// through a member group.
func (gs userGroups) open(name string) bool { return gs.everyone(name) || gs.external(name) }

// everyone reports whether a user group holds "all" users, directly or
// through a member group.
func (gs userGroups) everyone(name string) bool {
	return gs.walk(name, map[string]bool{}, func(m compile.UserItem) bool { return strings.EqualFold(m.Name, "all") })
}

// external reports whether members of a user group come from egroup
// ("!") at run time, directly or through a member group: lsfc cannot know
// them.
func (gs userGroups) external(name string) bool {
	return gs.walk(name, map[string]bool{}, func(m compile.UserItem) bool { return m.Name == "!" })
}

// holds reports whether a user group holds user (or group) name, directly
// or through member groups. Exclusions are not subtracted: a group that
// names a user and excludes it elsewhere still counts as holding it,
// which keeps the rules that use holds from reporting too much.
func (gs userGroups) holds(group, name string) bool {
	return gs.walk(group, map[string]bool{}, func(m compile.UserItem) bool { return m.Name == name })
}

// walk reports whether any positive member of the group, or of its member
// groups, satisfies f.
func (gs userGroups) walk(name string, seen map[string]bool, f func(compile.UserItem) bool) bool {
	g := gs[strings.TrimSuffix(name, "@")]
	if g == nil || seen[g.Name] {
		return false
	}
	seen[g.Name] = true
	for _, m := range g.Members {
		if m.Exclude {
			continue
		}
		if f(m) || gs.walk(m.Name, seen, f) {
			return true
		}
	}
	return false
}

// fairshareOf returns the share assignment that governs a queue: its own
// FAIRSHARE, or that of the queue leading it in cross-queue fairshare
// (whose FAIRSHARE_QUEUES lists it), with the queue that holds it.
func fairshareOf(p *compile.Policy, q *compile.Queue) ([]compile.Share, *compile.Queue) {
	for _, parent := range p.Queues {
		if parent == q || parent.Fairshare == nil {
			continue
		}
		for _, child := range parent.FairshareQueues {
			if child == q.Name {
				return parent.Fairshare, parent
			}
		}
	}
	return q.Fairshare, q
}

// hasDefaultShare reports whether a share assignment gives shares to users
// it does not name: [default, n], [others, n], or a group holding all
// users.
func hasDefaultShare(shares []compile.Share, gs userGroups) bool {
	for _, s := range shares {
		if compile.EveryUser(s.Name) || s.Name == "others" || gs.open(s.Name) {
			return true
		}
	}
	return false
}

// sortedSettingKeys returns the keys of a section's settings, sorted, so
// that findings come out in the same order on every run.
func sortedSettingKeys(set compile.Settings) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
