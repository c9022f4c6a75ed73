package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestNoSpaceMessage checks that a daemon's refusal for want of space is
// printed after the command's name, while its other messages, LSF's own
// words, are printed as they are.
func TestNoSpaceMessage(t *testing.T) {
	for _, c := range []struct {
		err  *api.APIError
		want string
	}{
		{&api.APIError{Status: http.StatusInsufficientStorage, Message: "the cluster cannot record new work: no space left on device"},
			"bsub: the cluster cannot record new work: no space left on device\n"},
		{&api.APIError{Status: http.StatusConflict, Message: "Job <1>: Job has already finished"}, "Job <1>: Job has already finished\n"},
	} {
		var out strings.Builder
		printLSFError(env{stderr: &out}, "bsub", c.err)
		if out.String() != c.want {
			t.Errorf("printLSFError(%d %q) = %q, want %q", c.err.Status, c.err.Message, out.String(), c.want)
		}
	}
}
