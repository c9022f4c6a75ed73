package schema

import "github.com/lsfc/lsfc/lang"

// lsbUsers describes lsb.users: user groups with their fair-share shares and
// administrators, per-user and per-group job limits, and multicluster account
// mapping. It follows the LSF 10.1 configuration reference.
var lsbUsers = File{
	Kind: lang.KindLSBUsers,
	Doc:  "User groups, hierarchical fair-share shares, per-user job limits and multicluster account maps.",
	Sections: []Section{
		{
			Name: "UserGroup",
			Form: Table,
			Doc:  "Defines named groups of users, at most 1024, with optional shares and administrators.",
			Keys: []Key{
				{
					Name:     "GROUP_NAME",
					Type:     Name,
					Doc:      "Name of the user group; must not be a reserved word or an existing user login.",
					Required: true,
				},
				{
					Name:     "GROUP_MEMBER",
					Type:     Special,
					Syntax:   "(user_name | user_group | all ... | !)",
					Doc:      "Members: users and earlier groups, all, or ! to ask the egroup program.",
					Required: true,
				},
				{
					Name:   "USER_SHARES",
					Type:   Special,
					Syntax: "([user, number_shares] ...) (user: a member user or group, or default)",
					Doc:    "Shares of the members inside this group, building the hierarchical fair-share tree.",
				},
				{
					Name:   "GROUP_ADMIN",
					Type:   Special,
					Syntax: "(user_name[rights] | user_group[rights] ...) (rights: full or usershares)",
					Doc:    "Administrators of the group; a bracketed right widens what they may change.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name: "PRIORITY",
					Type: Int,
					Doc:  "Priority of the group, read by the user-group factor of absolute priority scheduling.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
			},
		},
		{
			Name: "User",
			Form: Table,
			Doc:  "Sets job slot and pending-job limits per user or per user group.",
			Keys: []Key{
				{
					Name:     "USER_NAME",
					Type:     Name,
					Syntax:   "user_name | user_group | user_group@ | default",
					Doc:      "User or group the row limits; group@ applies the limits to each member, default to every other user.",
					Required: true,
				},
				{
					Name:    "MAX_JOBS",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most job slots the user or group may use at once across the cluster.",
				},
				{
					Name:    "JL/P",
					Type:    Float,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most job slots per processor the user or group may use on any one host.",
				},
				{
					Name:    "MAX_PEND_JOBS",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most pending jobs the user or group may have; further submissions are rejected.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name:    "MAX_PEND_SLOTS",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most slots that pending jobs of the user or group may ask for in total.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
				{
					Name: "PRIORITY",
					Type: Int,
					Doc:  "Priority of the user, read by the user factor of absolute priority scheduling.",
					Notes: []Note{
						{Version: "openlava", Note: "column not supported"},
					},
				},
			},
		},
		{
			Name: "UserMap",
			Form: Table,
			Doc:  "Maps local accounts to accounts of remote clusters (multicluster capability).",
			Keys: []Key{
				{
					Name:   "LOCAL",
					Type:   Users,
					Syntax: "(user_name | user_group ...)",
					Doc:    "Local users or groups taking part in the mapping.",
					Notes: []Note{
						{Version: "openlava", Note: "section not supported"},
					},
					Required: true,
				},
				{
					Name:     "REMOTE",
					Type:     Special,
					Syntax:   "(user_name@cluster_name | user_group@cluster_name ...)",
					Doc:      "Accounts in remote clusters that correspond to the local ones.",
					Required: true,
				},
				{
					Name:     "DIRECTION",
					Type:     Enum,
					Enum:     []string{"export", "import"},
					Doc:      "export lets local users run as the remote accounts; import lets remote users run as the local ones.",
					Required: true,
				},
			},
		},
	},
}
