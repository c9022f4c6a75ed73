package daemon

import "github.com/lsfc/lsfc/runtime/eventlog"

// WithoutAcct returns c with lsb.acct left unwritten, for the benchmark
// that measures what writing it costs.
func WithoutAcct(c Config) Config {
	c.noAcct = true
	return c
}

// LogStats returns the counters of the daemon's event log, when it is
// one kept in the state directory.
func LogStats(d *Daemon) (eventlog.Stats, bool) {
	l, ok := d.log.(fileJournal)
	if !ok {
		return eventlog.Stats{}, false
	}
	return l.Stats(), true
}

// WithJournal returns c with the journal the daemon opens wrapped by
// wrap.
func WithJournal(c Config, wrap func(Journal) Journal) Config {
	c.wrapLog = wrap
	return c
}
