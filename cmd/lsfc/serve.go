//go:build !lsfclient

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/spf13/cobra"
)

func newServeCmd(e env) *cobra.Command {
	var (
		tf                  treeFlags
		conf, state, listen string
		secretFile, host    string
		tlsf                tlsFlags
		perPeer             int
		interval, hostLost  time.Duration
		noWatch, newCluster bool
		ef                  etcdFlags
	)
	cmd := &cobra.Command{
		Use:   "serve [--conf PATH] [--state DIR]",
		Short: "Run the batch daemon: schedule and run jobs, answer LSF's commands",
		Long: `serve runs lsfc's batch daemon on a configuration tree, as mbatchd does:
it takes submissions (lsfc bsub, or bsub through a link to lsfc), runs
scheduling cycles as things happen, starts each job as a real process on
this machine, and keeps every change in a durable event log (lsb.events)
in its state directory, so that a restarted daemon recovers every job,
those that finished while it was down included.

serve reads its configuration again, with the checks of lsfc check, on
badmin reconfig and whenever a file of the tree changes (unless
--no-watch): a configuration with errors is refused and the one running
keeps serving; a good one is swapped in between two cycles, running jobs
untouched, pending jobs taken again by it.

The state directory is --state, else $LSFC_STATE, else LSB_SHAREDIR/<cluster>
from lsf.conf when it can be written, else $XDG_STATE_HOME/lsfc/<cluster>;
clients find the daemon the same way. Only one daemon runs on a state
directory, which is private to the daemon's user (0700, files 0600). The
daemon answers on the Unix socket lsfc.sock of the run directory, the state
directory's sibling with .run added (DIR.run), where each caller
is known by its credentials: a user controls their own jobs, and the
cluster's administrators (ClusterAdmins, queue ADMINISTRATORS, root and the
daemon's own user) control all and may close queues and hosts. --listen
adds a TCP listener whose clients must present the shared secret of
--secret-file (or $LSFC_SECRET). With --tls-cert and --tls-key it speaks
TLS only; with --client-ca a client may instead show a certificate of
those authorities, whose name (subject common name) is the user it acts
for, or the cluster of a MultiCluster peer, and --client-ca without a
secret requires one.

A state directory a daemon ran in whose event log is missing or empty is
refused, not started as an empty cluster; --new starts a new one there.

MultiCluster job forwarding: the clusters of lsf.shared are each their own
lsfc serve, listening (--listen) at an address of their Servers entry
(host:port, or LSB_MBD_PORT) with the same secret. A send-jobs queue's job
that no local host takes goes to the peer's receive-jobs queue with the
most room; the daemon presents its own secret (or, with --tls-cert, its
certificate, named after its cluster) to its peers, delivers and
recalls jobs and polls the peers for their queues and the jobs it sent
every MBD_SLEEP_TIME.

Jobs run on this machine, whichever host they are dispatched to, except
on hosts whose execution agent (lsfc sbatchd) has registered: those run
their jobs and report their own load; a host whose agent falls silent is
unavail (no load reports) or unreach (load, but no exchange of jobs), its
jobs UNKWN, and a host unavail for --host-lost is lost.
The host
named like this machine (or --host) reports this machine's load indices
(r15s r1m r15m ut pg io ls it tmp swp mem, read from /proc), so that
select[mem>...] and load thresholds see real figures there; the other
hosts report none.

Fail-over masters (--etcd): several lsfc serve, on different machines,
each with its own state directory, share one etcd cluster. They elect a
master through etcd; the others stand by, answering every request with
the master's address (clients and agents given all the candidates'
addresses follow it). The event log is kept in etcd instead of
lsb.events, every write fenced by the master's election key, so that a
master cut off from etcd can never write again; when the master dies,
another candidate is elected once its lease (--etcd-ttl) runs out,
replays the log from etcd and goes on. With --etcd, jobs run only
through execution agents, which keep them running across the change:
every host of the configuration is an agent's, unavail until its agent
reports. A candidate is run by lsfc-master, the build of lsfc that links
etcd's client (go build -tags lsfcmaster -o lsfc-master ./cmd/lsfc): lsfc
serve --etcd runs the lsfc-master installed beside lsfc, else the first
on PATH.

serve runs until interrupted (SIGINT, SIGTERM); running jobs keep running
and the next serve on the same state directory takes them back.`,
		Example: `  lsfc serve --conf testdata/clusters/demo --state /tmp/demo-state
  LSFC_STATE=/tmp/demo-state lsfc bsub sleep 60
  LSFC_SECRET=... lsfc serve --conf /etc/lsf --listen :6881 --etcd http://e1:2379,http://e2:2379,http://e3:2379`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ef.endpoints != "" && startCandidate == nil {
				return execMaster(e)
			}
			if conf == "" {
				conf = e.getenv("LSF_ENVDIR")
			}
			if conf == "" {
				return usageError("no configuration: give --conf, or set LSF_ENVDIR")
			}
			res, err := loadTree(e, tf, conf)
			if err != nil {
				return err
			}
			p, dirs := res.Policy, confDirs(conf, res.Tree.Files)
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			// Reloads compile exactly as lsfc check does.
			load := func() (*compile.Policy, lang.Diagnostics, []string, error) {
				res, err := lint.Run(strings.Split(conf, ","), opts)
				if err != nil {
					return nil, nil, nil, err
				}
				return res.Policy, res.Diagnostics, confDirs(conf, res.Tree.Files), nil
			}
			dir, err := daemon.StateDir(state, shareDir(p), p.Cluster)
			if err != nil {
				return exit(exitUsage, err)
			}
			secret, err := readSecret(e, secretFile)
			if err != nil {
				return err
			}
			serverTLS, peerTLS, err := tlsf.serve(secret == "")
			if err != nil {
				return exit(exitUsage, err)
			}
			if serverTLS != nil && listen == "" {
				return usageError("--tls-cert is the certificate of --listen: give --listen too")
			}
			cfg := daemon.Config{Policy: p, StateDir: dir, Listen: listen, Secret: secret, TLS: serverTLS, PeerTLS: peerTLS,
				Conn:        daemon.ConnLimits{PerPeer: perPeer},
				MinInterval: interval, Version: version(), Load: load, Watch: !noWatch, Dirs: dirs, Host: host,
				HostLost: hostLost, New: newCluster,
				Logf: func(format string, args ...any) {
					fmt.Fprintf(e.stderr, "lsfc serve: "+format+"\n", args...)
				}}
			// Descriptors the daemon was started with stay out of the
			// supervisor and the jobs it starts.
			localexec.CloseInheritedOnExec()
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sig)
			if ef.endpoints != "" {
				return serveCandidate(cmd.Context(), e, ef, cfg, sig)
			}
			d, err := daemon.Start(cmd.Context(), cfg)
			if err != nil {
				return exit(exitUsage, err)
			}
			fmt.Fprintf(e.stderr, "lsfc serve: cluster %s, state directory %s, socket %s\n", p.Cluster, dir,
				api.SocketPath(dir))
			select {
			case s := <-sig:
				fmt.Fprintf(e.stderr, "lsfc serve: %v: stopping; running jobs keep running\n", s)
				return d.Close()
			case <-d.Done():
				if err := d.Err(); err != nil {
					return exit(exitFindings, err)
				}
				return nil
			}
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&conf, "conf", "", "configuration tree (an LSF_ENVDIR, a directory of lsb.* files, or files separated by commas); default $LSF_ENVDIR")
	f.StringVar(&state, "state", "", "state directory (default: $LSFC_STATE, LSB_SHAREDIR/<cluster>, $XDG_STATE_HOME/lsfc/<cluster>)")
	f.StringVar(&listen, "listen", "", "also listen on this TCP address (HOST:PORT); clients must present the shared secret or a client certificate")
	f.StringVar(&secretFile, "secret-file", "", "file holding the shared secret of --listen (default $LSFC_SECRET)")
	tlsf.registerServe(cmd)
	f.IntVar(&perPeer, "max-peer-conns", 0, "connections one peer may hold at once: a user on the socket, an address on --listen (default 256)")
	f.DurationVar(&interval, "interval", 0, "least time between two scheduling cycles (default: JOB_SCHEDULING_INTERVAL, else 100ms)")
	f.StringVar(&host, "host", "", "the configuration's name of this machine, whose load indices (read from /proc) its host reports (default: the machine's host name)")
	f.DurationVar(&hostLost, "host-lost", 0, "how long a host whose execution agent is silent stays unavail, its jobs UNKWN, before it is lost: rerunnable jobs rerun elsewhere, the others exit (default 10m)")
	f.BoolVar(&newCluster, "new", false, "start a new, empty cluster in a state directory that held one but whose event log is missing or empty (refused without it; a new or empty directory needs no --new)")
	f.BoolVar(&noWatch, "no-watch", false, "do not reload the configuration when its files change (badmin reconfig still does)")
	_ = cmd.RegisterFlagCompletionFunc("host", completeTreeNames(e, hostNames))
	ef.register(cmd)
	return cmd
}

// etcdFlags are serve's flags of fail-over masters.
type etcdFlags struct {
	endpoints, prefix, advertise string
	ttl                          time.Duration
	cacert, cert, key            string
}

func (ef *etcdFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&ef.endpoints, "etcd", "", "run as a master candidate: the etcd cluster's client URLs, separated by commas")
	f.StringVar(&ef.prefix, "etcd-prefix", "", "where the cluster's keys live in etcd (default /lsfc/<cluster>/)")
	f.DurationVar(&ef.ttl, "etcd-ttl", 3*time.Second, "the master's lease: how long after it dies another candidate takes over (whole seconds)")
	f.StringVar(&ef.advertise, "advertise", "", "the address clients and agents reach this candidate at (default --listen, with this machine's name for an unspecified host)")
	f.StringVar(&ef.cacert, "etcd-cacert", "", "CA certificate file of etcd's TLS")
	f.StringVar(&ef.cert, "etcd-cert", "", "client certificate file for etcd's TLS")
	f.StringVar(&ef.key, "etcd-key", "", "client key file for etcd's TLS")
}

// candidate is a running master candidate (runtime/failover's).
type candidate interface {
	Advertise() string
	Done() <-chan struct{}
	Err() error
	Close() error
}

// startCandidate starts a master candidate on the etcd cluster of ef. It
// is set only in lsfc-master, the build of lsfc that links etcd's client
// (build tag lsfcmaster, serve_master.go): lsfc itself links none of
// etcd, gRPC and their protocol buffers, whose start-up every command
// would pay, and hands serve --etcd to lsfc-master (execMaster).
var startCandidate func(ctx context.Context, ef etcdFlags, cfg daemon.Config) (candidate, error)

// execMaster runs, in place of this process, the lsfc-master installed
// beside this lsfc, else the first on $PATH, with this process's command
// line: serve --etcd is lsfc-master's.
func execMaster(e env) error {
	self, err := os.Executable()
	if err != nil {
		return exit(exitUsage, err)
	}
	if invokedAs(os.Args) == masterName {
		// Run under the name lsfc-master but built without etcd: handing
		// on again would run itself.
		return usageError("this %s is a build of lsfc without etcd; build lsfc-master with: go build -tags lsfcmaster -o %s ./cmd/lsfc", masterName, masterName)
	}
	path, tried, err := handOff(e, self, masterName, commandLine(os.Args), false, syscall.Exec)
	if path != "" {
		return exit(exitUsage, fmt.Errorf("running %s: %w", path, err))
	}
	return usageError("serve --etcd runs a master candidate, which is lsfc-master's, the build of lsfc with etcd's client, and no lsfc-master is found (tried %s); build it with: go build -tags lsfcmaster -o %s ./cmd/lsfc",
		strings.Join(tried, ", "), masterName)
}

// serveCandidate runs serve as a master candidate until a signal.
func serveCandidate(ctx context.Context, e env, ef etcdFlags, cfg daemon.Config, sig <-chan os.Signal) error {
	if cfg.Listen == "" || cfg.Secret == "" {
		return usageError("--etcd needs --listen and the shared secret (--secret-file or LSFC_SECRET): clients and agents reach the master over TCP")
	}
	c, err := startCandidate(ctx, ef, cfg)
	if err != nil {
		return exit(exitUsage, err)
	}
	fmt.Fprintf(e.stderr, "lsfc serve: master candidate of cluster %s at %s, etcd %s\n", cfg.Policy.Cluster, c.Advertise(), ef.endpoints)
	select {
	case s := <-sig:
		fmt.Fprintf(e.stderr, "lsfc serve: %v: stopping; running jobs keep running on their agents\n", s)
		return c.Close()
	case <-c.Done():
		if err := c.Err(); err != nil {
			return exit(exitFindings, err)
		}
		return nil
	}
}

// confDirs returns the directories to watch: those of the files read, and
// the directories named on the command line.
func confDirs(conf string, files []*lang.File) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if abs, err := filepath.Abs(d); err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	for _, f := range files {
		add(filepath.Dir(f.Src.Name))
	}
	for _, c := range strings.Split(conf, ",") {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			add(c)
		} else {
			add(filepath.Dir(c))
		}
	}
	return out
}

// shareDir returns LSB_SHAREDIR of lsf.conf, or "".
func shareDir(p *compile.Policy) string {
	return p.LSFConf.ShareDir
}
