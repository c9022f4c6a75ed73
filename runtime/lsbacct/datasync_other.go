//go:build !linux

package lsbacct

import "os"

// datasync makes the data written to f durable; where fdatasync is not
// available it is a full sync.
func datasync(f *os.File) error { return f.Sync() }
