package schema

import "github.com/lsfc/lsfc/lang"

// lsbHosts describes lsb.hosts: per-host batch settings, host groups, host
// partitions for host-level fair share, and compute units. It follows the
// LSF 10.1 configuration reference.
var lsbHosts = File{
	Kind: lang.KindLSBHosts,
	Doc:  "Batch settings of server hosts, host groups, host partitions and compute units.",
	Sections: []Section{
		{
			Name:        "Host",
			Form:        Table,
			Doc:         "Sets slot limits, dispatch windows and load thresholds per host, host model or host type.",
			LoadIndices: true,
			Keys: []Key{
				{
					Name:     "HOST_NAME",
					Type:     Name,
					Syntax:   "host_name | host_name[range] | host_model | host_type | default",
					Doc:      "Host, host model or host type the row applies to; default covers every host not named elsewhere.",
					Required: true,
				},
				{
					Name:    "MXJ",
					Type:    Special,
					Default: "unlimited",
					Syntax:  "integer | !",
					Doc:     "Most job slots the host offers; ! means one per CPU.",
				},
				{
					Name:    "JL/U",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most job slots a single user may hold on the host at once.",
				},
				{
					Name:  "EXIT_RATE",
					Type:  Int,
					Range: ">0",
					Doc:   "Exited jobs per minute, over JOB_EXIT_RATE_DURATION, above which eadmin is run for a host exception; overrides GLOBAL_EXIT_RATE.",
					Notes: []Note{
						{Version: "6.2", Note: "rate measured over 10 minutes"},
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name:   "DISPATCH_WINDOW",
					Type:   Window,
					Syntax: "(time_window ...)",
					Doc:    "Times when new jobs may start on the host; running jobs are left alone when it closes. Unset means always open.",
				},
				{
					Name: "MIG",
					Type: Duration,
					Unit: "minutes",
					Doc:  "Minutes a checkpointable or rerunnable job may stay suspended here before it is migrated; the lower of host and queue wins.",
				},
				{
					Name:   "AFFINITY",
					Type:   Special,
					Syntax: "Y | y | N | n | cpu_list",
					Doc:    "Whether the host accepts CPU and memory affinity jobs, optionally naming the CPUs they may use.",
					Since:  "9.1",
					Notes: []Note{
						{Version: "openlava", Note: "Y or N only; enables CPU binding"},
					},
				},
			},
		},
		{
			Name: "HostGroup",
			Form: Table,
			Doc:  "Defines named groups of hosts usable wherever a host list is expected.",
			Keys: []Key{
				{
					Name:     "GROUP_NAME",
					Type:     Name,
					Doc:      "Name of the host group; must not be all, default, others or an existing host name.",
					Required: true,
				},
				{
					Name:     "GROUP_MEMBER",
					Type:     Special,
					Syntax:   "([~]host_name | [~]host_group | all | name* | name[a-b,c] ... | !)",
					Doc:      "Members: hosts, earlier groups, all, ~exclusions, wildcards and numeric ranges, or ! to ask egroup.",
					Required: true,
				},
				{
					Name:    "CONDENSE",
					Type:    Bool,
					Default: "N",
					Doc:     "Y shows the group as a single entry in bhosts and bjobs output.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name:   "GROUP_ADMIN",
					Type:   Users,
					Syntax: "(user_name | user_group ...)",
					Doc:    "Users allowed to open and close the member hosts of this group.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
			},
		},
		{
			Name:     "HostPartition",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Defines one host partition with its own fair-share tree.",
			Keys: []Key{
				{
					Name:     "HOSTS",
					Type:     Hosts,
					Syntax:   "all | [~]host_name ... | [~]host_group ...",
					Doc:      "Hosts of the partition; a host may belong to one partition only.",
					Required: true,
				},
				{
					Name:     "HPART_NAME",
					Type:     Name,
					Doc:      "Name of the host partition.",
					Required: true,
				},
				{
					Name:     "USER_SHARES",
					Type:     Special,
					Syntax:   "[user, number_shares] ... (user: user_name, user_group, group@, default or others)",
					Doc:      "Share assignments that drive fair-share dispatch on the partition's hosts.",
					Required: true,
				},
			},
		},
		{
			Name: "ComputeUnit",
			Form: Table,
			Doc:  "Builds a hierarchy of compute units (enclosures, racks ...) for topology-aware placement.",
			Keys: []Key{
				{
					Name:  "NAME",
					Type:  Name,
					Doc:   "Name of the compute unit; must differ from host and host group names.",
					Since: "7.0.5",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name:     "MEMBER",
					Type:     Special,
					Syntax:   "([~]host_name | [~]host_group | [~]compute_unit | name* | name[a-b,c] ... | !)",
					Doc:      "Members: hosts and host groups for the finest type, otherwise compute units of the next finer type.",
					Since:    "7.0.5",
					Required: true,
				},
				{
					Name:     "TYPE",
					Type:     Name,
					Doc:      "Compute unit type, one of COMPUTE_UNIT_TYPES in lsb.params.",
					Since:    "7.0.5",
					Required: true,
				},
				{
					Name:    "CONDENSE",
					Type:    Bool,
					Default: "N",
					Doc:     "Y shows the compute unit as a single entry in bhosts and bjobs output.",
					Since:   "7.0.5",
				},
				{
					Name:   "ADMIN",
					Type:   Users,
					Syntax: "(user_name | user_group ...)",
					Doc:    "Users allowed to open and close the hosts of this compute unit.",
				},
			},
		},
	},
}
