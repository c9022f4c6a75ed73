//go:build !linux

package fsync

import "os"

// DataSync makes the data written to f durable; where fdatasync is not
// available it is a full sync.
func DataSync(f *os.File) error { return f.Sync() }
