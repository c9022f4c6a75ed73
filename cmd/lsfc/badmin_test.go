package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

func TestShowStatusPeers(t *testing.T) {
	var b bytes.Buffer
	writeShowStatus(&b, &api.Status{Cluster: "home", Peers: []api.Peer{{Cluster: "east", Up: true, Forwarded: 3}, {Cluster: "west"}}}, time.UTC)
	for _, want := range []string{
		"  MultiCluster peer east:     answers, 3 job(s) forwarded there\n",
		"  MultiCluster peer west:     does not answer, 0 job(s) forwarded there\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("badmin showstatus lacks %q:\n%s", want, b.String())
		}
	}
}
