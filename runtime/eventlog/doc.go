// Package eventlog is the daemon's durable event log: transactions of
// opaque records go in through Append, and come back out, in order and
// each exactly once, through the Replay callback of the next Open.
//
// The log is one file (lsb.events in the state directory). A transaction
// is a list of records (the daemon puts JSON in them: RECORDS.md beside
// this file describes them) under a sequence number; a transaction is
// durable, or absent, as a whole.
//
// # File format
//
// All integers are little-endian. The file is a 24-byte header followed by
// frames, one frame per transaction, back to back:
//
//	header (24 bytes)
//	  0  8  magic "LSFCELOG"
//	  8  4  format version, 1
//	 12  8  sealed length: the file's length when it got its name
//	 20  4  CRC-32C (Castagnoli) of bytes 0..20
//
//	frame (8 + L bytes)
//	  0  4  L, the length of the body, 12 <= L <= MaxFrameSize
//	  4  4  CRC-32C (Castagnoli) of the body
//	  8  L  body:
//	          0  8  sequence number
//	          8  4  record count n, at most (L-12)/4
//	         12     n records, each a 4-byte length (at most MaxRecordSize)
//	                followed by that many bytes; the records fill the
//	                body exactly
//
// Sequence numbers go up by one from each frame to the next. A fresh log's
// first transaction is 1. A compacted file starts with the snapshot, whose
// number is that of the last transaction it covers (0 if none), and
// Append continues from there. A frame is intact when its length is in
// range, it lies inside the file and its checksum matches. Only intact
// frames are decoded, and a body larger than 1 MiB is checksummed before
// memory is allocated for it, so a damaged length can make the reader
// read to the end of the file but never allocate more than 1 MiB.
//
// A file is only ever given its name complete: the empty log made by Open
// and the file made by a compaction are written to lsb.events.tmp, synced,
// renamed over lsb.events, and the directory is synced. The header's
// sealed length records how much of the file was durable at that moment;
// nothing below it can have been torn by a crash.
//
// # Torn tails and corruption
//
// Open reads the frames in order and stops at the first one that is not
// intact (an incomplete header, a length out of range or past the end of
// the file, a checksum mismatch). Writes only ever add to the end, and a
// crash can leave the last writes partly on disk, zero-filled or in
// pieces, but cannot damage what was durable before them and cannot make
// an intact frame out of nothing. So the rule is:
//
//   - the damage is a torn tail if it lies at or above the sealed length
//     and no intact frame with a later sequence number starts anywhere
//     between it and the end of the file (a byte-by-byte search). Open
//     then truncates the file to the end of the last intact frame, syncs
//     it, and reports the offset and the bytes dropped in Recovery. This
//     covers an incomplete last frame, a last frame whose checksum fails,
//     trailing zero bytes and trailing garbage;
//   - so is a hole in the last write: a group is written over zeros the
//     file already holds (see Group commit), and fdatasync orders none of
//     its page writes, so a crash during the sync can leave a later page
//     of the group on disk and an earlier one still zeros. Each group is
//     synced before the next is written, and a successful sync makes
//     every page written before it durable; so intact frames after a
//     hole of zeros can only belong to the write that was in flight,
//     which no one was told was durable. Open cuts such a tail too,
//     reporting the intact transactions it dropped (Recovery.TornWrite),
//     when all of this holds: the damage is at or above the sealed
//     length; it is a hole of zeros as a disk leaves one, that is a frame
//     whose length reads 0 followed by zeros to the end of its 512-byte
//     sector, or a frame whose checksum fails with one of its sectors
//     after the first all zeros; and the file holds no byte other than
//     zero further than 64 MiB (the most one write of several
//     transactions holds) past the damage. Anything else after an intact
//     later frame (bytes that are not zeros, a hole followed by more data
//     than one write) is corruption in acknowledged data.
//   - otherwise it is interior corruption: an intact later frame shows that
//     transactions were committed after the damaged one, and dropping them
//     would lose acknowledged data. Open fails with a *CorruptError that
//     names the path and the offset of the damage, and changes nothing.
//
// A bad header, a file shorter than its sealed length, an intact frame
// whose sequence number does not follow, and an intact frame whose
// records do not fill its body exactly are corruption wherever they are.
// Damage in the last frame of the file, and a hole of zeros in the last
// write, are indistinguishable from a torn write and are always treated
// as one: were they the loss of data a sync had made durable (a failing
// disk), the transactions cut would have been acknowledged.
//
// # Group commit
//
// Append encodes the transaction into the pending group and returns at
// once with a Commit; Commit.Wait returns when it is durable. One
// background writer takes everything appended while its previous write
// and fdatasync were in flight and makes it durable with one write and
// one fdatasync, so concurrent appenders share syncs. AppendDeferred
// appends a transaction that calls for no write of its own: it waits in
// the pending group for one that does, or for its deadline. After a failed
// write or sync the log refuses every further append with that error: the
// state of the file is unknown until the next Open recovers it.
//
// The writer keeps the file's length ahead of its transactions: it
// extends the file by a megabyte of zeros at a time, fsynced once, so that
// each group is written over blocks the file already holds and its
// fdatasync has no length to make durable (on a journalling file system,
// no journal commit: the sync takes about half as long). Zeros are never a
// frame (a length of 0 is out of range), so a reader stops at them. Close
// cuts them off; a crash leaves them, and Open cuts them as a torn tail
// that held no transaction (Recovery.ZeroTail). Without space for the
// zeros, groups are written as before, each extending the file.
//
// A write or sync that fails for want of space (ENOSPC, EDQUOT) is the
// exception: the writer cuts the file back to its durable length, reports
// the error through Stalled, and tries the same group again every 200 ms.
// Appends go on meanwhile and wait in memory, in order; their Commits
// complete once space is back and they are written. Closing a stalled log
// fails the groups never written with the error.
//
// # Compaction
//
// Compact replaces the log with a file holding one transaction, the
// snapshot, followed by the transactions appended after the point the
// snapshot covers (Compact: the call; CompactAt: a Mark). The snapshot is
// written to lsb.events.tmp and synced while appends go on; then the
// writer, between two groups, copies the transactions appended since the
// mark, syncs, renames the file over lsb.events and syncs the directory.
// Appends are never blocked and never lost: those made during the switch
// wait in the pending group and go to the new file. With
// Options.KeepPrevious the replaced file is kept as lsb.events.1. A
// leftover lsb.events.tmp is never part of the log: Open removes it.
//
// A log file may be open in one Log, in one process, at a time.
package eventlog
