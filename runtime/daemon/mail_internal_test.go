package daemon

import (
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

func TestMailAddress(t *testing.T) {
	for _, c := range []struct{ user, form, want string }{
		{"ann", "!U", "ann"},
		{"ann", "!U@example.org", "ann@example.org"},
		{"ann", "!U@!H", "ann@login1"},
		{"ann", "ops!x+!U", "ops!x+ann"},
		{"ann", "", "ann"},
		{"bob@example.com", "!U@example.org", "bob@example.com"},
		{"ann", "trailing!", "trailing!"},
	} {
		if got := mailAddress(c.user, c.form, "login1"); got != c.want {
			t.Errorf("mailAddress(%q, %q) = %q, want %q", c.user, c.form, got, c.want)
		}
	}
}

// TestJobMail checks when a job's wrapper is asked to mail, and to whom.
func TestJobMail(t *testing.T) {
	d := &Daemon{host: "master", cfg: Config{Policy: &compile.Policy{LSFConf: compile.Conf{
		JobReportMail: true, MailProg: "/usr/lib/sendmail", MailTo: "!U@example.org"}}}}
	job := func(stdout string, m *runtime.JobMail, interactive bool) *runtime.Job {
		j := &runtime.Job{User: "ann", Sub: runtime.Submission{Stdout: stdout, Mail: m, FromHost: "login1"}}
		if interactive {
			j.Sub.Interactive = &runtime.Interactive{Mode: "I"}
		}
		return j
	}
	for _, c := range []struct {
		name string
		j    *runtime.Job
		off  bool // LSB_JOB_REPORT_MAIL=N
		want *localexec.Mail
	}{
		{"-o, no option", job("o", nil, false), false, nil},
		{"no -o", job("", nil, false), false, &localexec.Mail{End: true, To: []string{"ann@example.org"}}},
		{"no -o, mail off", job("", nil, false), true, nil},
		{"-N", job("o", &runtime.JobMail{End: true}, false), false, &localexec.Mail{End: true, To: []string{"ann@example.org"}}},
		{"-Ne", job("o", &runtime.JobMail{Exit: true}, false), false,
			&localexec.Mail{End: true, ExitOnly: true, To: []string{"ann@example.org"}}},
		{"-Ne without -o mails anyway", job("", &runtime.JobMail{Exit: true}, false), false,
			&localexec.Mail{End: true, To: []string{"ann@example.org"}}},
		{"-N, mail off", job("o", &runtime.JobMail{End: true}, false), true, nil},
		{"-B, mail off", job("o", &runtime.JobMail{Begin: true}, false), true,
			&localexec.Mail{Begin: true, To: []string{"ann@example.org"}}},
		{"-u", job("o", &runtime.JobMail{End: true, User: "bob carl@x.org"}, false), false,
			&localexec.Mail{End: true, To: []string{"bob@example.org", "carl@x.org"}}},
		{"interactive", job("", nil, true), false, nil},
		{"interactive -N", job("", &runtime.JobMail{End: true}, true), false, &localexec.Mail{End: true, To: []string{"ann@example.org"}}},
	} {
		d.cfg.Policy.LSFConf.JobReportMail = !c.off
		got := d.jobMail(c.j)
		if c.want != nil {
			c.want.Prog = "/usr/lib/sendmail"
		}
		if (got == nil) != (c.want == nil) || got != nil && (got.Prog != c.want.Prog || got.Begin != c.want.Begin ||
			got.End != c.want.End || got.ExitOnly != c.want.ExitOnly || !slices.Equal(got.To, c.want.To)) {
			t.Errorf("%s: jobMail = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// FuzzMailAddress checks that any LSB_MAILTO form gives an address
// without a panic, that an address is taken as it is, and that a form
// without ! is the address itself.
func FuzzMailAddress(f *testing.F) {
	f.Add("ann", "!U@!H", "login1")
	f.Add("bob@x", "!U", "h")
	f.Add("u", "!!U!", "")
	f.Fuzz(func(t *testing.T, user, form, host string) {
		got := mailAddress(user, form, host)
		switch {
		case strings.Contains(user, "@") && got != user:
			t.Fatalf("mailAddress(%q, %q) = %q: an address must stay as it is", user, form, got)
		case !strings.Contains(user, "@") && form != "" && !strings.Contains(form, "!") && got != form:
			t.Fatalf("mailAddress(%q, %q) = %q, want the form", user, form, got)
		}
	})
}

// TestMailUserRefused: bsub -u and bmod -u refuse an address the mail
// program would take for one of its options.
func TestMailUserRefused(t *testing.T) {
	for _, u := range []string{"-X/tmp/log", "ann -C/etc/mail.cf", " -oQ/tmp"} {
		if err := validSubmit(&api.SubmitRequest{Command: "true", MailUser: u}); err == nil {
			t.Errorf("bsub -u %q accepted", u)
		}
	}
	for _, u := range []string{"", "ann", "ann bob@example.org", "a-b"} {
		if err := validSubmit(&api.SubmitRequest{Command: "true", MailUser: u}); err != nil {
			t.Errorf("bsub -u %q: %v", u, err)
		}
	}
}
