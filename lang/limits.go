package lang

// Limits bound the input a parser accepts, so that hostile or corrupt input
// gives a clear diagnostic (LSF102) instead of exhausting memory, time or
// the stack. A zero field means the default.
type Limits struct {
	// MaxFileSize is the largest file read, in bytes (default 64 MiB).
	MaxFileSize int
	// MaxLineLen is the longest logical line, continuations included, in
	// bytes (default 1 MiB).
	MaxLineLen int
	// MaxCells is the most values in one table row (default 4096).
	MaxCells int
	// MaxDepth is the deepest nesting of parentheses and brackets in a
	// cell, and of #if blocks (default 64).
	MaxDepth int
	// MaxDiagnostics is the most diagnostics reported for one file; past
	// it one last diagnostic says the rest were dropped (default 1000).
	MaxDiagnostics int
}

// The default limits.
const (
	DefaultMaxFileSize    = 64 << 20
	DefaultMaxLineLen     = 1 << 20
	DefaultMaxCells       = 4096
	DefaultMaxDepth       = 64
	DefaultMaxDiagnostics = 1000
)

// withDefaults returns l with every zero field set to its default.
func (l Limits) withDefaults() Limits {
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	if l.MaxLineLen <= 0 {
		l.MaxLineLen = DefaultMaxLineLen
	}
	if l.MaxCells <= 0 {
		l.MaxCells = DefaultMaxCells
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxDiagnostics <= 0 {
		l.MaxDiagnostics = DefaultMaxDiagnostics
	}
	return l
}
