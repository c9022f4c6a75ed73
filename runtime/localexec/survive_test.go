package localexec

import (
	"strings"
	"testing"
)

// TestSurvive faults in a goroutine that defers survive: the process goes
// on, and the goroutine's waiter is told.
func TestSurvive(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		defer survive(7, "mail", func(err error) { done <- err })
		var jobs []int
		_ = jobs[len(jobs)] // a fault: index out of range
		done <- nil
	}()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "mail: internal error: runtime error: index out of range") {
		t.Errorf("the waiter was told %v", err)
	}
	// No fault: nothing is called.
	go func() {
		defer survive(7, "mail", func(err error) { done <- err })
		done <- nil
	}()
	if err := <-done; err != nil {
		t.Errorf("a goroutine without a fault: %v", err)
	}
}
