package schema

import "github.com/lsfc/lsfc/lang"

// lsbResources describes lsb.resources: resource allocation limits,
// guaranteed resource pools, multicluster host and shared-resource exports,
// advance reservation policies, per-resource reservation methods and power
// policies. It follows the LSF 10.1 configuration reference.
var lsbResources = File{
	Kind: lang.KindLSBResources,
	Doc:  "Resource allocation limits, guarantees, exports, reservation policies and power policies.",
	Sections: []Section{
		{
			Name:     "Limit",
			Form:     Either,
			Multiple: true,
			Doc:      "Caps how much of some resources a set of consumers may use at once; a key and its PER_ form exclude each other.",
			Keys: []Key{
				{
					Name:   "APPS",
					Type:   Names,
					Syntax: "all | [~]app_profile ... | all ~app_profile ...",
					Doc:    "Application profiles whose jobs share the limit as one consumer.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ELIGIBLE_PEND_JOBS",
					Type:  Int,
					Range: ">=0",
					Doc:   "Most eligible pending jobs the consumers may have; extra jobs wait as ineligible.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "HOSTS",
					Type:   Hosts,
					Syntax: "all | [~]host_name ... | [~]host_group ... | all ~host_name ...",
					Doc:    "Hosts whose use counts toward the limit as a whole.",
				},
				{
					Name:    "INELIGIBLE",
					Type:    Bool,
					Default: "N",
					Doc:     "Y puts jobs blocked by this limit into the ineligible pending state so their priority does not grow.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOBS",
					Type:  Int,
					Range: ">=0",
					Doc:   "Most running and suspended jobs the consumers may have.",
					Notes: []Note{
						{Version: "openlava", Note: "also accepts a list of [number time_window] pairs"},
					},
				},
				{
					Name:  "JOBS_PER_SCHED_CYCLE",
					Type:  Int,
					Range: ">=0",
					Doc:   "Most jobs of the consumers that may be dispatched in one scheduling cycle.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "LIC_PROJECTS",
					Type:   Names,
					Syntax: "all | [~]license_project ...",
					Doc:    "License Scheduler projects whose jobs share the limit as one consumer.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MEM",
					Type:   Special,
					Unit:   "MB",
					Syntax: "integer[%] (a percentage only together with PER_HOST)",
					Doc:    "Memory the consumers may reserve, in MB or the unit of LSF_UNIT_FOR_LIMITS, or a share of each host's memory.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "NAME",
					Type: Name,
					Doc:  "Name of the limit shown by blimits; letters, digits, _ and -, at most 40 characters.",
					Notes: []Note{
						{Version: "openlava", Note: "Limit sections must use the key = value form"},
					},
				},
				{
					Name:   "PER_APP",
					Type:   Names,
					Syntax: "all | [~]app_profile ...",
					Doc:    "Application profiles that each get their own copy of the limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "PER_HOST",
					Type:   Hosts,
					Syntax: "all | [~]host_name ... | [~]host_group ...",
					Doc:    "Hosts that each get their own copy of the limit; a group stands for each of its members.",
				},
				{
					Name:   "PER_LIC_PROJECT",
					Type:   Names,
					Syntax: "all | [~]license_project ...",
					Doc:    "License Scheduler projects that each get their own copy of the limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "PER_PROJECT",
					Type:   Names,
					Syntax: "all | [~]project ...",
					Doc:    "Projects that each get their own copy of the limit.",
				},
				{
					Name:   "PER_QUEUE",
					Type:   Names,
					Syntax: "all | [~]queue_name ...",
					Doc:    "Queues that each get their own copy of the limit.",
				},
				{
					Name:   "PER_USER",
					Type:   Users,
					Syntax: "all | [~]user_name ... | [~]user_group ...",
					Doc:    "Users that each get their own copy of the limit; a group stands for each of its members.",
				},
				{
					Name:   "PROJECTS",
					Type:   Names,
					Syntax: "all | [~]project ... | all ~project ...",
					Doc:    "Projects whose jobs share the limit as one consumer.",
				},
				{
					Name:   "QUEUES",
					Type:   Names,
					Syntax: "all | [~]queue_name ... | all ~queue_name ...",
					Doc:    "Queues whose jobs share the limit as one consumer.",
				},
				{
					Name:   "RESOURCE",
					Type:   Special,
					Syntax: "[resource_name, number] ...",
					Doc:    "Amounts of shared or host-based numeric resources the consumers may reserve.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "SLOTS",
					Type:  Int,
					Range: ">=0",
					Doc:   "Most job slots the consumers may occupy at once; excludes SLOTS_PER_PROCESSOR.",
					Notes: []Note{
						{Version: "openlava", Note: "also accepts a list of [number time_window] pairs"},
					},
				},
				{
					Name:  "SLOTS_PER_PROCESSOR",
					Type:  Float,
					Range: ">0",
					Doc:   "Slots allowed per processor on each host the limit covers; used with PER_HOST and instead of SLOTS.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SWP",
					Type:   Special,
					Unit:   "MB",
					Syntax: "integer[%] (a percentage only together with PER_HOST)",
					Doc:    "Swap space the consumers may reserve, in MB or the unit of LSF_UNIT_FOR_LIMITS, or a share of each host's swap.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "TMP",
					Type:   Special,
					Unit:   "MB",
					Syntax: "integer[%] (a percentage only together with PER_HOST)",
					Doc:    "Space in /tmp the consumers may reserve, in MB (other units only with LSF_ENABLE_TMP_UNIT), or a share of each host's.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "USERS",
					Type:   Users,
					Syntax: "all | [~]user_name ... | [~]user_group ... | all ~user_name ...",
					Doc:    "Users whose jobs share the limit as one consumer.",
				},
			},
		},
		{
			Name:     "GuaranteedResourcePool",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Defines a pool of hosts, slots, packages or licenses reserved for service classes, with its loan policy.",
			Keys: []Key{
				{
					Name:  "DESCRIPTION",
					Type:  String,
					Doc:   "Free text shown by bresources -g -l.",
					Since: "8.0",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
				},
				{
					Name:     "DISTRIBUTION",
					Type:     Special,
					Syntax:   "([service_class, amount[%]] ...)",
					Doc:      "How much of the pool each guarantee service class is promised, as a count or a percentage.",
					Since:    "8.0",
					Required: true,
				},
				{
					Name:   "HOSTS",
					Type:   Hosts,
					Syntax: "all | [~]host_name ... | [~]host_group ...",
					Doc:    "Hosts the pool may draw from, for host, slot and package pools.",
					Since:  "8.0",
				},
				{
					Name:   "LOAN_POLICIES",
					Type:   Special,
					Syntax: "QUEUES[queue_name ... | all] [CLOSE_ON_DEMAND] [DURATION[minutes]] [RETAIN[amount[%]]]",
					Doc:    "Which queues may borrow unused guaranteed resources, for how long, and how much is held back.",
					Since:  "8.0",
				},
				{
					Name:     "NAME",
					Type:     Name,
					Doc:      "Name of the guaranteed resource pool.",
					Since:    "8.0",
					Required: true,
				},
				{
					Name:  "RES_SELECT",
					Type:  ResReq,
					Doc:   "Select string a host must satisfy to be part of the pool.",
					Since: "8.0",
				},
				{
					Name:  "SLOTS_PER_HOST",
					Type:  Int,
					Range: ">0",
					Doc:   "Most slots the pool may take from any one host, for slot pools.",
					Since: "8.0",
				},
				{
					Name:     "TYPE",
					Type:     Special,
					Syntax:   "hosts | slots | package[slots=number:mem=amount] | resource[resource_name]",
					Doc:      "What the pool guarantees: whole hosts, slots, packages of slots and memory, or a License Scheduler resource.",
					Since:    "8.0",
					Required: true,
				},
			},
		},
		{
			Name:     "HostExport",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Lends hosts or parts of hosts to consumer clusters under the resource leasing model.",
			Keys: []Key{
				{
					Name:   "DISTRIBUTION",
					Type:   Special,
					Syntax: "([cluster_name, number_shares] ...)",
					Doc:    "Consumer clusters that may lease the exported resources and their shares.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name: "MEM",
					Type: Memory,
					Unit: "MB",
					Doc:  "Memory per host made available to the leasing clusters.",
				},
				{
					Name:  "NHOSTS",
					Type:  Int,
					Range: ">0",
					Doc:   "Number of hosts matching RES_SELECT to export.",
				},
				{
					Name:   "PER_HOST",
					Type:   Names,
					Syntax: "host_name ...",
					Doc:    "Named hosts to export; use either this or RES_SELECT with NHOSTS.",
				},
				{
					Name: "RES_SELECT",
					Type: ResReq,
					Doc:  "Select string that chooses which hosts to export.",
				},
				{
					Name:  "SLOTS",
					Type:  Int,
					Range: ">0",
					Doc:   "Job slots per host made available to the leasing clusters.",
				},
				{
					Name: "SWAP",
					Type: Memory,
					Unit: "MB",
					Doc:  "Swap space per host made available to the leasing clusters.",
				},
				{
					Name: "TYPE",
					Type: Enum,
					Enum: []string{"shared"},
					Doc:  "shared exports each host to several consumer clusters instead of leasing it exclusively.",
				},
			},
		},
		{
			Name:     "SharedResourceExport",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Lends instances of a shared resource to consumer clusters under the resource leasing model.",
			Keys: []Key{
				{
					Name:   "DISTRIBUTION",
					Type:   Special,
					Syntax: "([cluster_name, number_shares] ...)",
					Doc:    "Consumer clusters that may lease the resource and their shares.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name:     "NAME",
					Type:     Name,
					Doc:      "Shared resource to export, as declared in lsf.shared.",
					Required: true,
				},
				{
					Name:     "NINSTANCES",
					Type:     Int,
					Range:    ">0",
					Doc:      "How many instances of the resource to export.",
					Required: true,
				},
			},
		},
		{
			Name:     "ResourceReservation",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Lets named users create advance reservations on named hosts during given times.",
			Keys: []Key{
				{
					Name:   "HOSTS",
					Type:   Hosts,
					Syntax: "all | [~]host_name ... | [~]host_group ...",
					Doc:    "Hosts on which the users may reserve.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
				},
				{
					Name:     "NAME",
					Type:     Name,
					Doc:      "Name of the reservation policy.",
					Required: true,
				},
				{
					Name:   "TIME_WINDOW",
					Type:   Window,
					Syntax: "time_window ...",
					Doc:    "Times inside which reservations may begin and end; unset means any time.",
				},
				{
					Name:   "USERS",
					Type:   Users,
					Syntax: "all | [~]user_name ... | [~]user_group ...",
					Doc:    "Users and groups, besides administrators, allowed to create reservations.",
				},
			},
		},
		{
			Name: "ReservationUsage",
			Form: Table,
			Doc:  "Chooses per resource how a parallel job's rusage is reserved and whether pending jobs hold it.",
			Keys: []Key{
				{
					Name: "RESOURCE",
					Type: Name,
					Doc:  "A consumable numeric resource, built-in or declared in lsf.shared.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name: "METHOD",
					Type: Enum,
					Enum: []string{"PER_JOB", "PER_HOST", "PER_TASK"},
					Doc:  "Whether the rusage amount is reserved once per job, once per host or once per task; - for mem, swp or tmp with RESERVE=Y.",
				},
				{
					Name:    "RESERVE",
					Type:    Bool,
					Default: "N",
					Doc:     "Y lets a pending job hold the resource while it waits for others to free up.",
				},
			},
		},
		{
			Name:     "PowerPolicy",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Puts idle hosts into a power-saving state during given times (energy-aware scheduling).",
			Keys: []Key{
				{
					Name: "CYCLE_TIME",
					Type: Duration,
					Unit: "minutes",
					Doc:  "Shortest time between two power-state changes of a host.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
				},
				{
					Name:   "HOSTS",
					Type:   Hosts,
					Syntax: "all | [~]host_name ... | [~]host_group ...",
					Doc:    "Hosts, host groups, partitions or compute units the policy governs; unset takes every host no other policy names, except management candidates.",
				},
				{
					Name:    "MIN_IDLE_TIME",
					Type:    Duration,
					Unit:    "minutes",
					Default: "0",
					Doc:     "How long a host must stay idle inside TIME_WINDOW before it is suspended.",
				},
				{
					Name:     "NAME",
					Type:     Name,
					Doc:      "Unique name of the power policy, at most 60 characters.",
					Required: true,
				},
				{
					Name:   "TIME_WINDOW",
					Type:   Window,
					Syntax: "time_window ...",
					Doc:    "Times when the policy applies; hosts wake up when it closes. Unset means always.",
				},
			},
		},
	},
}
