//go:build lsfclient

package main

import (
	"errors"
	"os"
	"syscall"

	"github.com/lsfc/lsfc/runtime/api"
)

// useTLS is not reached in the LSF commands' build: a run that asks for
// TLS is handed to lsfc first (tlsHandOff).
func useTLS(*api.Client, string, string, string) error {
	return errors.New("this build of the LSF commands speaks no TLS: run the command through lsfc")
}

// tlsHandOff hands the run to lsfc, which speaks TLS (see handOffTLS); it
// returns only when that fails.
func tlsHandOff(e env) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return handOffTLS(e, self, commandLine(os.Args), syscall.Exec)
}
