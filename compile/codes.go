package compile

import "github.com/lsfc/lsfc/lang"

// The codes reported while finding the files of a tree (LSF30x).
const (
	CodeBatchDirFallback lang.Code = "LSF301" // lsb.* files read from a fallback directory
	CodeMissingFile      lang.Code = "LSF302" // lsf.shared or lsf.cluster.<name> missing
	CodeWhichCluster     lang.Code = "LSF303" // the local cluster cannot be told
	CodeNoBatchDir       lang.Code = "LSF304" // no batch configuration directory
	CodeConfDirMissing   lang.Code = "LSF305" // LSF_CONFDIR does not exist
)

// Codes returns the documentation of every code package compile reports,
// in code order. The slice is new on every call.
func Codes() []lang.CodeInfo {
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
		{Code: CodeConfDirMissing, Name: "conf-dir-missing", Severity: lang.Warning,
			Summary: "LSF_CONFDIR does not exist and lsf.shared is not next to lsf.conf",
			Doc: `What it finds: LSF_CONFDIR names a directory absent on this machine, and
lsf.shared is not in the directory of lsf.conf either.

Why it matters: lsf.shared and lsf.cluster.<name> cannot be read.

Example: LSF_CONFDIR=/opt/lsf/conf in a repository that holds only lsf.conf.

Fix: keep lsf.shared and lsf.cluster.<name> next to lsf.conf.`},
	}
}
