package main

import (
	"context"
)

func newBmgroupCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bmgroup",
		refused:  bmgroupRefusedOptions(),
		options:  append(groupOptions(), lsfOption{"cu", ""}),
		short:    "Show the host groups of lsfc serve's configuration",
		operands: "[host_group ...]",
		long: `bmgroup shows the host groups of lsb.hosts (compute units left out), or
those named:

  GROUP_NAME    HOSTS

with each group's members as written, a member group followed by "/" and
an excluded member after "~".

  -r   the hosts each group holds, member groups, wildcards and
       exclusions resolved, sorted
  -l   one block a group: GROUP_NAME: and HOSTS:
  -w   accepted: names are never cut

  -cu  the compute units of lsb.hosts instead (ComputeUnit section):

       NAME  TYPE  HOSTS

       with each unit's type and members, a member unit or host group
       followed by "/" (-r: the hosts it holds)

A name that is no host group is reported on standard error ("NAME: No
such host group", with -cu "NAME: No such compute unit") and bmgroup
exits 255.` + lsfStateHelp,
		example: `  lsfc bmgroup
  bmgroup -r gpu_hosts
  bmgroup -cu -r rack1`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if a.has("cu") {
			return runGroups(ctx, e, a, "bmgroup", "cu")
		}
		return runGroups(ctx, e, a, "bmgroup", "host")
	})
}

// bmgroupRefusedOptions returns the options LSF 10.1 documents for
// bmgroup that lsfc does not implement.
func bmgroupRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}
