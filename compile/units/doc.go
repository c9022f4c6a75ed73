// Package units reads and prints amounts of memory as LSF writes them: an
// LSF_UNIT_FOR_LIMITS unit name (ParseUnit) or an amount with an optional
// unit suffix (ParseMemory) in, megabytes out, and megabytes in, "16G" or
// "512M" out (FormatMemory). It imports nothing beyond the standard
// library, so that the LSF commands can use it without the compiler.
package units
