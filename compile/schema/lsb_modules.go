package schema

import "github.com/lsfc/lsfc/lang"

// lsbModules describes lsb.modules: the scheduler plugins mbschd loads, in
// the order it calls them. It follows the LSF 10.1 configuration reference.
var lsbModules = File{
	Kind: lang.KindLSBModules,
	Doc:  "Scheduler plugin modules loaded by mbschd and the order in which they run.",
	Sections: []Section{
		{
			Name: "PluginModule",
			Form: Table,
			Doc:  "Lists the scheduler plugins, one row per module, in calling order; schmod_default comes first.",
			Keys: []Key{
				{
					Name:   "SCH_PLUGIN",
					Type:   Name,
					Syntax: "schmod_name",
					Doc:    "Scheduler plugin to load, by file name without the .so suffix, from LSF_LIBDIR.",
					Notes: []Note{
						{Version: "openlava", Note: "lsb.modules is not read"},
					},
					Required: true,
				},
				{
					Name: "RB_PLUGIN",
					Type: Name,
					Doc:  "Resource broker plugin paired with the scheduler plugin; () when it has none.",
				},
				{
					Name:   "SCH_DISABLE_PHASES",
					Type:   Special,
					Syntax: "(phase ...)",
					Doc:    "Scheduling phases in which the plugin is not called; () keeps every phase.",
				},
			},
		},
	},
}
