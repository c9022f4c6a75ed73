// Package etcdlog keeps the daemon's event log in etcd, for master
// candidates that share it: transactions of opaque records go in through
// Append, and come back out, in order and each exactly once, through the
// Replay callback of the next Open, on whichever machine it runs.
//
// # Keys
//
// Under a prefix (one per cluster):
//
//	format         the version of this layout, 1; Open refuses a newer one
//	log/SEQ/PART   a part of transaction SEQ (20 digits; PART 4 digits)
//	snapshot       the last compaction: its sequence number and part count
//	snap/SEQ/PART  a part of the snapshot taken at SEQ
//
// A transaction's body is its records, each preceded by its length as an
// unsigned varint; the body is cut into parts of at most ChunkBytes, and
// every part's value starts with the number of parts, so that a
// transaction cut short by a failed write is recognised. Sequence numbers
// go up by one from the snapshot's (0 without one).
//
// # Fencing
//
// Every write is one etcd transaction guarded by Options.Fence: for a
// master elected through etcd, "my election key still has the revision it
// was created with". A master whose lease ran out (it stopped, or a
// partition cut it from the etcd quorum) fails the comparison and its
// write is refused, whole: the log then returns ErrFenced for this and
// every later call, and never writes again.
//
// Transactions appended together are written together (group commit):
// one etcd request carries as many as fit in its size and operation
// limits, and a Commit is durable when the request that holds its last
// part succeeded. A transaction larger than one request goes in several,
// in order; the first Open after a failure between them removes the
// incomplete transaction, which no caller was told was durable.
package etcdlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// ErrFenced is returned when a write was refused because the fence no
// longer holds: another master leads. Its NotLeader says so to the
// daemon, which then answers the request as a standby would.
var ErrFenced error = fencedError{}

type fencedError struct{}

func (fencedError) Error() string {
	return "the event log is held by another master (leadership lost)"
}

// NotLeader reports that the write was refused because another master
// leads: nothing of it was kept, and the request may go to that master.
func (fencedError) NotLeader() bool { return true }

// ErrClosed is returned by calls on a closed Log.
var ErrClosed = errors.New("event log is closed")

const (
	// defaultChunk is the largest part of a transaction, below etcd's
	// default request limit (1.5 MiB) with room for the rest.
	defaultChunk = 512 << 10
	// maxRequestBytes and maxOps bound one etcd request of the writer.
	maxRequestBytes = 1 << 20
	maxOps          = 100
	// formatVersion is the version of the keys' layout and values that
	// this build writes and the newest it reads.
	formatVersion = 1
	// pageSize is how many keys one read of Open asks for.
	pageSize = 256
	// opTimeout bounds one etcd request.
	opTimeout = 15 * time.Second
)

// Options configures Open.
type Options struct {
	// Prefix is where the log's keys live, such as "/lsfc/cluster1/".
	Prefix string
	// Fence guards every write (none: writes are not fenced).
	Fence []clientv3.Cmp
	// Replay, if not nil, is called by Open for each transaction, in
	// order, the snapshot first. If it returns an error Open stops and
	// returns it.
	Replay func(seq uint64, records [][]byte) error
	// ChunkBytes is the largest part of a transaction (0: 512 KiB).
	ChunkBytes int
}

// A Recovery reports what Open found and repaired.
type Recovery struct {
	// Snapshot is the sequence number of the snapshot replayed first (0:
	// none); Transactions counts the transactions after it.
	Snapshot     uint64
	Transactions int
	// Dropped is the sequence number of an incomplete transaction Open
	// removed from the end of the log (0: none).
	Dropped uint64
}

// A Log is an open event log in etcd. Its methods are safe for concurrent
// use.
type Log struct {
	cli  *clientv3.Client
	opts Options

	mu      sync.Mutex
	next    uint64 // the sequence number of the next Append
	queue   []*entry
	err     error // sticky: once set, every call returns it
	closing bool
	wake    chan struct{}
	done    chan struct{} // closed when the writer stops
	stats   Stats
}

// Stats are counters of a Log since Open.
type Stats struct {
	Transactions uint64 // appended
	Requests     uint64 // etcd transactions written
	Bytes        uint64 // bytes of values written
}

// An entry is a transaction, or a compaction, waiting for the writer.
type entry struct {
	seq  uint64
	kvs  []kv
	snap bool // a compaction: kvs are the snapshot's parts
	done chan struct{}
	err  error
}

type kv struct{ key, value string }

// A Commit is the handle of one appended transaction.
type Commit struct{ e *entry }

// Seq returns the transaction's sequence number.
func (c Commit) Seq() uint64 { return c.e.seq }

// Wait blocks until the transaction is durable in etcd, and returns nil,
// or returns why it will never be.
func (c Commit) Wait() error {
	<-c.e.done
	return c.e.err
}

// Open reads the log under opts.Prefix, replays it, removes an incomplete
// transaction at its end, and returns the log ready for appends.
func Open(ctx context.Context, cli *clientv3.Client, opts Options) (*Log, *Recovery, error) {
	if opts.Prefix == "" {
		return nil, nil, errors.New("etcd event log: no key prefix")
	}
	if opts.ChunkBytes <= 0 {
		opts.ChunkBytes = defaultChunk
	}
	l := &Log{cli: cli, opts: opts, wake: make(chan struct{}, 1), done: make(chan struct{})}
	rec, err := l.load(ctx)
	if err != nil {
		return nil, nil, err
	}
	go l.run()
	return l, rec, nil
}

func (l *Log) key(kind string, seq uint64, part int) string {
	return fmt.Sprintf("%s%s/%020d/%04d", l.opts.Prefix, kind, seq, part)
}

// load replays the snapshot and the transactions after it, all read at
// one revision of the store.
func (l *Log) load(ctx context.Context) (*Recovery, error) {
	rec := &Recovery{}
	if err := l.checkFormat(ctx); err != nil {
		return nil, err
	}
	resp, err := l.get(ctx, l.opts.Prefix+"snapshot")
	if err != nil {
		return nil, err
	}
	rev := resp.Header.Revision
	var start uint64
	if len(resp.Kvs) == 1 {
		seq, parts, err := decodeSnapshotKey(resp.Kvs[0].Value)
		if err != nil {
			return nil, l.corrupt("snapshot", err)
		}
		body, n, err := l.collect(ctx, l.opts.Prefix+"snap/"+fmt.Sprintf("%020d/", seq), rev)
		if err != nil {
			return nil, err
		}
		if n != parts {
			return nil, l.corrupt("snapshot", fmt.Errorf("%d parts of %d", n, parts))
		}
		if err := l.replay(seq, body); err != nil {
			return nil, err
		}
		start, rec.Snapshot = seq, seq
	}
	// The transactions, a page at a time.
	next := start + 1
	var cur struct {
		seq   uint64
		parts int
		body  []byte
		got   int
	}
	flush := func() error {
		if cur.seq == 0 {
			return nil
		}
		if cur.got != cur.parts {
			return fmt.Errorf("transaction %d: %d parts of %d", cur.seq, cur.got, cur.parts)
		}
		if err := l.replay(cur.seq, cur.body); err != nil {
			return err
		}
		rec.Transactions++
		next = cur.seq + 1
		cur.seq = 0
		return nil
	}
	from, end := l.opts.Prefix+"log/", clientv3.GetPrefixRangeEnd(l.opts.Prefix+"log/")
	for {
		page, err := l.page(ctx, from, end, rev)
		if err != nil {
			return nil, err
		}
		for _, kv := range page.Kvs {
			seq, part, err := parseKey(strings.TrimPrefix(string(kv.Key), l.opts.Prefix+"log/"))
			if err != nil {
				return nil, l.corrupt(string(kv.Key), err)
			}
			parts, chunk, err := decodePart(kv.Value)
			if err != nil {
				return nil, l.corrupt(string(kv.Key), err)
			}
			if seq != cur.seq {
				if err := flush(); err != nil {
					return nil, l.corrupt(string(kv.Key), err)
				}
				if seq != next {
					return nil, l.corrupt(string(kv.Key), fmt.Errorf("transaction %d follows %d", seq, next-1))
				}
				cur.seq, cur.parts, cur.body, cur.got = seq, parts, nil, 0
			}
			if part != cur.got || parts != cur.parts {
				return nil, l.corrupt(string(kv.Key), fmt.Errorf("part %d of %d where part %d of %d was due", part, parts, cur.got, cur.parts))
			}
			cur.body = append(cur.body, chunk...)
			cur.got++
		}
		if !page.More || len(page.Kvs) == 0 {
			break
		}
		from = string(page.Kvs[len(page.Kvs)-1].Key) + "\x00"
	}
	if cur.seq != 0 && cur.got < cur.parts {
		// The last transaction is incomplete: its writer failed between
		// two requests, before anyone was told it was durable.
		if err := l.write(ctx, []clientv3.Op{clientv3.OpDelete(fmt.Sprintf("%slog/%020d/", l.opts.Prefix, cur.seq), clientv3.WithPrefix())}); err != nil {
			return nil, err
		}
		rec.Dropped = cur.seq
		next = cur.seq
	} else if err := flush(); err != nil {
		return nil, l.corrupt("log", err)
	}
	l.next = next
	return rec, nil
}

// get reads one key, linearizably.
// checkFormat reads the log's format key: a newer version than this
// build's is refused; a log without one (new, or written before the key
// was kept) gets this build's.
func (l *Log) checkFormat(ctx context.Context) error {
	key := l.opts.Prefix + "format"
	resp, err := l.get(ctx, key)
	if err != nil {
		return err
	}
	if len(resp.Kvs) == 0 {
		return l.write(ctx, []clientv3.Op{clientv3.OpPut(key, strconv.Itoa(formatVersion))})
	}
	v, err := strconv.Atoi(string(resp.Kvs[0].Value))
	switch {
	case err != nil || v < 1:
		return l.corrupt(key, fmt.Errorf("bad format version %q", resp.Kvs[0].Value))
	case v > formatVersion:
		return fmt.Errorf("etcd event log under %q is of format version %d, newer than this lsfc reads (%d): run a newer lsfc", l.opts.Prefix, v, formatVersion)
	}
	return nil
}

func (l *Log) get(ctx context.Context, key string) (*clientv3.GetResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	resp, err := l.cli.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("etcd event log: reading %s: %w", key, err)
	}
	return resp, nil
}

// page reads the keys in [from, end) at rev, a page at a time.
func (l *Log) page(ctx context.Context, from, end string, rev int64) (*clientv3.GetResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	resp, err := l.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithRev(rev), clientv3.WithLimit(pageSize),
		clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		return nil, fmt.Errorf("etcd event log: reading %s: %w", l.opts.Prefix, err)
	}
	return resp, nil
}

// collect reads the parts under prefix at rev and joins them.
func (l *Log) collect(ctx context.Context, prefix string, rev int64) ([]byte, int, error) {
	var body []byte
	n := 0
	from, end := prefix, clientv3.GetPrefixRangeEnd(prefix)
	for {
		page, err := l.page(ctx, from, end, rev)
		if err != nil {
			return nil, 0, err
		}
		for _, kv := range page.Kvs {
			_, chunk, err := decodePart(kv.Value)
			if err != nil {
				return nil, 0, l.corrupt(string(kv.Key), err)
			}
			body = append(body, chunk...)
			n++
		}
		if !page.More || len(page.Kvs) == 0 {
			return body, n, nil
		}
		from = string(page.Kvs[len(page.Kvs)-1].Key) + "\x00"
	}
}

// replay splits a body into its records and gives them to Replay.
func (l *Log) replay(seq uint64, body []byte) error {
	records, err := splitRecords(body)
	if err != nil {
		return l.corrupt(fmt.Sprintf("transaction %d", seq), err)
	}
	if l.opts.Replay == nil {
		return nil
	}
	return l.opts.Replay(seq, records)
}

func (l *Log) corrupt(where string, err error) error {
	return fmt.Errorf("etcd event log %s: %s: corrupt: %w", l.opts.Prefix, where, err)
}

// LeaderFence is the Fence of a master elected through etcd: its
// election key (concurrency.Election's Key) still has the creation
// revision it was elected with (Rev). The key goes when the master
// resigns, when its lease runs out or is revoked, or when it is deleted;
// a newer leader's key is another key. From then on the log refuses
// every write, even though its client still reaches etcd.
func LeaderFence(key string, rev int64) []clientv3.Cmp {
	return []clientv3.Cmp{clientv3.Compare(clientv3.CreateRevision(key), "=", rev)}
}

// Append adds a transaction of records, which it copies, and returns its
// Commit without waiting for it to be durable.
func (l *Log) Append(records [][]byte) (Commit, error) {
	body := joinRecords(records)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return Commit{}, l.err
	}
	if l.closing {
		return Commit{}, ErrClosed
	}
	e := &entry{seq: l.next, done: make(chan struct{})}
	e.kvs = l.parts("log", e.seq, body)
	l.next++
	l.stats.Transactions++
	l.queue = append(l.queue, e)
	l.signal()
	return Commit{e}, nil
}

// Compact replaces the log with snapshot, which must reflect every
// transaction appended so far, and returns once that is durable.
func (l *Log) Compact(snapshot [][]byte) error {
	body := joinRecords(snapshot)
	l.mu.Lock()
	if l.err != nil || l.closing {
		err := l.err
		if err == nil {
			err = ErrClosed
		}
		l.mu.Unlock()
		return err
	}
	e := &entry{seq: l.next - 1, snap: true, done: make(chan struct{})}
	e.kvs = l.parts("snap", e.seq, body)
	l.queue = append(l.queue, e)
	l.signal()
	l.mu.Unlock()
	<-e.done
	return e.err
}

// Stats returns the log's counters.
func (l *Log) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close writes what was appended, stops the writer and returns the first
// error the log met (nil if none).
func (l *Log) Close() error {
	l.mu.Lock()
	l.closing = true
	l.signal()
	l.mu.Unlock()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if errors.Is(l.err, ErrClosed) {
		return nil
	}
	return l.err
}

func (l *Log) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// parts cuts a body into the keys and values of kind/seq.
func (l *Log) parts(kind string, seq uint64, body []byte) []kv {
	n := max(1, (len(body)+l.opts.ChunkBytes-1)/l.opts.ChunkBytes)
	out := make([]kv, n)
	for i := range n {
		chunk := body[min(i*l.opts.ChunkBytes, len(body)):min((i+1)*l.opts.ChunkBytes, len(body))]
		v := binary.AppendUvarint(nil, uint64(n))
		out[i] = kv{key: l.key(kind, seq, i), value: string(append(v, chunk...))}
	}
	return out
}

// run is the writer: it takes what waits and writes it, as few etcd
// requests as the limits allow, in order.
func (l *Log) run() {
	defer close(l.done)
	for {
		l.mu.Lock()
		for len(l.queue) == 0 && !l.closing {
			l.mu.Unlock()
			<-l.wake
			l.mu.Lock()
		}
		batch := l.queue
		l.queue = nil
		closing := l.closing
		failed := l.err
		l.mu.Unlock()
		if failed == nil {
			failed = l.writeBatch(batch)
		}
		for _, e := range batch {
			if failed != nil && !isClosed(e.done) {
				e.err = failed
				close(e.done)
			}
		}
		if failed != nil {
			l.mu.Lock()
			if l.err == nil {
				l.err = failed
			}
			l.mu.Unlock()
		}
		if closing && len(batch) == 0 {
			l.mu.Lock()
			if l.err == nil {
				l.err = ErrClosed
			}
			rest := l.queue
			l.queue = nil
			l.mu.Unlock()
			for _, e := range rest {
				e.err = ErrClosed
				close(e.done)
			}
			return
		}
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// writeBatch writes entries in order, closing each one's done once it is
// durable.
func (l *Log) writeBatch(batch []*entry) error {
	var ops []clientv3.Op
	var ready []*entry // entries whose last part is in ops
	size := 0
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		if err := l.write(context.Background(), ops); err != nil {
			return err
		}
		l.mu.Lock()
		l.stats.Requests++
		l.stats.Bytes += uint64(size)
		l.mu.Unlock()
		for _, e := range ready {
			close(e.done)
		}
		ops, ready, size = nil, nil, 0
		return nil
	}
	for _, e := range batch {
		if e.snap {
			// Parts an earlier, failed compaction at the same point left.
			if err := flush(); err != nil {
				return err
			}
			stale := clientv3.OpDelete(fmt.Sprintf("%ssnap/%020d/", l.opts.Prefix, e.seq), clientv3.WithPrefix())
			if err := l.write(context.Background(), []clientv3.Op{stale}); err != nil {
				return err
			}
		}
		for i, p := range e.kvs {
			if len(ops) > 0 && (len(ops)+1 > maxOps || size+len(p.value)+len(p.key) > maxRequestBytes) {
				if err := flush(); err != nil {
					return err
				}
			}
			ops = append(ops, clientv3.OpPut(p.key, p.value))
			size += len(p.value) + len(p.key)
			if i == len(e.kvs)-1 && !e.snap {
				ready = append(ready, e)
			}
		}
		if e.snap {
			// Once its parts are written, the snapshot replaces what it
			// covers, in one request.
			if err := flush(); err != nil {
				return err
			}
			p := l.opts.Prefix
			ops = []clientv3.Op{
				clientv3.OpPut(p+"snapshot", encodeSnapshotKey(e.seq, len(e.kvs))),
				clientv3.OpDelete(p+"log/", clientv3.WithRange(l.key("log", e.seq+1, 0))),
				clientv3.OpDelete(p+"snap/", clientv3.WithRange(l.key("snap", e.seq, 0))),
			}
			ready = []*entry{e}
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// write runs ops as one fenced etcd transaction.
func (l *Log) write(ctx context.Context, ops []clientv3.Op) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	resp, err := l.cli.Txn(ctx).If(l.opts.Fence...).Then(ops...).Commit()
	if err != nil {
		return fmt.Errorf("etcd event log: writing: %w", err)
	}
	if !resp.Succeeded {
		return ErrFenced
	}
	return nil
}

// joinRecords is a transaction's body: each record after its length.
func joinRecords(records [][]byte) []byte {
	n := 0
	for _, r := range records {
		n += len(r) + binary.MaxVarintLen64
	}
	body := make([]byte, 0, n)
	for _, r := range records {
		body = binary.AppendUvarint(body, uint64(len(r)))
		body = append(body, r...)
	}
	return body
}

// splitRecords undoes joinRecords.
func splitRecords(body []byte) ([][]byte, error) {
	var out [][]byte
	for len(body) > 0 {
		n, k := uvarint(body)
		if k <= 0 || n > uint64(len(body)-k) {
			return nil, errors.New("a record runs past the end of its transaction")
		}
		out = append(out, body[k:k+int(n)])
		body = body[k+int(n):]
	}
	return out, nil
}

// uvarint reads an unsigned varint in its shortest form (k <= 0: none).
func uvarint(b []byte) (uint64, int) {
	n, k := binary.Uvarint(b)
	if k > 0 && k != len(binary.AppendUvarint(nil, n)) {
		return 0, -1
	}
	return n, k
}

// decodePart returns a part's count of parts and its bytes.
func decodePart(v []byte) (int, []byte, error) {
	n, k := uvarint(v)
	if k <= 0 || n == 0 || n > 1<<20 {
		return 0, nil, errors.New("bad part header")
	}
	return int(n), v[k:], nil
}

// parseKey reads "SEQ/PART".
func parseKey(s string) (uint64, int, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok || len(a) != 20 || len(b) != 4 {
		return 0, 0, fmt.Errorf("unexpected key")
	}
	// Digits only: a sign ("-000") would give a key of its own that
	// names the same part.
	seq, err1 := strconv.ParseUint(a, 10, 64)
	part, err2 := strconv.ParseUint(b, 10, 16)
	if err1 != nil || err2 != nil || seq == 0 {
		return 0, 0, fmt.Errorf("unexpected key")
	}
	return seq, int(part), nil
}

func encodeSnapshotKey(seq uint64, parts int) string {
	return fmt.Sprintf("%d %d", seq, parts)
}

func decodeSnapshotKey(v []byte) (uint64, int, error) {
	a, b, ok := strings.Cut(string(v), " ")
	seq, err1 := strconv.ParseUint(a, 10, 64)
	parts, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || parts < 1 {
		return 0, 0, fmt.Errorf("bad value %q", v)
	}
	return seq, parts, nil
}
