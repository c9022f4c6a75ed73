package compile

import "github.com/lsfc/lsfc/compile/units"

// The units of memory live in package units, which the LSF commands use
// without the rest of compile; these names keep compile's callers as they
// were.

// A Unit is a unit of memory, as LSF_UNIT_FOR_LIMITS in lsf.conf names it
// (see units.Unit).
type Unit = units.Unit

// The units, smallest first.
const (
	KB = units.KB
	MB = units.MB
	GB = units.GB
	TB = units.TB
	PB = units.PB
	EB = units.EB
	ZB = units.ZB
)

// ParseUnit reads an LSF_UNIT_FOR_LIMITS value (see units.ParseUnit).
func ParseUnit(s string) (Unit, error) { return units.ParseUnit(s) }

// ParseMemory reads an amount of memory in megabytes (see
// units.ParseMemory).
func ParseMemory(s string, def Unit) (float64, error) { return units.ParseMemory(s, def) }

// SplitDecimal splits a decimal number from what follows it (see
// units.SplitDecimal).
func SplitDecimal(t string) (num, rest string) { return units.SplitDecimal(t) }

// FormatMemory formats an amount in megabytes for display (see
// units.FormatMemory).
func FormatMemory(mb float64) string { return units.FormatMemory(mb) }

// FormatMemoryPair formats two amounts compared in one message (see
// units.FormatMemoryPair).
func FormatMemoryPair(a, b float64) (string, string) { return units.FormatMemoryPair(a, b) }

// FormatMemoryIn formats an amount in megabytes in unit u (see
// units.FormatMemoryIn).
func FormatMemoryIn(mb float64, u Unit) string { return units.FormatMemoryIn(mb, u) }

// memSuffixUnit returns the unit a memory suffix names; "" names def.
func memSuffixUnit(suffix string, def Unit) (Unit, bool) { return units.SuffixUnit(suffix, def) }
