package daemon

import (
	"net/http"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
)

// selectHosts returns the hosts, in the cluster's order, that satisfy a
// resource requirement now (bhosts -R): its select on each host's
// configured resources and latest load, and its span and same over the
// hosts it selects, for one slot. As for lshosts -R, the host type
// defaults to any. A requirement that does not parse or type-check is an
// error with status 400 and the diagnostics, positioned in the string
// ("-R:1:COL: ..."). It runs on the daemon's goroutine (d.do).
func (d *Daemon) selectHosts(text string) ([]*runtime.Host, error) {
	c := d.cluster
	r, ds := lang.ParseResReq(lang.NewSource("-R", text))
	if err := ds.Err(); err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	req, cds := c.Env.CompileResReq(r, compile.SelectOptions{})
	if err := cds.Err(); err != nil || req == nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	facts := make([]*compile.Host, len(c.Hosts))
	for i, h := range c.Hosts {
		facts[i] = h.Facts
	}
	res := c.Env.Match(req, c.Env.Table(facts), compile.MatchOptions{Slots: 1})
	keep := make([]bool, len(c.Hosts))
	for _, i := range res.Matched {
		keep[i] = true
	}
	var out []*runtime.Host
	for i, h := range c.Hosts {
		if keep[i] {
			out = append(out, h)
		}
	}
	return out, nil
}
