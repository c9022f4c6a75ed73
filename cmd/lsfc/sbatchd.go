//go:build !lsfclient

package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/apitls"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
	"github.com/spf13/cobra"
)

func newSbatchdCmd(e env) *cobra.Command {
	var (
		master, host, state, secretFile string
		interval                        time.Duration
		tlsf                            tlsFlags
	)
	cmd := &cobra.Command{
		Use:   "sbatchd --master HOST:PORT --host NAME --state DIR",
		Short: "Run the execution agent of a host: report its load, run the jobs the master dispatches there",
		Long: `sbatchd is lsfc's execution agent, LSF's sbatchd and LIM in one: it
registers the host NAME of the cluster's configuration with the master
(lsfc serve --listen HOST:PORT) over its TCP API, with the cluster's
shared secret (--secret-file, else $LSFC_SECRET) or, over TLS (--tls-ca,
the authorities of the master's certificate), with a client certificate
(--tls-cert, --tls-key) named after the host or a cluster administrator;
every --interval it
reports the host's load indices (r15s r1m r15m ut pg io ls it tmp swp mem,
read from /proc) and static facts, which bhosts, lshosts and lsload show;
and it runs the jobs the master dispatches to the host, as lsfc serve runs
its own, reporting how each ends.

With master candidates (lsfc serve --etcd), --master lists them all,
separated by commas: the agent reports to whichever leads, and follows
the leadership when it changes.

Jobs outlive the agent and the master: the agent keeps what it runs in its
state directory (--state), and a restarted agent reports the jobs that
ended while it was away with their real exit status. When the agent falls
silent for three intervals, its host is unavail and its jobs UNKWN; after
the master's --host-lost the host is lost, its rerunnable jobs rerun
elsewhere and the others exit.

Invoked as sbatchd (a link to lsfc), lsfc acts as lsfc sbatchd.`,
		Example: `  LSFC_SECRET=... lsfc sbatchd --master master.example.com:6881 --host hostA --state /var/lib/lsfc/agent
  LSFC_SECRET=... lsfc sbatchd --master m1:6881,m2:6881,m3:6881 --host hostA --state /var/lib/lsfc/agent`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if master == "" || host == "" || state == "" {
				return usageError("sbatchd needs --master, --host and --state")
			}
			secret, err := readSecret(e, secretFile)
			if err != nil {
				return err
			}
			if secret == "" && tlsf.cert == "" {
				return usageError("no credential: give --secret-file, set LSFC_SECRET, or give a client certificate (--tls-cert)")
			}
			c := api.DialTCP(master, secret, currentUser())
			if tlsf.cert != "" || tlsf.key != "" || tlsf.ca != "" {
				cfg, err := apitls.ClientConfig(tlsf.cert, tlsf.key, tlsf.ca)
				if err != nil {
					return exit(exitUsage, err)
				}
				apitls.Use(c, cfg)
			}
			// Descriptors the agent was started with stay out of the
			// supervisor and the jobs it starts.
			localexec.CloseInheritedOnExec()
			a, err := sbatchd.Start(cmd.Context(), sbatchd.Config{Master: c, Host: host, StateDir: state,
				Interval: interval, Logf: func(format string, args ...any) {
					fmt.Fprintf(e.stderr, "lsfc sbatchd: "+format+"\n", args...)
				}})
			if err != nil {
				return exit(exitUsage, err)
			}
			fmt.Fprintf(e.stderr, "lsfc sbatchd: host %s, master %s, state directory %s\n", host, master, state)
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sig)
			s := <-sig
			fmt.Fprintf(e.stderr, "lsfc sbatchd: %v: stopping; running jobs keep running\n", s)
			return a.Close()
		},
	}
	f := cmd.Flags()
	f.StringVar(&master, "master", "", "the master's TCP address (lsfc serve --listen), or the master candidates', separated by commas")
	f.StringVar(&host, "host", "", "this host's name in the cluster's configuration")
	f.StringVar(&state, "state", "", "the agent's state directory: its runs and its jobs' files")
	f.StringVar(&secretFile, "secret-file", "", "file holding the cluster's shared secret (default $LSFC_SECRET)")
	tlsf.registerClient(cmd)
	f.DurationVar(&interval, "interval", 5*time.Second, "how often to report load and to ask for work")
	_ = cmd.RegisterFlagCompletionFunc("host", completeTreeNames(e, hostNames))
	return cmd
}
