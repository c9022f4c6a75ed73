package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

const (
	sharedHeader = "RESOURCE                                VALUE       LOCATION"
	sharedRow    = "%-39s %-11s %s\n"
)

// showShared runs lshosts -s or lsload -s (left): the table, or -json's
// records; a named resource that is unknown makes the exit status 255.
func showShared(ctx context.Context, e env, a *lsfArgs, name string, left bool) error {
	rs, unknown, err := listShared(ctx, e, a, name)
	if err != nil {
		return err
	}
	if a.has("json") {
		if err := writeLSFJSON(e.stdout, name, "RESOURCES", sharedRecords(rs, left)); err != nil {
			return exit(exitUsage, err)
		}
	} else if len(rs) > 0 {
		writeShared(e.stdout, rs, left)
	}
	if unknown {
		return exit(exitLSF, nil)
	}
	return nil
}

// listShared asks the daemon for the ResourceMap's static instances,
// those of the resources named when names are given; a name that is no
// such resource is reported on stderr and makes unknown true.
func listShared(ctx context.Context, e env, a *lsfArgs, name string) (rs []api.SharedResource, unknown bool, err error) {
	c, err := dialDaemon(e, a)
	if err != nil {
		return nil, false, lsfFailed(e, name, err)
	}
	all, err := c.SharedResources(ctx)
	if err != nil {
		return nil, false, lsfFailed(e, name, err)
	}
	if len(a.operands) == 0 {
		return all, false, nil
	}
	for _, op := range a.operands {
		found := false
		for _, r := range all {
			if r.Resource == op {
				rs = append(rs, r)
				found = true
			}
		}
		if !found {
			fmt.Fprintf(e.stderr, "%s: Unknown resource name\n", op)
			unknown = true
		}
	}
	return rs, unknown, nil
}

// writeShared prints lshosts -s's table (the configured values) or, with
// left, lsload -s's (what running jobs leave of numeric instances).
func writeShared(w io.Writer, rs []api.SharedResource, left bool) {
	rs = textSafe(rs)
	fmt.Fprintln(w, sharedHeader)
	for _, r := range rs {
		fmt.Fprintf(w, sharedRow, r.Resource, sharedValue(r, left), strings.Join(r.Hosts, " "))
	}
}

// sharedRecords returns the instances as -s -json's records.
func sharedRecords(rs []api.SharedResource, left bool) []lsfRecord {
	out := make([]lsfRecord, 0, len(rs))
	for _, r := range rs {
		out = append(out, lsfRecord{{"RESOURCE", r.Resource}, {"VALUE", sharedValue(r, left)},
			{"LOCATION", strings.Join(r.Hosts, " ")}})
	}
	return out
}

// sharedValue returns an instance's value: as configured, or, with left,
// a numeric one less what running jobs reserve of it.
func sharedValue(r api.SharedResource, left bool) string {
	if !left || !r.Numeric {
		return r.Value
	}
	x, err := strconv.ParseFloat(r.Value, 64)
	if err != nil {
		return r.Value
	}
	return strconv.FormatFloat(x-r.Reserved, 'f', 1, 64)
}
