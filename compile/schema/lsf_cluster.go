package schema

import "github.com/lsfc/lsfc/lang"

// lsfCluster describes lsf.cluster.<cluster_name>: LIM parameters, the
// cluster administrators, the hosts of the cluster, where shared resources
// live, and which remote clusters are recognised. It follows the LSF 10.1
// configuration reference.
var lsfCluster = File{
	Kind: lang.KindLSFCluster,
	Doc:  "Hosts, administrators, resource locations and LIM policies of one cluster.",
	Sections: []Section{
		{
			Name: "Parameters",
			Form: KeyValue,
			Doc:  "Tunes how the LIMs exchange load and run elims.",
			Keys: []Key{
				{
					Name:    "ADJUST_DURATION",
					Type:    Int,
					Default: "3",
					Doc:     "How many EXINTERVAL periods the load added by lsplace or lsloadadj takes to fade back to zero.",
					Notes: []Note{
						{Version: "openlava", Note: "built-in default 2", Default: "2"},
					},
				},
				{
					Name: "ELIMARGS",
					Type: String,
					Doc:  "Command-line arguments handed to elim executables when they start.",
				},
				{
					Name:    "ELIM_ABORT_VALUE",
					Type:    Int,
					Default: "97",
					Doc:     "Exit code by which an elim asks the MELIM not to start it again.",
					Notes: []Note{
						{Version: "openlava", Note: "not read; an unknown key makes openlava skip the whole section"},
					},
				},
				{
					Name:    "ELIM_POLL_INTERVAL",
					Type:    Float,
					Unit:    "seconds",
					Default: "5",
					Range:   "0.001..5",
					Doc:     "How often LIM picks up the external load values gathered by the MELIM.",
				},
				{
					Name:    "EXINTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "15",
					Doc:     "Period of the load exchange between LIMs; values under 5 are raised to 5, and leaving it unset lets LSF tune it.",
					Notes: []Note{
						{Version: "openlava", Note: "a decimal number of seconds, at least 0.001"},
					},
				},
				{
					Name: "FLOAT_CLIENTS",
					Type: Int,
					Doc:  "Number of floating-client licenses the management LIM checks out; unset disables floating clients.",
					Notes: []Note{
						{Version: "openlava", Note: "not read; an unknown key makes openlava skip the whole section"},
					},
				},
				{
					Name:   "FLOAT_CLIENTS_ADDR_RANGE",
					Type:   Special,
					Syntax: "IP_range ... (each field a number, a range a-b, or *; IPv4 or IPv6)",
					Doc:    "Restricts which addresses may act as floating clients.",
					Notes: []Note{
						{Version: "openlava", Note: "not read; an unknown key makes openlava skip the whole section"},
					},
				},
				{
					Name:    "HOST_INACTIVITY_LIMIT",
					Type:    Int,
					Default: "5",
					Doc:     "How many EXINTERVAL periods without a load message make the management LIM mark a host unavailable.",
					Notes: []Note{
						{Version: "openlava", Note: "values under 2 are rejected"},
					},
				},
				{
					Name:    "LSF_ELIM_BLOCKTIME",
					Type:    Duration,
					Unit:    "seconds",
					Default: "4",
					Range:   ">=0",
					Doc:     "How long the MELIM waits for a complete load string from an elim before logging it and restarting the elim (UNIX).",
					Notes: []Note{
						{Version: "6.2", Note: "default 2 seconds"},
					},
				},
				{
					Name: "LSF_ELIM_DEBUG",
					Type: Bool,
					Doc:  "Logs every load string the MELIM receives from elims and restarts elims that send partial strings (UNIX).",
				},
				{
					Name:  "LSF_ELIM_RESTARTS",
					Type:  Int,
					Range: ">=0",
					Doc:   "Caps how often a failing elim is restarted; needs LSF_ELIM_DEBUG or LSF_ELIM_BLOCKTIME (UNIX).",
				},
				{
					Name:   "LSF_HOST_ADDR_RANGE",
					Type:   Special,
					Syntax: "IP_range ... (each field a number, a range a-b, or *; IPv4 or IPv6)",
					Doc:    "Addresses from which dynamic hosts are allowed to join the cluster.",
					Notes: []Note{
						{Version: "openlava", Note: "not read; an unknown key makes openlava skip the whole section"},
					},
				},
				{
					Name:    "MASTER_INACTIVITY_LIMIT",
					Type:    Int,
					Default: "2",
					Doc:     "How many EXINTERVAL periods a server LIM waits for the management LIM before a candidate takes over.",
				},
				{
					Name:    "PROBE_TIMEOUT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "2",
					Doc:     "How long a LIM waits for a reply when probing another host before treating it as unreachable.",
				},
				{
					Name:    "RETRY_LIMIT",
					Type:    Int,
					Default: "2",
					Doc:     "How many EXINTERVAL periods a LIM keeps retrying a silent peer before declaring it unavailable.",
				},
			},
		},
		{
			Name: "ClusterAdmins",
			Form: Either,
			Doc:  "Names the LSF administrators of the cluster.",
			Keys: []Key{
				{
					Name:     "Administrators",
					Type:     Users,
					Syntax:   "user_name | user_group ...",
					Doc:      "Administrator accounts; the first one is the primary administrator who owns the configuration and log files.",
					Required: true,
				},
			},
		},
		{
			Name:        "Host",
			Form:        Table,
			Doc:         "Lists every host of the cluster with its description and LIM load thresholds; without LSF_MASTER_LIST the first host is the management host.",
			LoadIndices: true,
			Keys: []Key{
				{
					Name:     "HOSTNAME",
					Type:     Name,
					Doc:      "Official name of the host as the resolver returns it.",
					Required: true,
				},
				{
					Name:     "model",
					Type:     Name,
					Syntax:   "host_model | !",
					Doc:      "Host model from lsf.shared, or ! to let LIM detect it.",
					Required: true,
				},
				{
					Name:     "type",
					Type:     Name,
					Syntax:   "host_type | !",
					Doc:      "Host type from lsf.shared, or ! to let LIM detect it.",
					Required: true,
				},
				{
					Name:    "server",
					Type:    Enum,
					Default: "1",
					Enum:    []string{"0", "1"},
					Doc:     "1 for a server host that runs jobs, 0 for a client that only submits them.",
					Notes: []Note{
						{Version: "openlava", Note: "also accepts the older column name R"},
					},
				},
				{
					Name: "nd",
					Type: Int,
					Doc:  "Number of local disks, for the rare host where LIM cannot count them itself.",
				},
				{
					Name:   "RUNWINDOW",
					Type:   Window,
					Syntax: "(time_window ...)",
					Doc:    "Times when LIM may place interactive tasks on the host; outside them the host is lockW. Unset means always.",
				},
				{
					Name:    "REXPRI",
					Type:    Int,
					Default: "0",
					Range:   "-20..20",
					Doc:     "Nice value of remote tasks started by RES; lower runs at higher priority.",
				},
				{
					Name:     "RESOURCES",
					Type:     Special,
					Syntax:   "([resource | !resource | resource=value] ...)",
					Doc:      "Static resources of the host: Boolean names, !name for an exclusive resource only jobs asking for it may use, name=value for numeric or string ones.",
					Required: true,
				},
			},
		},
		{
			Name: "ResourceMap",
			Form: Table,
			Doc:  "Says on which hosts each shared or host-level site resource exists.",
			Keys: []Key{
				{
					Name:     "RESOURCENAME",
					Type:     Name,
					Doc:      "A resource declared in the Resource section of lsf.shared.",
					Required: true,
				},
				{
					Name:     "LOCATION",
					Type:     Special,
					Syntax:   "([value@][host_name ... | all [~host_name] ... | others | default] ...)",
					Doc:      "Instances of the resource: each bracket is one instance shared by its hosts; default gives every host its own.",
					Required: true,
				},
			},
		},
		{
			Name: "RemoteClusters",
			Form: Table,
			Doc:  "Limits and tunes the remote clusters this cluster talks to (multicluster capability).",
			Keys: []Key{
				{
					Name: "CLUSTERNAME",
					Type: Name,
					Doc:  "A remote cluster from lsf.shared that this cluster recognises; unlisted ones are ignored.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name:    "EQUIV",
					Type:    Bool,
					Default: "N",
					Doc:     "Y makes lsload, lshosts and lsplace include this cluster without being asked.",
				},
				{
					Name:    "CACHE_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "60",
					Doc:     "How long load information from this cluster is reused from cache; host information lives twice as long.",
				},
				{
					Name:    "RECV_FROM",
					Type:    Bool,
					Default: "Y",
					Doc:     "Whether parallel jobs coming from this cluster are accepted.",
				},
				{
					Name: "AUTH",
					Type: Name,
					Doc:  "Preferred eauth method for daemons talking to this cluster; unset uses privileged ports only.",
				},
			},
		},
	},
}
