package schema

import "github.com/lsfc/lsfc/lang"

// lsfShared describes lsf.shared: the cluster names, host types, host models
// and resource declarations that every cluster of an installation shares. It
// follows the LSF 10.1 configuration reference; all of its sections are
// tables.
var lsfShared = File{
	Kind: lang.KindLSFShared,
	Doc:  "Cluster names, host types, host models and site resources common to all clusters.",
	Sections: []Section{
		{
			Name: "Cluster",
			Form: Table,
			Doc:  "Names the clusters this installation knows, one row per cluster.",
			Keys: []Key{
				{
					Name: "ClusterName",
					Type: Name,
					Doc:  "Name of a cluster; the local one must have a matching lsf.cluster.<name> file.",
					Notes: []Note{
						{Version: "openlava", Note: "only the first row is read; later rows are ignored with a message"},
					},
					Required: true,
				},
				{
					Name:   "Servers",
					Type:   Names,
					Syntax: "(host_name[:port] ...)",
					Doc:    "Hosts of that cluster whose LIM remote clusters may query; needed with the multicluster capability. lsfc reaches the cluster's daemon at the first that answers; without a port, at the local LSB_MBD_PORT.",
				},
			},
		},
		{
			Name: "HostType",
			Form: Table,
			Doc:  "Lists the host types, each a set of binary-compatible platforms.",
			Keys: []Key{
				{
					Name:     "TYPENAME",
					Type:     Name,
					Doc:      "A host type name, at most 39 characters, usually built from the OS and CPU architecture.",
					Required: true,
				},
			},
		},
		{
			Name: "HostModel",
			Form: Table,
			Doc:  "Lists host models with their relative CPU speed.",
			Keys: []Key{
				{
					Name:     "MODELNAME",
					Type:     Name,
					Doc:      "A host model name, at most 39 characters.",
					Required: true,
				},
				{
					Name:     "CPUFACTOR",
					Type:     Float,
					Range:    ">0",
					Doc:      "Speed of one CPU of this model relative to the others; scales CPU time limits and load.",
					Required: true,
				},
				{
					Name:   "ARCHITECTURE",
					Type:   Names,
					Syntax: "(architecture_string ...)",
					Doc:    "Architecture strings reported by lim that map a detected host to this model.",
					Notes: []Note{
						{Version: "openlava", Note: "column optional"},
					},
					Required: true,
				},
			},
		},
		{
			Name: "Resource",
			Form: Table,
			Doc:  "Declares site-defined resources and external load indices.",
			Keys: []Key{
				{
					Name:     "RESOURCENAME",
					Type:     Name,
					Doc:      "Name of the resource; must not clash with a built-in index or a keyword of the -R language.",
					Required: true,
				},
				{
					Name: "TYPE",
					Type: Enum,
					Enum: []string{"Boolean", "Numeric", "String"},
					Doc:  "Value kind of the resource.",
					Notes: []Note{
						{Version: "openlava", Note: "a missing value means Boolean; ! marks an elim-provided resource"},
					},
				},
				{
					Name: "INTERVAL",
					Type: Duration,
					Unit: "seconds",
					Doc:  "Refresh period of a dynamic resource reported by an elim; leave empty for a static resource.",
				},
				{
					Name: "INCREASING",
					Type: Bool,
					Doc:  "For a numeric resource, Y when a larger value means a busier host.",
					Notes: []Note{
						{Version: "openlava", Note: "required for every Numeric resource"},
					},
				},
				{
					Name: "CONSUMABLE",
					Type: Bool,
					Doc:  "For a numeric resource, whether jobs use it up so that it may appear in rusage; numeric site resources default to Y.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name:    "RELEASE",
					Type:    Bool,
					Default: "Y",
					Doc:     "For a shared numeric resource, whether a suspended job gives back what it reserved.",
				},
				{
					Name: "DESCRIPTION",
					Type: String,
					Doc:  "Free text shown by lsinfo; written in parentheses when it has blanks.",
				},
			},
		},
	},
}
