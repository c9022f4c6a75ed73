package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBugroupCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bugroup",
		refused:  bugroupRefusedOptions(),
		options:  groupOptions(),
		short:    "Show the user groups of lsfc serve's configuration",
		operands: "[user_group ...]",
		long: `bugroup shows the user groups of lsb.users, or those named:

  GROUP_NAME    USERS

with each group's members as written, a member group followed by "/" and
an excluded member after "~".

  -r   the users each group holds, member groups expanded, sorted
  -l   one block a group: GROUP_NAME:, USERS: and, when the group has
       USER_SHARES, SHARES: [name, shares] ...
  -w   accepted: names are never cut

A name that is no user group is reported on standard error ("NAME: No
such user group") and bugroup exits 255.` + lsfStateHelp,
		example: `  lsfc bugroup
  bugroup -r chemists`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runGroups(ctx, e, a, "bugroup", "user")
	})
}

// groupOptions returns the options bugroup and bmgroup implement.
func groupOptions() []lsfOption {
	return []lsfOption{{"l", ""}, {"r", ""}, {"w", ""}}
}

// runGroups prints the user groups (kind "user", bugroup) or the host
// groups (kind "host", bmgroup) the operands name, or all of them.
func runGroups(ctx context.Context, e env, a *lsfArgs, name, kind string) error {
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	all, err := c.Groups(ctx, kind)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	groups, missing := pickNamed(all, a.operands, func(g api.Group) string { return g.Name })
	what := kind + " group"
	if kind == "cu" {
		what = "compute unit"
	}
	if len(all) == 0 && len(a.operands) == 0 {
		fmt.Fprintf(e.stderr, "No %s found\n", what)
	} else {
		writeGroups(e.stdout, groups, kind, a.has("r"), a.has("l"))
	}
	for _, n := range missing {
		fmt.Fprintf(e.stderr, "%s: No such %s\n", n, what)
	}
	if len(missing) > 0 {
		return exit(exitLSF, nil)
	}
	return nil
}

// writeGroups prints groups as bugroup (kind "user") or bmgroup (kind
// "host") does: a table of GROUP_NAME and USERS or HOSTS, or with long
// one block a group; expand lists the users or hosts the member groups
// hold instead of the members as written. Compute units (kind "cu",
// bmgroup -cu) have NAME, TYPE and HOSTS.
func writeGroups(w io.Writer, groups []api.Group, kind string, expand, long bool) {
	groups = textSafe(groups)
	what := "USERS"
	if kind != "user" {
		what = "HOSTS"
	}
	members := func(g api.Group) string {
		if expand {
			return strings.Join(g.Expanded, " ")
		}
		return strings.Join(g.Members, " ")
	}
	if long {
		for i, g := range groups {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if kind == "cu" {
				fmt.Fprintf(w, "NAME: %s\nTYPE: %s\n%s: %s\n", g.Name, g.Type, what, members(g))
				continue
			}
			fmt.Fprintf(w, "GROUP_NAME: %s\n%s: %s\n", g.Name, what, members(g))
			if g.Shares != "" {
				fmt.Fprintf(w, "SHARES: %s\n", g.Shares)
			}
		}
		return
	}
	if len(groups) == 0 {
		return
	}
	if kind == "cu" {
		nameW, typeW := len("NAME"), len("TYPE")
		for _, g := range groups {
			nameW, typeW = max(nameW, len(g.Name)), max(typeW, len(g.Type))
		}
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, "NAME", typeW, "TYPE", what)
		for _, g := range groups {
			fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, g.Name, typeW, g.Type, members(g))
		}
		return
	}
	fmt.Fprintf(w, "%-13s %s\n", "GROUP_NAME", what)
	for _, g := range groups {
		fmt.Fprintf(w, "%-13s %s\n", g.Name, members(g))
	}
}

// bugroupRefusedOptions returns the options LSF 10.1 documents for
// bugroup that lsfc does not implement.
func bugroupRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}
