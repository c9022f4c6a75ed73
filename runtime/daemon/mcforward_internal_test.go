package daemon

import (
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
)

// TestMCForwardResizable: a resizable job forwarded to another cluster
// keeps its -n min,max, -ar and -rnc there.
func TestMCForwardResizable(t *testing.T) {
	d := &Daemon{cfg: Config{Policy: &compile.Policy{Cluster: "test"}}}
	j := &runtime.Job{ID: 7, Sub: runtime.Submission{User: "u", Command: "true", Slots: 2, MaxSlots: 4, AutoResize: true,
		ResizeNotify: "resized"}, Remote: &runtime.Remote{Cluster: "peer", Queue: "recv"}}
	f := d.mcForward(j)
	if s := f.Job; s.Slots != 2 || s.MaxSlots != 4 || !s.AutoResize || s.ResizeNotify != "resized" {
		t.Errorf("forwarded -n %d,%d -ar %v -rnc %q, want -n 2,4 -ar -rnc resized", s.Slots, s.MaxSlots, s.AutoResize, s.ResizeNotify)
	}
}
