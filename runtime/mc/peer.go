package mc

import (
	"net"
	"strconv"

	"github.com/lsfc/lsfc/compile"
)

// A Peer is a remote cluster of lsf.shared's Cluster section and the
// addresses its daemon answers at, tried in order.
type Peer struct {
	Name  string
	Addrs []string
}

// Peers returns the clusters of lsf.shared's Cluster section other than
// the local one, in file order. Each Servers entry is host or host:port;
// an entry without a port takes the local lsf.conf's LSB_MBD_PORT (all
// clusters of an installation share lsf.shared, and LSF uses one mbatchd
// port for them, 6881 by default). A cluster with no Servers has no
// address: it is known, and every attempt to reach it fails as for an
// unreachable peer. The TCP API between clusters requires the shared
// secret; Peers only says where to knock.
func Peers(p *compile.Policy) []Peer {
	port := p.LSFConf.MBDPort
	var out []Peer
	for _, c := range p.Clusters {
		if c.Name == p.Cluster {
			continue
		}
		pe := Peer{Name: c.Name}
		for _, a := range c.Addrs {
			pt := a.Port
			if pt == 0 {
				pt = port
			}
			pe.Addrs = append(pe.Addrs, net.JoinHostPort(a.Host, strconv.Itoa(pt)))
		}
		out = append(out, pe)
	}
	return out
}
