package compile

import (
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// The codes reported while finding the files of a tree (LSF30x).
const (
	CodeBatchDirFallback lang.Code = "LSF301" // lsb.* files read from a fallback directory
	CodeMissingFile      lang.Code = "LSF302" // lsf.shared or lsf.cluster.<name> missing
	CodeWhichCluster     lang.Code = "LSF303" // the local cluster cannot be told
	CodeNoBatchDir       lang.Code = "LSF304" // no batch configuration directory
	CodeConfDirMissing   lang.Code = "LSF305" // LSF_CONFDIR does not exist
	CodeUncheckedRefs    lang.Code = "LSF316" // references to lsf.cluster or lsf.shared left unchecked
)

// Codes returns the documentation of every code package compile reports,
// in code order. The slice is new on every call.
func Codes() []lang.CodeInfo {
	codes := append(loadCodes(), checkCodes()...)
	slices.SortFunc(codes, func(a, b lang.CodeInfo) int { return strings.Compare(string(a.Code), string(b.Code)) })
	return codes
}

// loadCodes documents the codes of Load and of resource requirements.
func loadCodes() []lang.CodeInfo {
	return []lang.CodeInfo{
		{Code: CodeBatchDirFallback, Name: "batch-dir-fallback", Severity: lang.Info,
			Summary: "the lsb.* files were read from a fallback directory",
			Doc: `What it finds: LSB_CONFDIR in lsf.conf names a directory that does not
exist on this machine, so the lsb.* files were read from
lsbatch/<cluster>/configdir next to lsf.conf (or from beside lsf.conf).

Why it matters: it is the normal case when a configuration repository is
checked outside the cluster; the message says which files were read so that
a wrong layout is noticed.

Example: LSB_CONFDIR=/opt/lsf/conf/lsbatch, checked out under ./conf.

Fix: nothing, if the files read are the right ones.`},
		{Code: CodeMissingFile, Name: "missing-file", Severity: lang.Error,
			Summary: "lsf.shared or lsf.cluster.<cluster> is missing",
			Doc: `What it finds: an LSF_ENVDIR without lsf.shared, or without the
lsf.cluster.<name> file of its cluster.

Why it matters: LIM does not start without both files.

Example: a tree holding lsf.conf and lsb.* files only.

Fix: add the file, or lint the lsb.* directory on its own.`},
		{Code: CodeWhichCluster, Name: "which-cluster", Severity: lang.Error,
			Summary: "the local cluster cannot be told",
			Doc: `What it finds: lsf.shared lists several clusters and the files present do
not say which one is local (several or no lsf.cluster.<name> files).

Why it matters: the cluster name decides which lsf.cluster file and which
lsbatch/<cluster>/configdir are read.

Example: a MultiCluster lsf.shared with lsf.cluster.east and
lsf.cluster.west in one directory.

Fix: pass --cluster NAME.`},
		{Code: CodeNoBatchDir, Name: "no-batch-dir", Severity: lang.Warning,
			Summary: "no batch configuration directory was found",
			Doc: `What it finds: an LSF_ENVDIR whose LSB_CONFDIR/<cluster>/configdir does
not exist, with no lsbatch/<cluster>/configdir and no lsb.* files beside
lsf.conf either.

Why it matters: mbatchd would start with a default queue and default
parameters; the batch configuration the administrator meant is elsewhere.

Example: LSB_CONFDIR=/shared/lsbatch on a machine without /shared.

Fix: lint the configdir directly, or copy it next to lsf.conf.`},
		{Code: CodeUncheckedRefs, Name: "unchecked-references", Severity: lang.Info,
			Summary: "the lsb.* files were read without lsf.cluster or lsf.shared, so names in them went unchecked",
			Doc: `What it finds: lsb.* files read on their own (a directory of lsb.* files,
or single files) without lsf.cluster.<cluster> or lsf.shared. The message
names the checks that could not run: without lsf.cluster, the host names
of HOSTS, of host group members, of lsb.hosts rows, of limits and of
DEFAULT_HOST_SPEC; without lsf.shared, host models and types, the site
resources of resource requirements, thresholds and limits, and cluster
names.

Why it matters: a clean result then says nothing of those names: a queue
with HOSTS = gpu_hostz passes, though LSF would reject the host.

Example: lsfc lint conf/lsbatch/prod/configdir.

Fix: lint the LSF_ENVDIR (the directory of lsf.conf), which brings
lsf.shared and lsf.cluster.<cluster> along; or, where those files are
not at hand, take the finding as the reminder it is (it is an info: only
--fail-level info fails on it).`},
		{Code: CodeConfDirMissing, Name: "conf-dir-missing", Severity: lang.Warning,
			Summary: "LSF_CONFDIR does not exist and lsf.shared is not next to lsf.conf",
			Doc: `What it finds: LSF_CONFDIR names a directory absent on this machine, and
lsf.shared is not in the directory of lsf.conf either.

Why it matters: lsf.shared and lsf.cluster.<name> cannot be read.

Example: LSF_CONFDIR=/opt/lsf/conf in a repository that holds only lsf.conf.

Fix: keep lsf.shared and lsf.cluster.<name> next to lsf.conf.`},
		{Code: CodeUnknownResource, Name: "unknown-resource", Severity: lang.Error,
			Summary: "a resource requirement names a resource, host type or model that does not exist",
			Doc: `What it finds: a name in select[], order[], rusage[] or same[] that is
neither a built-in resource nor declared in lsf.shared (or the inventory),
or a type== / model== value that is not a host type or model of lsf.shared.

Why it matters: LSF rejects the job or the queue's RES_REQ ("Unknown
resource name specified"); a misspelt name never selects anything.

Example: select[gpu_cont > 1], select[type == POWER9] where POWER9 is a
model.

Fix: use the declared name; lsfc suggests the closest one.`},
		{Code: CodeResReqType, Name: "resreq-type", Severity: lang.Error,
			Summary: "a select expression mixes types",
			Doc: `What it finds: a string resource compared with a number, used in
arithmetic, negated with ! or used as a condition on its own.

Why it matters: LSF's evaluator fails the expression on every host, so the
job never starts.

Example: select[type > 3], select[rack && fs].

Fix: compare strings with strings: select[type == X86_64], select[rack ==
r01 && fs]. Booleans are 0 or 1 in arithmetic, numbers are true when not 0.`},
		{Code: CodeRusage, Name: "bad-rusage", Severity: lang.Error,
			Summary: "an rusage[] section is invalid",
			Doc: `What it finds: a non-consumable (Boolean or String) resource in rusage[],
a resource reserved twice in one usage string, a duration that is not
minutes or a number with s, m or h, a decay other than 0 or 1, a
reservation method other than /job, /task, /host, multi-phase values that
increase or lack durations.

Why it matters: LSF rejects the string ("Non-consumable resource in the
RUSAGE section", "Bad resource requirement syntax").

Example: rusage[fs=1], rusage[mem=10:decay=2].

Fix: reserve numeric resources only, each once per usage string.`},
		{Code: CodeSpan, Name: "bad-span", Severity: lang.Error,
			Summary: "a span[] section is invalid",
			Doc: `What it finds: span[hosts=N] other than 1 or -1, ptile that is not a
positive number, '!' or TYPE:N, a ptile list mixing types and models, a
per-type list without same[type], ptile='!' with same[type:model],
hosts=1 together with ptile, unknown options.

Why it matters: bsub rejects the job; a queue with such a RES_REQ runs
without it.

Example: span[hosts=2]

Fix: span[hosts=1] for one host, span[ptile=N] for N slots per host.`},
		{Code: CodeOrder, Name: "bad-order", Severity: lang.Error,
			Summary: "an order[] key is not numeric",
			Doc: `What it finds: an order[] key naming a Boolean or String resource.

Why it matters: order[] sorts hosts by numbers; LSF rejects other keys.

Example: order[type]

Fix: order by load indices or numeric resources: order[r15s:mem].`},
		{Code: CodeSame, Name: "bad-same", Severity: lang.Error,
			Summary: "same[] names a resource that changes with load",
			Doc: `What it finds: a dynamic resource (a load index or a resource with an
INTERVAL) in same[].

Why it matters: same[] groups hosts by static facts; LSF accepts only
those.

Example: same[mem]

Fix: same[type], same[model] or a static site resource.`},
		{Code: CodeCuAffinity, Name: "bad-cu-affinity", Severity: lang.Error,
			Summary: "a cu[] or affinity[] section is invalid",
			Doc: `What it finds: unknown cu[] options or pref values, balance together
with usablecuslots, unknown processor units or cpubind, membind,
distribute values in affinity[].

Why it matters: LSF rejects the requirement.

Example: cu[pref=fast], affinity[corez(1)]

Fix: cu[type=T:pref=config|maxavail|minavail|bestfit:maxcus=N],
affinity[core(N):cpubind=core:membind=localonly:distribute=pack].`},
		{Code: CodeUnit, Name: "bad-unit", Severity: lang.Error,
			Summary: "a unit suffix is unknown or does not fit the resource",
			Doc: `What it finds: a number with an unknown suffix, a memory unit on a
resource that is no amount of memory, or a number too large.

Why it matters: LSF converts K, M, G, T, P, E, Z units for memory only;
elsewhere the suffix is a mistake.

Example: select[mem > 8Q], rusage[r1m=2G]

Fix: use memory units with mem, swp, tmp, maxmem, maxswp, maxtmp.`},
		{Code: CodeLocalType, Name: "local-type-unknown", Severity: lang.Warning,
			Summary: "type==local or model==local without the submission host",
			Doc: `What it finds: type==local or model==local where lsfc does not know the
submission host (lsfc resreq match without --from-type).

Why it matters: the result depends on where bsub runs; lsfc matches every
type to show what is possible.

Example: lsfc resreq match -R "select[type==local]" --hosts hosts.yaml

Fix: give --from-type TYPE (and --from-model MODEL).`},
		{Code: CodeMerge, Name: "exceeds-queue-rusage", Severity: lang.Error,
			Summary: "a job reserves more than its queue's RES_REQ allows",
			Doc: `What it finds: a job -R (or application) rusage of a built-in load index
larger, or for longer, than the same index in the queue's RES_REQ.

Why it matters: LSF rejects the job: "Cannot exceed queue's resource
reservation".

Example: queue RES_REQ = rusage[mem=1000], bsub -R "rusage[mem=2000]".

Fix: ask for at most the queue's amount, or use a queue that allows more.`},
	}
}
