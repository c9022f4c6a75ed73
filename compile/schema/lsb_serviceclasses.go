package schema

import "github.com/lsfc/lsfc/lang"

// lsbServiceClasses describes lsb.serviceclasses: service classes, each
// either a goal-oriented SLA (throughput, velocity, deadline) or a consumer
// of guaranteed resource pools. It follows the LSF 10.1 configuration
// reference.
var lsbServiceClasses = File{
	Kind: lang.KindLSBServiceClasses,
	Doc:  "Service-level agreements: goal-oriented service classes and guarantee consumers.",
	Sections: []Section{
		{
			Name:     "ServiceClass",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Defines one service class, its goals and who may submit to it.",
			Keys: []Key{
				{
					Name:   "ACCESS_CONTROL",
					Type:   Special,
					Syntax: "[QUEUES[queue ...]] [USERS[user_name | user_group ...]] [FAIRSHARE_GROUPS[user_group ...]] [APPS[app_profile ...]] [PROJECTS[project ...]] [LIC_PROJECTS[license_project ...]]",
					Doc:    "For guarantee classes, which jobs may use the class; a job must match every listed kind.",
					Since:  "8.0",
				},
				{
					Name:    "AUTO_ATTACH",
					Type:    Bool,
					Default: "N",
					Doc:     "For guarantee classes, Y attaches jobs that pass ACCESS_CONTROL to the class without bsub -sla.",
					Since:   "8.0",
				},
				{
					Name: "CONSUMER",
					Type: Name,
					Doc:  "EGO consumer from which an EGO-enabled SLA receives hosts.",
				},
				{
					Name:   "CONTROL_ACTION",
					Type:   Special,
					Syntax: "VIOLATION_PERIOD[minutes] CMD [action]",
					Doc:    "Command run each time a goal stays missed for the violation period.",
				},
				{
					Name: "DESCRIPTION",
					Type: String,
					Doc:  "Free text shown by bsla, at most 512 characters.",
				},
				{
					Name: "EGO_RESOURCE_GROUP",
					Type: Names,
					Doc:  "EGO resource groups from which an EGO-enabled SLA takes hosts.",
				},
				{
					Name: "EGO_RES_REQ",
					Type: String,
					Doc:  "EGO resource requirement (EGO select syntax, not -R) for hosts given to an EGO-enabled SLA.",
				},
				{
					Name:     "GOALS",
					Type:     Special,
					Syntax:   "[THROUGHPUT number [timeWindow(time_window ...)]] [VELOCITY number [timeWindow(time_window ...)]] [DEADLINE timeWindow(time_window ...)] | [GUARANTEE]",
					Doc:      "Service-level goals, each active in its own time windows, or GUARANTEE for a guarantee consumer.",
					Required: true,
				},
				{
					Name:    "MAX_HOST_IDLE_TIME",
					Type:    Duration,
					Unit:    "seconds",
					Default: "120",
					Doc:     "How long an EGO-enabled SLA keeps an idle host before returning it to EGO.",
				},
				{
					Name: "NAME",
					Type: Name,
					Doc:  "Name of the service class; must not be a host partition or user group name.",
					Notes: []Note{
						{Version: "openlava", Note: "lsb.serviceclasses is not read"},
					},
					Required: true,
				},
				{
					Name: "PRIORITY",
					Type: Int,
					Doc:  "Rank among time-based service classes, higher first; required for them and not allowed with GUARANTEE.",
				},
				{
					Name:    "USER_GROUP",
					Type:    Users,
					Default: "all",
					Syntax:  "all | user_name ... | user_group ...",
					Doc:     "Users and groups allowed to submit to a time-based service class.",
				},
			},
		},
	},
}
