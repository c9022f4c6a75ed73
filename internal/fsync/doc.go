// Package fsync makes written data durable: DataSync flushes a file's
// data and length without its other metadata (fdatasync where the system
// has it). It imports the standard library only, so that the light builds
// (the LSF commands, the job starter) may use it.
package fsync
