package simstats_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/lsfc/lsfc/runtime/simstats"
)

// FuzzSummarize summarises records made of arbitrary bytes, odd floats
// included: no panic, and every output is written, the JSON valid and
// the HTML well-formed.
func FuzzSummarize(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz"), uint8(4))
	f.Add(bytes.Repeat([]byte{0x7f, 0xf0, 0, 0, 0, 0, 0, 1}, 12), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, slots uint8) {
		name := string(data[:min(len(data), 6)])
		const size = 3*8 + 4
		states := []string{"DONE", "EXIT", "PEND", "SKIPPED", "RUN"}
		var recs []simstats.Record
		for i := 0; len(data) >= size && i < 200; i++ {
			fl := func(k int) float64 {
				v := math.Float64frombits(binary.LittleEndian.Uint64(data[8*k:]))
				if data[size-1]&1 == 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
					v = math.Mod(math.Abs(v), 1e5) // mostly plausible times
				}
				return v
			}
			submit, start, end := fl(0), fl(1), fl(2)
			if data[size-1]&2 == 0 {
				start, end = submit+math.Abs(start), submit+math.Abs(start)+math.Abs(end)
			}
			recs = append(recs, simstats.Record{
				ID: i, Queue: string(data[24:25]), User: string(data[25:26]),
				Submit: submit, Start: start, End: end, Slots: int(int8(data[26])),
				State: states[int(data[27])%len(states)], Preempted: int(data[27] >> 4), Forwarded: data[27]&8 != 0,
			})
			data = data[size:]
		}
		s := simstats.Summarize(recs, int(slots))
		if s.Jobs != len(recs) || len(s.Timeline.Busy) > simstats.MaxTimelinePoints {
			t.Fatalf("%d jobs of %d records, %d timeline points", s.Jobs, len(recs), len(s.Timeline.Busy))
		}
		// A slot pool sampled at the records' submissions, odd shares,
		// sizes and slots included.
		ps := simstats.PoolSeries{Name: name, Size: int(int8(slots)), Queues: []string{"a", name}, Shares: []int{int(int8(slots)) - 20, 50}}
		for _, r := range recs {
			ps.Samples = append(ps.Samples, simstats.PoolSample{T: r.Submit, Slots: []int{r.Slots, r.ID % 3}, Pending: []int{r.Preempted, r.ID % 2}})
		}
		s.Pools = simstats.SummarizePools([]simstats.PoolSeries{ps}, s.LastEnd)
		var b bytes.Buffer
		if err := s.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatal("invalid JSON")
		}
		if err := s.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if err := simstats.WriteComparison(&b, [2]string{"a", "b"}, s, simstats.Summarize(recs[:len(recs)/2], 3)); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		if err := simstats.WriteHTML(&b, []simstats.Run{{Name: name, Summary: s}, {Name: "b", Summary: nil}}); err != nil {
			t.Fatal(err)
		}
		checkHTML(t, b.Bytes())
	})
}
