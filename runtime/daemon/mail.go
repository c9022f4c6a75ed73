package daemon

import (
	"net/http"
	"strings"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// submitMail returns the mail options of a submission, nil when it has
// none (LSF's default).
func submitMail(req *api.SubmitRequest) *runtime.JobMail {
	m := runtime.JobMail{Begin: req.NotifyBegin, End: req.NotifyEnd, Exit: req.NotifyExit, User: strings.TrimSpace(req.MailUser)}
	if m == (runtime.JobMail{}) {
		return nil
	}
	return &m
}

// checkMailUser checks the addresses of bsub -u and bmod -u: one that
// begins with '-' would be taken by the mail program for an option.
func checkMailUser(s string) error {
	if len(s) > 4<<10 || strings.ContainsRune(s, 0) {
		return errorf(http.StatusBadRequest, "-u: the mail addresses are longer than 4 KB or hold a NUL byte")
	}
	for _, a := range strings.Fields(s) {
		if strings.HasPrefix(a, "-") {
			return errorf(http.StatusBadRequest, "-u %s: Bad mail address (an address cannot begin with '-')", truncate(a))
		}
	}
	return nil
}

// mailRequest puts a job's mail options back in the form of a
// submission, for a job forwarded to another cluster.
func mailRequest(m *runtime.JobMail, req *api.SubmitRequest) {
	if m == nil {
		return
	}
	req.NotifyBegin, req.NotifyEnd, req.NotifyExit, req.MailUser = m.Begin, m.End, m.Exit, m.User
}

// jobMail returns the mail a job's wrapper sends, as LSF's execution
// daemon sends it, nil for none: the job report when the job ends, for
// a job without -o (interactive jobs aside) and one with -N, or -Ne when
// it exits, unless LSB_JOB_REPORT_MAIL=N; and a mail when it starts, for
// -B. It goes to the -u addresses, else the job's user, each address
// without an @ formed by LSB_MAILTO.
func (d *Daemon) jobMail(j *runtime.Job) *localexec.Mail {
	conf := &d.cfg.Policy.LSFConf
	var opts runtime.JobMail
	if j.Sub.Mail != nil {
		opts = *j.Sub.Mail
	}
	m := &localexec.Mail{Prog: conf.MailProg, Begin: opts.Begin, SizeLimitKB: int64(conf.MailSizeLimit)}
	if conf.JobReportMail {
		byDefault := j.Sub.Stdout == "" && j.Sub.Interactive == nil
		m.End = byDefault || opts.End || opts.Exit
		m.ExitOnly = opts.Exit && !opts.End && !byDefault
	}
	if !m.Begin && !m.End {
		return nil
	}
	users := strings.Fields(opts.User)
	if len(users) == 0 {
		users = []string{j.User}
	}
	from := j.Sub.FromHost
	if from == "" {
		from = d.host
	}
	for _, u := range users {
		m.To = append(m.To, mailAddress(u, conf.MailTo, from))
	}
	return m
}

// mailAddress forms the address mail to user goes to from LSB_MAILTO's
// form: !U stands for the user and !H for the submission host; a user
// that is already an address (with an @) is taken as it is, as is a
// user when the form is empty.
func mailAddress(user, form, host string) string {
	if strings.Contains(user, "@") || form == "" {
		return user
	}
	var b strings.Builder
	for i := 0; i < len(form); i++ {
		if form[i] == '!' && i+1 < len(form) {
			switch form[i+1] {
			case 'U':
				b.WriteString(user)
				i++
				continue
			case 'H':
				b.WriteString(host)
				i++
				continue
			}
		}
		b.WriteByte(form[i])
	}
	return b.String()
}
