package compile

import (
	"fmt"
	"strconv"
	"strings"
)

// A ServerAddr is one entry of a cluster's Servers column in lsf.shared:
// "host" or "host:port". lsfc reaches a peer cluster's daemon at the
// first of its servers that answers; Port 0 means the entry gives none,
// and the local lsf.conf's LSB_MBD_PORT applies.
type ServerAddr struct {
	Host string `json:"host"`
	Port int    `json:"port,omitempty"`
}

// String writes the address as it is given: host or host:port.
func (a ServerAddr) String() string {
	if a.Port == 0 {
		return a.Host
	}
	return a.Host + ":" + strconv.Itoa(a.Port)
}

// ParseServer reads a Servers entry, "host" or "host:port" with a port
// from 1 to 65535. A bracketed IPv6 address ("[::1]:7000") is read too.
func ParseServer(s string) (ServerAddr, error) {
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return ServerAddr{}, fmt.Errorf("%q has no closing ]", s)
		}
		host, port = s[1:end], s[end+1:]
		if port != "" {
			var ok bool
			if port, ok = strings.CutPrefix(port, ":"); !ok {
				return ServerAddr{}, fmt.Errorf("%q: expected :port after ]", s)
			}
		}
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if strings.Count(s, ":") > 1 {
			return ServerAddr{}, fmt.Errorf("%q: write an IPv6 address in brackets, [address]:port", s)
		}
		host, port = s[:i], s[i+1:]
	}
	if host == "" {
		return ServerAddr{}, fmt.Errorf("%q names no host", s)
	}
	a := ServerAddr{Host: host}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return ServerAddr{}, fmt.Errorf("port %q of %q is not a number from 1 to 65535", port, s)
		}
		a.Port = n
	}
	return a, nil
}

// serverAddrs reads the Servers of a Cluster row, reporting entries that
// are not host[:port].
func (c *compiler) serverAddrs(st *Setting) []ServerAddr {
	if st == nil {
		return nil
	}
	var out []ServerAddr
	for _, w := range words(unparen(st.val)) {
		a, err := ParseServer(w.text)
		if err != nil {
			c.valueError(w.span, "Servers", "%v", err)
			continue
		}
		out = append(out, a)
	}
	return out
}

// Remote returns the queue a SNDJOBS_TO destination names in its
// cluster: its own, or, when it gives none, the send queue's name.
func (d QueueAtCluster) Remote(sendQueue string) string {
	if d.Queue == "" {
		return sendQueue
	}
	return d.Queue
}

// Sends reports whether the queue is a send-jobs queue: it has SNDJOBS_TO
// and HOSTS names no remote host (LSF ignores SNDJOBS_TO then).
func (q *Queue) Sends() bool {
	return len(q.SendTo) > 0 && !mentions(q.Hosts, "allremote") && !hasRemote(q.Hosts)
}

// ReceivesFrom reports whether the queue accepts jobs forwarded by the
// cluster: RCVJOBS_FROM names it or says allclusters.
func (q *Queue) ReceivesFrom(cluster string) bool {
	for _, c := range q.ReceiveFrom {
		if c == cluster || strings.EqualFold(c, "allclusters") {
			return true
		}
	}
	return false
}

// Receives reports whether the queue is a receive-jobs queue.
func (q *Queue) Receives() bool { return len(q.ReceiveFrom) > 0 }

// Backlog returns IMPT_JOBBKLG: the most MultiCluster jobs the queue
// keeps pending (50 unless set), or -1 for infinit.
func (q *Queue) Backlog() int { return mcCount(q.Settings["IMPT_JOBBKLG"], 50) }

// RschedPeriods returns MAX_RSCHED_TIME: how many MBD_SLEEP_TIME periods
// a job forwarded from the queue may pend in the remote cluster before it
// is recalled (20 unless set), or -1 for infinit.
func (q *Queue) RschedPeriods() int { return mcCount(q.Settings["MAX_RSCHED_TIME"], 20) }

// mcCount reads a count that may be infinit (-1).
func mcCount(st *Setting, def int) int {
	if st == nil {
		return def
	}
	switch v := st.Value.(type) {
	case float64:
		return int(v)
	case string:
		if strings.EqualFold(v, "infinit") {
			return -1
		}
	}
	return def
}
