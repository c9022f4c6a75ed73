//go:build !lsfclient

package main

import (
	"crypto/tls"
	"errors"

	"github.com/lsfc/lsfc/runtime/apitls"
	"github.com/spf13/cobra"
)

// tlsFlags are the TLS flags of lsfc serve (--tls-cert, --tls-key,
// --client-ca) and of lsfc sbatchd (--tls-cert, --tls-key, --tls-ca).
type tlsFlags struct {
	cert, key, clientCA, ca string
}

func (t *tlsFlags) registerServe(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.cert, "tls-cert", "", "certificate file (PEM) of --listen, which then speaks TLS only; also shown to MultiCluster peers, named after the cluster")
	f.StringVar(&t.key, "tls-key", "", "key file (PEM) of --tls-cert")
	f.StringVar(&t.clientCA, "client-ca", "", "certificates (PEM) of the authorities whose client certificates name a user, or a peer cluster; they also verify the peers' certificates")
}

func (t *tlsFlags) registerClient(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.cert, "tls-cert", "", "client certificate file (PEM): speak TLS to the master, known by the certificate's name")
	f.StringVar(&t.key, "tls-key", "", "key file (PEM) of --tls-cert")
	f.StringVar(&t.ca, "tls-ca", "", "certificates (PEM) of the authorities of the master's certificate (speak TLS; default: the system's)")
}

// serve returns the TLS configurations of lsfc serve: of its listener
// and of its link to the MultiCluster peers, both nil without
// --tls-cert. requireCert (no shared secret) makes client certificates
// the only way in.
func (t *tlsFlags) serve(requireCert bool) (server, peer *tls.Config, err error) {
	if t.cert == "" && t.key == "" {
		if t.clientCA != "" {
			return nil, nil, errors.New("--client-ca needs --tls-cert and --tls-key")
		}
		return nil, nil, nil
	}
	if server, err = apitls.ServerConfig(t.cert, t.key, t.clientCA, requireCert && t.clientCA != ""); err != nil {
		return nil, nil, err
	}
	if peer, err = apitls.ClientConfig(t.cert, t.key, t.clientCA); err != nil {
		return nil, nil, err
	}
	return server, peer, nil
}
