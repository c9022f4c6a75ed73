package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBusersCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "busers",
		refused:  busersRefusedOptions(),
		short:    "Show users' job counts and limits in lsfc serve",
		operands: "[user_name ... | all]",
		long: `busers shows, for the caller or the users named (all: every user with an
unfinished job or a row of their own in lsb.users), one line:

  USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV

JL/P and MAX are the user's JL/P and MAX_JOBS of lsb.users (their own
row, else the first group@ row that holds them, else default; "-" for
none); the rest count the slots of the user's unfinished jobs: all of
them, pending (PEND and PSUSP), running, suspended by the system and by
the user, and reserved by pending jobs (SLOT_RESERVE, RESOURCE_RESERVE).` + lsfStateHelp,
		example: `  lsfc busers
  busers all`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "busers", err)
		}
		users, err := c.Users(ctx, a.operands)
		if err != nil {
			return lsfFailed(e, "busers", err)
		}
		writeUsers(e.stdout, users)
		return nil
	})
}

// busersRow is the layout of busers's lines.
const busersRow = "%-19s %4s %6s %6s %6s %6s %6s %6s %6s\n"

// writeUsers prints busers's table.
func writeUsers(w io.Writer, users []api.User) {
	users = textSafe(users)
	fmt.Fprintf(w, busersRow, "USER/GROUP", "JL/P", "MAX", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "RSV")
	dash := func(s string, set bool) string {
		if !set {
			return "-"
		}
		return s
	}
	for _, u := range users {
		fmt.Fprintf(w, busersRow, u.Name, dash(strconv.FormatFloat(u.JLP, 'f', -1, 64), u.JLP > 0),
			dash(strconv.Itoa(u.Max), u.Max > 0), strconv.Itoa(u.NJobs), strconv.Itoa(u.Pend), strconv.Itoa(u.Run),
			strconv.Itoa(u.SSusp), strconv.Itoa(u.USusp), strconv.Itoa(u.Rsv))
	}
}

// busersRefusedOptions returns the options LSF 10.1 documents for busers
// that lsfc does not implement, each with the shape of its argument (""
// for a switch).
func busersRefusedOptions() []lsfOption {
	return []lsfOption{{"alloc", ""}, {"json", ""}, {"o", `"field ..."`}, {"V", ""}, {"w", ""}}
}
