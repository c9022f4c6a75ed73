//go:build !lsfclient

package main

import (
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/apitls"
)

// useTLS makes c speak TLS with the client certificate and key, and the
// authorities, of the files named ("" for none).
func useTLS(c *api.Client, cert, key, ca string) error {
	cfg, err := apitls.ClientConfig(cert, key, ca)
	if err != nil {
		return err
	}
	apitls.Use(c, cfg)
	return nil
}

// tlsHandOff does nothing in lsfc, which speaks TLS itself.
func tlsHandOff(env) error { return nil }
