package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// hostName is the name of the i-th host of a generated cluster.
func hostName(i int) string { return fmt.Sprintf("h%05d", i) }

// writeTree writes the configuration of a cluster "scale" of n hosts of
// slots job slots each into dir. JOB_ACCEPT_INTERVAL is 0, so that a host
// takes as many jobs in one cycle as it has free slots.
func writeTree(dir string, n, slots int) error {
	var hosts strings.Builder
	for i := range n {
		fmt.Fprintf(&hosts, "%s  !  !  1  ()\n", hostName(i))
	}
	files := map[string]string{
		"lsf.shared": "Begin Cluster\nClusterName\nscale\nEnd Cluster\n",
		"lsf.cluster.scale": "Begin ClusterAdmins\nAdministrators = (lsfadmin)\nEnd ClusterAdmins\n" +
			"Begin Host\nHOSTNAME  model  type  server  RESOURCES\n" + hosts.String() + "End Host\n",
		"lsb.hosts":  fmt.Sprintf("Begin Host\nHOST_NAME  MXJ\ndefault    %d\nEnd Host\n", slots),
		"lsb.params": "Begin Parameters\nDEFAULT_QUEUE = normal\nJOB_ACCEPT_INTERVAL = 0\nEnd Parameters\n",
		"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY   = 30\nEnd Queue\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
