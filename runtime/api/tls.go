package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// ClientTLS returns the TLS configuration of a client of a TCP listener
// (or of a MultiCluster peer): certFile and keyFile are the client's
// certificate and key in PEM, both "" for none (the client then shows the
// shared secret); caFile holds the certificates, in PEM, of the
// authorities that sign the daemons' certificates, "" for the system's.
func ClientTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
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

// ServerTLS returns the TLS configuration of a daemon's TCP listener: its
// certificate and key in PEM, and clientCAFile, when not "", the
// certificates of the authorities whose client certificates name a user
// (or a peer cluster). With requireCert every client must show such a
// certificate; without it a client may instead show the shared secret.
func ServerTLS(certFile, keyFile, clientCAFile string, requireCert bool) (*tls.Config, error) {
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
