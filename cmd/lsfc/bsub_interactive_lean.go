//go:build lsfclient

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/lsfc/lsfc/runtime/api"
)

// runInteractive hands an interactive job (bsub -I, -Ip, -Is) to lsfc: the
// LSF commands' build links none of the job's encrypted stream, which
// would slow every command's start, as it links no TLS. The lsfc
// installed beside lsfc-client, else the first on $PATH, runs the same
// command line in place of this process; bsub submitted nothing yet. It
// returns only when there is no lsfc to run, or exec fails.
func runInteractive(_ context.Context, e env, _ *api.Client, mode string, _ bool, _ *api.SubmitRequest) error {
	self, err := os.Executable()
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	path, tried, err := handOff(e, self, "lsfc", commandLine(os.Args), true, syscall.Exec)
	if path != "" {
		return lsfFailed(e, "bsub", fmt.Errorf("running %s for -%s: %w", path, mode, err))
	}
	return lsfFailed(e, "bsub", fmt.Errorf("-%s runs through lsfc, which this build of the LSF commands leaves interactive jobs to, and no lsfc is found (tried %s)",
		mode, strings.Join(tried, ", ")))
}
