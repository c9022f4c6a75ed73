package daemon

import (
	"os/user"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// report returns what a job's wrapper needs to write LSF's job report in
// its -o file and send the job's mail (see localexec.Report); nil for a
// job with neither: one without a -o file whose report is not mailed,
// or an interactive job (its output goes to its submitter's terminal)
// without mail.
func (d *Daemon) report(j *runtime.Job) *localexec.Report {
	mail := d.jobMail(j)
	if (j.Sub.Stdout == "" || j.Sub.Interactive != nil) && mail == nil {
		return nil
	}
	from := j.Sub.FromHost
	if from == "" {
		from = d.host
	}
	return &localexec.Report{
		Cluster:    d.cfg.Policy.Cluster,
		SubmitHost: from,
		Submitted:  time.Unix(0, int64(float64(j.Submit)*1e9)),
		Sender:     d.reportSender(),
		ReqMemMB:   d.cluster.RequestedMem(j),
		Direct:     d.cfg.Policy.LSFConf.StdoutDirect,
		SpoolDir:   d.cfg.Policy.Parameters.JobSpoolDir,
		NoFile:     j.Sub.Interactive != nil,
		Mail:       mail,
	}
}

// reportSender returns who job reports come from: the first cluster
// administrator, else the daemon's user.
func (d *Daemon) reportSender() string {
	if admins := d.cfg.Policy.Admins; len(admins) > 0 {
		return admins[0]
	}
	return d.sender
}

// daemonUser returns the name of the user the daemon runs as.
func daemonUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "lsfadmin"
}
