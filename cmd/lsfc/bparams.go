package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBparamsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:    "bparams",
		refused: bparamsRefusedOptions(),
		short:   "Show the lsb.params lsfc serve applies",
		options: []lsfOption{{"a", ""}, {"l", ""}},
		long: `bparams shows the batch parameters the daemon applies. -a prints every one
set as KEY = VALUE lines, sorted by key, including the defaults of the
keys the scheduler reads (RESOURCE_RESERVE_PER_TASK = N or Y,
MBD_SLEEP_TIME, CLEAN_PERIOD ...); -l every parameter of lsb.params, each
as what it is for, then, indented by a tab, KEY = VALUE with its unit
(the configured value, else the one in use, else the default; "(not set)"
when there is none); without either, a summary.` + lsfStateHelp,
		example: `  lsfc bparams -a
  bparams -l`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 0 {
			return usageError("bparams: unexpected argument %q", a.operands[0])
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bparams", err)
		}
		if a.has("l") {
			list, err := c.ParamsLong(ctx)
			if err != nil {
				return lsfFailed(e, "bparams", err)
			}
			writeParamsLong(e.stdout, list)
			return nil
		}
		params, err := c.Params(ctx)
		if err != nil {
			return lsfFailed(e, "bparams", err)
		}
		if a.has("a") {
			writeParamsAll(e.stdout, params)
		} else {
			writeParamsSummary(e.stdout, params)
		}
		return nil
	})
}

// writeParamsAll prints bparams -a: KEY = VALUE, sorted by key.
func writeParamsAll(w io.Writer, params map[string]string) {
	params = textSafe(params)
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s = %s\n", k, params[k])
	}
}

// writeParamsLong prints bparams -l: for each parameter, what it is for
// as a heading ending in ":", then, after a tab, KEY = VALUE and the unit
// in parentheses, then a blank line.
func writeParamsLong(w io.Writer, list []api.Param) {
	for _, p := range textSafe(list) {
		doc := strings.TrimSuffix(p.Doc, ".")
		if doc == "" {
			doc = p.Name
		}
		value := p.Value
		switch {
		case value == "":
			value = "(not set)"
		case p.Unit != "":
			value += " (" + p.Unit + ")"
		}
		fmt.Fprintf(w, "%s:\n\t%s = %s\n\n", doc, p.Name, value)
	}
}

// writeParamsSummary prints bparams without -a: the default queues and
// the scheduling intervals.
func writeParamsSummary(w io.Writer, params map[string]string) {
	params = textSafe(params)
	get := func(k, def string) string {
		if v := params[k]; v != "" {
			return v
		}
		return def
	}
	fmt.Fprintf(w, "Default Queues:  %s\n", get("DEFAULT_QUEUE", "default"))
	fmt.Fprintf(w, "MBD_SLEEP_TIME used for calculations:  %s seconds\n", get("MBD_SLEEP_TIME", "-"))
	fmt.Fprintf(w, "Job Checking Interval:  %s seconds\n", get("SBD_SLEEP_TIME", "-"))
	fmt.Fprintf(w, "Job Accepting Interval:  %s\n", get("JOB_ACCEPT_INTERVAL", "-"))
}

// bparamsRefusedOptions returns the options LSF 10.1 documents for bparams that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bparamsRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}
