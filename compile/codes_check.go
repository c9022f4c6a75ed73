package compile

import "github.com/lsfc/lsfc/lang"

// The codes of keys and values (LSF2xx) and of references across files
// (LSF306 onwards) that Compile reports.
const (
	CodeUnknownKey         lang.Code = "LSF201" // a key its section does not define
	CodeBadValue           lang.Code = "LSF202" // a value that cannot be read
	CodeOutOfRange         lang.Code = "LSF203" // a number outside its documented range
	CodeUnknownSection     lang.Code = "LSF204" // a section its file does not define
	CodeMisplacedKey       lang.Code = "LSF205" // a key of another section or file
	CodeMissingKey         lang.Code = "LSF206" // a required key or column is missing
	CodeRepeatedKey        lang.Code = "LSF207" // a key set twice in one section
	CodeObsolete           lang.Code = "LSF208" // an obsolete key, or one the dialect lacks
	CodeConflict           lang.Code = "LSF209" // settings that exclude each other
	CodeReservedName       lang.Code = "LSF210" // a name LSF reserves
	CodeSectionForm        lang.Code = "LSF211" // a table where key = value lines belong, or the reverse
	CodeExceptWithoutAll   lang.Code = "LSF212" // requeue exit values with ~code but no all
	CodeUnknownHost        lang.Code = "LSF306" // no such host or host group
	CodeUnknownQueue       lang.Code = "LSF307" // no such queue
	CodeUnknownCluster     lang.Code = "LSF308" // a cluster lsf.shared does not declare
	CodeUnknownUserGroup   lang.Code = "LSF309" // no such user group
	CodeDuplicate          lang.Code = "LSF310" // a name defined twice
	CodeCycle              lang.Code = "LSF311" // a group that contains itself
	CodeSlotPool           lang.Code = "LSF312" // a slot pool that cannot work as written
	CodeUndeclaredResource lang.Code = "LSF313" // a resource lsf.shared does not declare
	CodeUnknownModel       lang.Code = "LSF314" // no such host model, host type or compute unit type
	CodeUnknownApp         lang.Code = "LSF315" // no such application profile
)

// checkCodes documents the codes above.
func checkCodes() []lang.CodeInfo {
	return []lang.CodeInfo{
		{Code: CodeUnknownKey, Name: "unknown-key", Severity: lang.Warning,
			Summary: "a key that its section does not define",
			Doc: `What it finds: a KEY = value line, or a table column, whose key the
section does not define in LSF 10.1, with the closest known key when one is
near.

Why it matters: LSF skips unknown keys with a message in the daemon log, so
a misspelt key silently leaves the default in force.

Example: PREEMPTON = PREEMPTIVE[low] in a Queue section.

Fix: correct the spelling (the message suggests one), or remove the line.`},
		{Code: CodeBadValue, Name: "bad-value", Severity: lang.Error,
			Summary: "a value that cannot be read as its key's type",
			Doc: `What it finds: a value that does not follow its key's syntax: a word where
a number belongs, Y or N misspelt, a time window, limit, threshold, memory
amount, PREEMPTION, FAIRSHARE or SNDJOBS_TO list that does not parse.

Why it matters: LSF rejects the value, and often the whole queue or section
with it, when the daemons read the file.

Example: RUNLIMIT = 1h30 (write 1:30 or 90).

Fix: write the value as the message describes.`},
		{Code: CodeOutOfRange, Name: "out-of-range", Severity: lang.Error,
			Summary: "a number outside the range LSF documents for its key",
			Doc: `What it finds: a number below or above the documented bounds of its key, a
limit whose default exceeds its maximum, or a ut threshold written as a
percentage where LSF 10.1 expects a fraction.

Why it matters: LSF replaces an out-of-range value by the default, so the
setting the administrator wrote is not the one in force.

Example: SLOT_SHARE = 150 (the range is 1 to 100).

Fix: choose a value inside the range the message gives.`},
		{Code: CodeUnknownSection, Name: "unknown-section", Severity: lang.Warning,
			Summary: "a section its file does not define",
			Doc: `What it finds: a Begin/End section whose name the file does not define,
with the closest section name, or the file it belongs to.

Why it matters: LSF skips the whole section.

Example: Begin HostGroups in lsb.hosts (the section is HostGroup).

Fix: rename the section, or move it to the file the message names.`},
		{Code: CodeMisplacedKey, Name: "misplaced-key", Severity: lang.Warning,
			Summary: "a key written in another file or section than its own",
			Doc: `What it finds: a key that LSF defines, but in another file or section than
the one it is written in.

Why it matters: LSF ignores the key where it is, so the setting has no
effect.

Example: MC_PLUGIN_REMOTE_RESOURCE = y in lsb.params (it is an lsf.conf
parameter).

Fix: move the line to the file and section the message names.`},
		{Code: CodeMissingKey, Name: "missing-key", Severity: lang.Error,
			Summary: "a section without a key or column it requires",
			Doc: `What it finds: a section without a key it must have (a Queue without
QUEUE_NAME, an Application without NAME), a table without a required column,
or a Limit that sets no limit at all.

Why it matters: LSF ignores the section, so the queue, profile or limit does
not exist.

Example: a Queue section with PRIORITY and HOSTS but no QUEUE_NAME.

Fix: add the key the message names.`},
		{Code: CodeRepeatedKey, Name: "repeated-key", Severity: lang.Warning,
			Summary: "a key set twice in one section",
			Doc: `What it finds: the same key twice in one section (outside alternative #if
branches), with a note on the first line.

Why it matters: LSF keeps one value and drops the other without saying so;
the line a reader sees first is not the one in force.

Example: two RUNLIMIT lines in one queue.

Fix: delete one of the lines.`},
		{Code: CodeObsolete, Name: "obsolete-key", Severity: lang.Warning,
			Summary: "a key that is obsolete, or that the chosen dialect does not support",
			Doc: `What it finds: a key that LSF documents as obsolete or replaced, or, with
--dialect openlava, a key or value that openlava does not read (such as
PREEMPTABLE, which openlava ignores: it supports PREEMPTIVE only).

Why it matters: the key may stop working in the next upgrade, or does nothing
in the scheduler the configuration is for.

Example: PROCLIMIT = 4 in an application profile (replaced by TASKLIMIT in
LSF 10.1).

Fix: use the replacement the message names, or remove the key.`},
		{Code: CodeConflict, Name: "conflict", Severity: lang.Error,
			Summary: "settings that exclude each other, or that LSF ignores together",
			Doc: `What it finds: combinations LSF documents as exclusive or ineffective:
PROCLIMIT with TASKLIMIT, FAIRSHARE_QUEUES without FAIRSHARE, a queue in two
cross-queue fairshare sets, host-partition fairshare beside queue fairshare,
a host in two partitions, BACKFILL in a preemptable queue, SNDJOBS_TO to the
local cluster, ~exclusions with nothing to exclude from, EXCLUSIVE=CU[]
without compute units, APS_PRIORITY beside FAIRSHARE_QUEUES (which APS
ignores), the FS factor of APS_PRIORITY in a queue without FAIRSHARE.

Why it matters: LSF rejects one of the settings or silently ignores it.

Example: FAIRSHARE_QUEUES = short in a queue without FAIRSHARE.

Fix: keep one of the settings, as the message explains.`},
		{Code: CodeReservedName, Name: "reserved-name", Severity: lang.Error,
			Summary: "a name LSF reserves for itself",
			Doc: `What it finds: a site resource whose name LSF refuses: one of its
reserved names (built-in resources and load indices, their aliases, local,
dchost, jobvm), a define_ncpus_* resource (procs, cores, threads, sockets)
declared other than Boolean, a name that begins with a digit or with
inf or nan, holds one of : . ( ) [ ] + - * / ! & | < > @ = , or is longer
than 39 characters; or a host group named all, others or default.

Why it matters: LSF refuses the definition, or every reference to the name
means LSF's own meaning instead.

Example: a Numeric resource named mem in lsf.shared.

Fix: choose another name.`},
		{Code: CodeSectionForm, Name: "section-form", Severity: lang.Error,
			Summary: "a section written as a table where KEY = value lines belong, or the reverse",
			Doc: `What it finds: a table (header and rows) in a section that takes KEY = value
lines, such as Queue, or KEY = value lines in a table section, such as
HostGroup.

Why it matters: LSF cannot read the section and skips it.

Example: Begin HostGroup followed by GROUP_NAME = linux.

Fix: rewrite the section in the form the message names.`},
		{Code: CodeExceptWithoutAll, Name: "requeue-except-without-all", Severity: lang.Error,
			Summary: "requeue exit values exclude a code with ~ but do not give all",
			Doc: `What it finds: REQUEUE_EXIT_VALUES, in a queue of lsb.queues or a profile
of lsb.applications, that writes ~code without the keyword all. LSF reads
the values as "[all] [~code ...] | [code ...]": ~code takes a code out of
all, and means nothing on its own.

Why it matters: the value names no exit code to requeue on, and the
author's intent cannot be told: lsfc serve, simulate and check refuse the
configuration, as bsub -Q refuses the same values.

Example: REQUEUE_EXIT_VALUES = ~3 (meant: requeue on any failure but 3).

Fix: write all before the ~codes (REQUEUE_EXIT_VALUES = all ~3), or list
the codes that requeue (REQUEUE_EXIT_VALUES = 3) if that was meant.`},
		{Code: CodeUnknownHost, Name: "unknown-host", Severity: lang.Error,
			Summary: "a host or host group that the cluster does not define",
			Doc: `What it finds: a name in HOSTS, GROUP_MEMBER, LOCATION, a Host row of
lsb.hosts or a limit that is neither a host of lsf.cluster nor a host group
of lsb.hosts (nor a keyword such as all or others), a wildcard or range that
matches no host, or a host list that leaves a queue without hosts. With
dynamic hosts enabled in lsf.conf, unknown hosts are warnings.

Why it matters: LSF drops the name with a log message; a queue may end up
on fewer hosts than intended, or on none.

Example: HOSTS = linux_host (the group is linux_hosts).

Fix: correct the name (the message suggests one), or define the host or
group.`},
		{Code: CodeUnknownQueue, Name: "unknown-queue", Severity: lang.Error,
			Summary: "a queue that lsb.queues does not define",
			Doc: `What it finds: a queue named in PREEMPTION, FAIRSHARE_QUEUES, DEFAULT_QUEUE
or a limit's QUEUES that lsb.queues does not define.

Why it matters: the preemption, fairshare set, default or limit does not
apply to the queue meant.

Example: PREEMPTION = PREEMPTIVE[idel].

Fix: correct the name, or define the queue.`},
		{Code: CodeUnknownCluster, Name: "unknown-cluster", Severity: lang.Error,
			Summary: "a cluster that lsf.shared does not declare",
			Doc: `What it finds: a cluster named in SNDJOBS_TO, RCVJOBS_FROM, HOSTS
(host@cluster) or RemoteClusters that lsf.shared's Cluster section does not
list.

Why it matters: MultiCluster connects only the clusters lsf.shared
declares; jobs are never forwarded to or accepted from the others.

Example: SNDJOBS_TO = recv@paer.

Fix: correct the name, or declare the cluster in lsf.shared.`},
		{Code: CodeUnknownUserGroup, Name: "unknown-user-group", Severity: lang.Error,
			Summary: "a user group that lsb.users does not define",
			Doc: `What it finds: "group@" in a share assignment or a User row, or
DEFAULT_USER_GROUP, naming a group lsb.users does not define; or shares
given to a user who is not a member of the group.

Why it matters: the shares or limits are not applied to the users meant.

Example: FAIRSHARE = USER_SHARES[[chemist@, 2]] (the group is chemists).

Fix: correct the name, or define the group.`},
		{Code: CodeDuplicate, Name: "duplicate", Severity: lang.Error,
			Summary: "a queue, host, group, profile or other name defined twice",
			Doc: `What it finds: a second definition of a queue, host, host group, user
group, cluster, host model or type, resource, application profile, compute
unit or limit name, with a note on the first; a host group named like a
host.

Why it matters: LSF keeps one of the definitions and ignores the other,
often without the administrator noticing.

Example: two Queue sections with QUEUE_NAME = normal.

Fix: rename or delete one definition.`},
		{Code: CodeCycle, Name: "group-cycle", Severity: lang.Error,
			Summary: "a host or user group that contains itself",
			Doc: `What it finds: a host group or user group that includes itself through its
members, directly or through other groups; the message prints the chain.

Why it matters: LSF cannot expand the group and rejects it.

Example: group a has member b, and group b has member a.

Fix: remove one membership of the chain.`},
		{Code: CodeSlotPool, Name: "slot-pool", Severity: lang.Error,
			Summary: "a queue-based fairshare slot pool that cannot work as written",
			Doc: `What it finds: SLOT_POOL without SLOT_SHARE (or the reverse), queues of one
pool on different host sets, shares of a pool summing to more than 100
percent, and MAX_SLOTS_IN_POOL or USE_PRIORITY_IN_POOL outside the first
queue of the pool.

Why it matters: all queues of a pool must share one set of hosts for the
shares to mean anything; settings outside the first queue are ignored.

Example: SLOT_SHARE = 60 and 50 in the two queues of pool science.

Fix: give the queues of a pool the same HOSTS and shares that add up to at
most 100.`},
		{Code: CodeUndeclaredResource, Name: "undeclared-resource", Severity: lang.Error,
			Summary: "a resource that is neither built in nor declared in lsf.shared",
			Doc: `What it finds: a resource named in a host's RESOURCES, a ResourceMap, a
load threshold or a limit's RESOURCE that lsf.shared's Resource section
does not declare; a Boolean resource given a value, or a valued resource
given none.

Why it matters: LIM and mbatchd ignore the undeclared resource, so hosts do
not have it and limits on it never apply.

Example: RESOURCES = (gpu fs) on a host where lsf.shared declares only fs.

Fix: declare the resource in lsf.shared, or correct the name.`},
		{Code: CodeUnknownModel, Name: "unknown-model", Severity: lang.Error,
			Summary: "a host model, host type or compute unit type that is not declared",
			Doc: `What it finds: a host model or type in lsf.cluster that lsf.shared does not
declare, a DEFAULT_HOST_SPEC that is no host or model, or a compute unit
TYPE missing from COMPUTE_UNIT_TYPES.

Why it matters: LIM cannot classify the host; CPU normalisation and
type== selections stop working for it.

Example: model = XeonGold in lsf.cluster where lsf.shared lists XEON_GOLD.

Fix: use a declared name, or declare it.`},
		{Code: CodeUnknownApp, Name: "unknown-application", Severity: lang.Error,
			Summary: "an application profile that lsb.applications does not define",
			Doc: `What it finds: DEFAULT_APPLICATION or a limit's APPS naming a profile that
lsb.applications does not define.

Why it matters: jobs are not attached to the profile meant, or the limit
never applies.

Example: DEFAULT_APPLICATION = fluentt.

Fix: correct the name, or define the profile.`},
	}
}
