package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// multiclusterRules are the analyzers of MultiCluster job forwarding:
// send and receive queues across clusters, and how peers are reached
// (LSF540–LSF549).
func multiclusterRules() []*Analyzer {
	return []*Analyzer{mcSendUnpaired(), mcReceiveUnpaired(), mcPeerNoAddress(), mcPluginInterval()}
}

// wordSpan returns the span of the first whole word w in a setting's
// value, or the value's span when it is not found.
func wordSpan(st *compile.Setting, w string) lang.Span {
	sp := st.Span()
	text := sp.Src.Text[sp.Start:sp.End]
	for i := 0; i+len(w) <= len(text); i++ {
		if strings.HasPrefix(text[i:], w) && wordEdge(text, i-1) && wordEdge(text, i+len(w)) {
			return sp.Src.SpanOf(sp.Start+i, sp.Start+i+len(w))
		}
	}
	return sp
}

// wordEdge reports whether text[i] is outside the text or a separator.
func wordEdge(text string, i int) bool {
	return i < 0 || i >= len(text) || strings.IndexByte(" \t()", text[i]) >= 0
}

// sendsTo reports whether a send-jobs queue among queues forwards to
// queue@cluster.
func sendsTo(queues []*compile.Queue, cluster, queue string) bool {
	for _, sq := range queues {
		if !sq.Sends() {
			continue
		}
		for _, d := range sq.SendTo {
			if d.Cluster == cluster && d.Remote(sq.Name) == queue {
				return true
			}
		}
	}
	return false
}
