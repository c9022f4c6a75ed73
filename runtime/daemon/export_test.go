package daemon

// WithoutAcct returns c with lsb.acct left unwritten, for the benchmark
// that measures what writing it costs.
func WithoutAcct(c Config) Config {
	c.noAcct = true
	return c
}
