package etcdtest

import (
	"context"
	"net"
	"testing"
	"time"
)

// TestLaunchRetriesTakenPort gives the first start a port another
// listener holds: Launch starts the cluster on other ports, and it
// serves.
func TestLaunchRetriesTakenPort(t *testing.T) {
	if testing.Short() {
		t.Skip("starts etcd")
	}
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	taken := held.Addr().(*net.TCPAddr).Port
	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ports, err := freePorts(n)
		if calls == 1 && err == nil {
			ports[len(ports)-1] = taken // the last member's peer port
		}
		return ports, err
	}
	defer func() { pickPorts = freePorts }()

	c, err := Launch(2, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if calls != 2 {
		t.Errorf("ports chosen %d times, want 2", calls)
	}
	for _, ep := range c.Endpoints {
		if ep == "http://"+held.Addr().String() {
			t.Errorf("a member's client URL is the taken address %s", ep)
		}
	}
	c.t = t
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Client().Put(ctx, "k", "v"); err != nil {
		t.Fatalf("the cluster does not serve: %v", err)
	}
}
