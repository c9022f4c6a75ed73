// Package apitls is the TLS of lsfc serve's API: the configurations of
// its listener and clients, and a client's handshake (Use). It is apart
// from package api so that a program that speaks no TLS, such as the LSF
// commands' own build, does not link it: crypto/tls and crypto/x509 are
// a large part of a small program's start.
package apitls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// ClientConfig returns the TLS configuration of a client of a TCP listener
// (or of a MultiCluster peer): certFile and keyFile are the client's
// certificate and key in PEM, both "" for none (the client then shows the
// shared secret); caFile holds the certificates, in PEM, of the
// authorities that sign the daemons' certificates, "" for the system's.
func ClientConfig(certFile, keyFile, caFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if err := loadKeyPair(cfg, certFile, keyFile); err != nil {
		return nil, err
	}
	if caFile != "" {
		pool, err := loadPool(caFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// ServerConfig returns the TLS configuration of a daemon's TCP listener: its
// certificate and key in PEM, and clientCAFile, when not "", the
// certificates of the authorities whose client certificates name a user
// (or a peer cluster). With requireCert every client must show such a
// certificate; without it a client may instead show the shared secret.
func ServerConfig(certFile, keyFile, clientCAFile string, requireCert bool) (*tls.Config, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("TLS needs both a certificate and its key")
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if err := loadKeyPair(cfg, certFile, keyFile); err != nil {
		return nil, err
	}
	if clientCAFile != "" {
		pool, err := loadPool(clientCAFile)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.VerifyClientCertIfGiven
		if requireCert {
			cfg.ClientAuth = tls.RequireAndVerifyClientCert
		}
	} else if requireCert {
		return nil, errors.New("client certificates are required but no authority to verify them is given")
	}
	return cfg, nil
}

// CertName returns the name a certificate gives its holder: the common
// name of its subject, else its first DNS name ("" when it has neither).
func CertName(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return c.Subject.CommonName
	}
	if len(c.DNSNames) > 0 {
		return c.DNSNames[0]
	}
	return ""
}

// loadKeyPair sets cfg's certificate from certFile and keyFile, when
// either is given.
func loadKeyPair(cfg *tls.Config, certFile, keyFile string) error {
	if certFile == "" && keyFile == "" {
		return nil
	}
	if certFile == "" || keyFile == "" {
		return errors.New("a TLS certificate needs its key, and a key its certificate")
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return fmt.Errorf("TLS certificate %s: %w", certFile, err)
	}
	cfg.Certificates = []tls.Certificate{pair}
	return nil
}

// loadPool reads the PEM certificates of file into a pool.
func loadPool(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("TLS authorities: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("TLS authorities %s: no PEM certificate in the file", file)
	}
	return pool, nil
}

// Use makes a TCP client (api.DialTCP) speak TLS with cfg: its
// certificate, when cfg has one, names the user (the daemon then takes no
// user from the client), and cfg's authorities verify the daemon's, whose
// name is the host of the address unless cfg names one. It returns c.
// Call it before the client's first request.
func Use(c *api.Client, cfg *tls.Config) *api.Client {
	cfg = cfg.Clone()
	return c.SetHandshake(func(ctx context.Context, conn net.Conn, addr string) (net.Conn, error) {
		cfg := cfg
		if cfg.ServerName == "" {
			cfg = cfg.Clone()
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			cfg.ServerName = host
		}
		tc := tls.Client(conn, cfg)
		hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
		defer cancel()
		if err := tc.HandshakeContext(hctx); err != nil {
			return nil, err
		}
		return tc, nil
	})
}

// handshakeTimeout bounds a client's TLS handshake.
const handshakeTimeout = 10 * time.Second
