package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Synthetic returns the files of a large, valid LSF_ENVDIR tree with the
// given numbers of queues and hosts, for benchmarks and load tests. The
// keys are paths relative to the tree's root; the same arguments always
// give the same bytes. The cluster is named "synth".
func Synthetic(queues, hosts int) map[string]string {
	files := map[string]string{}
	const batch = "lsbatch/synth/configdir/"
	types := []string{"X86_64", "LINUXPPC64", "AARCH64"}
	models := []string{"XeonE5", "XeonGold", "Power9", "Neoverse"}
	groups := max(1, hosts/100)

	files["lsf.conf"] = `LSF_CONFDIR=/opt/lsf/conf
LSB_CONFDIR=/opt/lsf/conf/lsbatch
LSB_SHAREDIR=/opt/lsf/work
LSF_LOGDIR=/opt/lsf/log
LSF_SERVERDIR=/opt/lsf/10.1/linux/etc
LSF_LIM_PORT=7869
LSF_RES_PORT=6878
LSB_MBD_PORT=6881
LSB_SBD_PORT=6882
LSF_UNIT_FOR_LIMITS=MB
LSF_SERVER_HOSTS="h00000 h00001"
`

	var b strings.Builder
	b.WriteString("Begin Cluster\nClusterName   Servers\nsynth         (h00000 h00001)\nEnd Cluster\n\n")
	b.WriteString("Begin HostType\nTYPENAME\n")
	for _, t := range types {
		fmt.Fprintf(&b, "%s\n", t)
	}
	b.WriteString("End HostType\n\nBegin HostModel\nMODELNAME   CPUFACTOR   ARCHITECTURE\n")
	for i, m := range models {
		fmt.Fprintf(&b, "%s   %d   (x86_64)\n", m, 50+10*i)
	}
	b.WriteString("End HostModel\n\nBegin Resource\nRESOURCENAME   TYPE      INTERVAL   INCREASING   DESCRIPTION\n")
	b.WriteString("fs             Boolean   ()         ()           (File server)\n")
	b.WriteString("gpu            Boolean   ()         ()           (Has a GPU)\n")
	b.WriteString("bigmem         Boolean   ()         ()           (Large memory)\n")
	b.WriteString("ngpus          Numeric   ()         N            (GPUs per host)\n")
	b.WriteString("scratch        Numeric   60         N            (Free scratch space)\n")
	b.WriteString("rack           String    ()         ()           (Rack name)\n")
	b.WriteString("End Resource\n")
	files["lsf.shared"] = b.String()

	b.Reset()
	b.WriteString("Begin ClusterAdmins\nAdministrators = lsfadmin\nEnd ClusterAdmins\n\n")
	b.WriteString("Begin Host\nHOSTNAME   model      type     server   r1m   mem   swp   RESOURCES\n")
	for i := range hosts {
		res := "(fs)"
		switch i % 7 {
		case 0:
			res = "(gpu bigmem)"
		case 3:
			res = "(bigmem)"
		}
		fmt.Fprintf(&b, "h%05d   %s   %s   1   3.5   ()   ()   %s\n", i, models[i%len(models)], types[i%len(types)], res)
	}
	b.WriteString("End Host\n\nBegin ResourceMap\nRESOURCENAME   LOCATION\nscratch        [default]\nngpus          (4@[h00000 h00007])\nEnd ResourceMap\n")
	files["lsf.cluster.synth"] = b.String()

	files[batch+"lsb.params"] = `Begin Parameters
DEFAULT_QUEUE = q0000 q0001
MBD_SLEEP_TIME = 10
SBD_SLEEP_TIME = 7
JOB_ACCEPT_INTERVAL = 0
MAX_JOB_NUM = 10000
HIST_HOURS = 5
End Parameters
`

	b.Reset()
	b.WriteString("Begin Host\nHOST_NAME   MXJ   JL/U   r1m       pg    DISPATCH_WINDOW\n")
	b.WriteString("default     !     ()     ()        ()    ()\n")
	for i := range hosts {
		fmt.Fprintf(&b, "h%05d      %d    ()     3.5/4.5   ()    ()\n", i, 8+8*(i%4))
	}
	b.WriteString("End Host\n\nBegin HostGroup\nGROUP_NAME   GROUP_MEMBER\n")
	for g := range groups {
		fmt.Fprintf(&b, "hg%04d       (h[%05d-%05d])\n", g, g*100, min(hosts, (g+1)*100)-1)
	}
	b.WriteString("End HostGroup\n")
	files[batch+"lsb.hosts"] = b.String()

	b.Reset()
	for q := range queues {
		fmt.Fprintf(&b, "Begin Queue\nQUEUE_NAME   = q%04d\nPRIORITY     = %d\n", q, 1+q%100)
		fmt.Fprintf(&b, "HOSTS        = hg%04d hg%04d+2\n", q%groups, (q+1)%groups)
		fmt.Fprintf(&b, "USERS        = all\n")
		fmt.Fprintf(&b, "RES_REQ      = select[mem > %d && type == %s] order[r15s:pg] rusage[mem=%d]\n", 1000+q%50*100, types[q%len(types)], 500+q%10*100)
		fmt.Fprintf(&b, "r1m          = 3.5/5.0\n")
		fmt.Fprintf(&b, "RUNLIMIT     = %d:00\n", 1+q%48)
		fmt.Fprintf(&b, "MEMLIMIT     = %d\n", 4000+q%8*1000)
		if q%10 == 0 && q > 0 {
			fmt.Fprintf(&b, "PREEMPTION   = PREEMPTIVE[q%04d]\n", q-1)
		}
		fmt.Fprintf(&b, "DESCRIPTION  = synthetic queue %d\nEnd Queue\n\n", q)
	}
	files[batch+"lsb.queues"] = b.String()

	b.Reset()
	b.WriteString("Begin UserGroup\nGROUP_NAME   GROUP_MEMBER\n")
	for g := range 100 {
		fmt.Fprintf(&b, "ug%03d        (u%04d u%04d u%04d)\n", g, 3*g, 3*g+1, 3*g+2)
	}
	b.WriteString("End UserGroup\n\nBegin User\nUSER_NAME   MAX_JOBS   JL/P\ndefault     1000       ()\nEnd User\n")
	files[batch+"lsb.users"] = b.String()

	b.Reset()
	for l := range 100 {
		fmt.Fprintf(&b, "Begin Limit\nNAME = lim%03d\nUSERS = ug%03d\nQUEUES = q%04d\nSLOTS = %d\nEnd Limit\n\n", l, l, l%max(1, queues), 64+l)
	}
	files[batch+"lsb.resources"] = b.String()

	b.Reset()
	for a := range 50 {
		fmt.Fprintf(&b, "Begin Application\nNAME = app%02d\nDESCRIPTION = synthetic application %d\nRES_REQ = rusage[mem=%d]\nEnd Application\n\n", a, a, 100*(a+1))
	}
	files[batch+"lsb.applications"] = b.String()
	return files
}

// WriteTree writes files (as returned by Synthetic) under dir.
func WriteTree(dir string, files map[string]string) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			return err
		}
	}
	return nil
}
