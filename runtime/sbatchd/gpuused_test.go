package sbatchd

import (
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestWithMemUsed checks that the GPUs an agent reports carry the memory
// in use on each GPU measured, and none when nothing is measured, without
// changing the list the agent keeps.
func TestWithMemUsed(t *testing.T) {
	gpus := []api.GPUDevice{{Index: 0, Model: "T4"}, {Index: 1, Model: "T4"}}
	got := withMemUsed(gpus, func() map[int]float64 { return map[int]float64{1: 512} })
	if got[0].MemUsed != nil || got[1].MemUsed == nil || *got[1].MemUsed != 512 {
		t.Errorf("withMemUsed = %+v", got)
	}
	if gpus[1].MemUsed != nil {
		t.Error("withMemUsed changed the agent's own list")
	}
	if got := withMemUsed(gpus, func() map[int]float64 { return nil }); got[0].MemUsed != nil || got[1].MemUsed != nil {
		t.Errorf("withMemUsed with nothing measured = %+v", got)
	}
	called := false
	withMemUsed(nil, func() map[int]float64 { called = true; return nil })
	if called {
		t.Error("a host without GPUs measured their memory")
	}
}
