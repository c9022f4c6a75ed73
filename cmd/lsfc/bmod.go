package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func bmodOptionList() []lsfOption {
	return []lsfOption{
		{"q", `"queue_name ..."`}, {"R", "res_req"}, {"n", "slots"}, {"J", "job_name"}, {"W", "[hh:]mm"}, {"sp", "priority"},
		{"w", "dependency"}, {"m", `"host ..."`}, {"aps", `"system=value|admin=value"`}, {"apsn", ""},
		{"P", "project_name"}, {"Pn", ""}, {"G", "user_group"}, {"Gn", ""}, {"g", "job_group_name"}, {"gn", ""},
		{"B", ""}, {"Bn", ""}, {"N", ""}, {"Ne", ""}, {"Nn", ""}, {"u", "mail_user"}, {"un", ""},
		{"U", "reservation_id"}, {"Un", ""},
		{"gpu", "- | gpu_req"}, {"gpun", ""}, {"Jd", "description"}, {"Jdn", ""},
	}
}

func newBmodCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bmod",
		short:    "Change the options of a submitted job",
		operands: "JOBID",
		options:  bmodOptionList(),
		refused:  bmodRefusedOptions(),
		long: `bmod changes what a pending job asked for at submission: its queue
(-q, a list tried in its order as bsub's; the job must pass the new
queue's checks as a submission would), its resource requirement (-R),
slots (-n), name (-J), run limit (-W), user priority (-sp),
dependency (-w), hosts (-m), project (-P), the user group its fairshare
is charged to (-G, of which the job's owner must be a direct member) or
its job group (-g, made when it does not exist; -gn takes the job out of
any group), its advance reservation (-U, one the job's owner may use;
-Un takes it out of any) or its GPU requirement (-gpu), with bsub's
syntax; -Pn gives it the default project, -Gn takes it out of its user
group and -gpun takes its own GPU requirement back (the queue's,
profile's or cluster's GPU_REQ stands). -B, -N, -Ne and -u change the
job's mail as bsub's do; -Bn cancels -B, -Nn both -N and -Ne, -un gives
the mail back to the job's user. -Jd changes the job description (at
most 4094 characters) and -Jdn removes it. For a job array,
-J "%N" alone changes how many of its elements may run at once (0: no
limit); an action on "ID[1-5]" changes those elements only. In a queue with
APS_PRIORITY an administrator may set a pending job's absolute priority:
-aps "system=value" gives it a fixed value, before every calculated one;
-aps "admin=value" adds value to the calculated one; -apsn removes both
(value not 0; each -aps replaces the last). It prints
"Parameters of job <ID> are being changed", or why they cannot be on
standard error and exits 255. Of a started job, only the run limit
(-W) can be changed, and only when lsf.conf sets LSB_MOD_ALL_JOBS=Y.` + lsfStateHelp,
		example: `  lsfc bmod -n 4 -R "rusage[mem=4GB]" 1001
  bmod -aps "admin=10" 1002`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) != 1 {
			return usageError("bmod: give one job id")
		}
		if a.has("aps") || a.has("apsn") {
			if len(a.opts) != 1 {
				return usageError("bmod: -aps and -apsn go alone")
			}
			return runJobAction(ctx, e, a, "bmod", "aps", &api.ActionRequest{APS: a.value("aps")}, a.operands)
		}
		mod, err := bmodRequest(a)
		if err != nil {
			return usageError("bmod: %v", err)
		}
		return runJobAction(ctx, e, a, "bmod", "modify", &api.ActionRequest{Modify: mod}, a.operands)
	})
}

// bmodRequest returns the changes bmod's options ask for.
func bmodRequest(a *lsfArgs) (*api.SubmitRequest, error) {
	if len(a.opts) == 0 {
		return nil, errors.New("nothing to change: give -q, -R, -n, -J, -W, -sp, -w, -m, -P, -Pn, -G, -Gn, -g, -gn, -U, -Un, -B, -Bn, -N, -Ne, -Nn, -u, -un, -gpu, -gpun, -Jd or -Jdn")
	}
	for _, o := range []string{"g", "P", "G", "U", "B", "N", "u", "gpu", "Jd"} {
		if a.has(o) && a.has(o+"n") {
			return nil, fmt.Errorf("-%s and -%sn cannot be used together", o, o)
		}
	}
	if a.has("Ne") && a.has("Nn") {
		return nil, errors.New("-Ne and -Nn cannot be used together")
	}
	if name := a.value("J"); a.has("J") {
		limit, isLimit := strings.CutPrefix(name, "%")
		switch {
		case strings.Contains(name, "["):
			return nil, fmt.Errorf("-J %q: the index list of a job array cannot be changed", name)
		case isLimit && (!isDigits(limit) || len(limit) > 9):
			return nil, fmt.Errorf("-J %q: the running limit of a job array is %%N, N a whole number", name)
		case isLimit && len(a.opts) != 1:
			return nil, fmt.Errorf("-J %q: a job array's running limit is changed alone", name)
		}
	}
	r, err := bsubFromArgs(&lsfArgs{opts: a.opts, seq: a.seq})
	if err != nil {
		return nil, err
	}
	m := r.sub
	if m.MaxSlots != 0 {
		return nil, fmt.Errorf("-n %q: bmod changes the number of tasks to one number; a running job's allocation is changed with bresize", a.value("n"))
	}
	m.ResReq = strings.TrimSpace(m.ResReq)
	m.NoJobGroup, m.NoProject, m.NoUserGroup, m.NoReservation = a.has("gn"), a.has("Pn"), a.has("Gn"), a.has("Un")
	m.NoGPU = a.has("gpun")
	m.NoDescription = a.has("Jdn")
	m.NoNotifyBegin, m.NoNotify, m.NoMailUser = a.has("Bn"), a.has("Nn"), a.has("un")
	return &m, nil
}

// bmodRefusedOptions returns the options LSF 10.1 documents for bmod that
// lsfc does not implement: bsub's options that a submitted job can change,
// the forms ending in "n" that cancel one (-Rn, -Wn ...), and -Z.
func bmodRefusedOptions() []lsfOption {
	submissionOnly := []string{"I", "Ip", "IS", "ISp", "ISs", "Is", "IX", "K", "H", "pack",
		"jsdl", "jsdl_strict", "json", "yaml", "tty", "XF"}
	implemented := bmodOptionList()
	var out []lsfOption
	add := func(o lsfOption) {
		if slices.Contains(submissionOnly, o.name) ||
			slices.ContainsFunc(implemented, func(x lsfOption) bool { return x.name == o.name }) ||
			slices.ContainsFunc(out, func(x lsfOption) bool { return x.name == o.name }) {
			return
		}
		out = append(out, o)
	}
	for _, o := range slices.Concat(bsubOptionList(), bsubRefusedOptions()) {
		add(o)
	}
	for _, name := range []string{"appn", "arn", "Bn", "bn", "Cn", "cn", "cwdn", "Dn", "datan", "En", "Epn",
		"en", "eptln", "extn", "Fn", "fn", "freqn", "Gn", "gn", "gpun", "hostfilen", "in", "isn", "Jn",
		"kn", "Ln", "Lpn", "Mn", "mn", "mign", "Nn", "Nen", "notifyn", "on", "outdirn", "Pn", "pn", "ptln",
		"Qn", "Rn", "rn", "rncn", "Sn", "sn", "slan", "smtn", "spn", "stagen", "Tn", "tn", "Un", "un",
		"uln", "vn", "Wn", "Wen", "wn", "wan", "wtn", "Zsn"} {
		add(lsfOption{name, ""})
	}
	add(lsfOption{"Z", "new_command"})
	return out
}

// isDigits reports whether s is a non-empty string of decimal digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
