// Package lsbacct reads and writes LSF's job accounting file, lsb.acct:
// bytes in, Records out, and Records in, the JOB_FINISH lines of LSF 10.1
// fix pack 8 (version "10.108") out.
//
// The file holds one record per line, its fields separated by blanks;
// strings are between double quotes, a quote inside a string doubled
// (""), and numbers are bare. A JOB_FINISH record's fields follow the
// order of IBM's lsb.acct page, counted lists (asked hosts, execution
// hosts, submission extensions, host rusage, networks, allocated slots,
// index ranges, GPU rusage, storage information, key-value pairs) as a
// count followed by their items. One difference with the page: LSF's
// files hold runLimit before options3, not after, and so do this
// package's reader and writer.
//
// The Scanner reads the records of LSF 10.1 and of older versions, whose
// records are prefixes of 10.1's: a record of version 10 or later must
// hold every field up to requeueTime, an older one every field up to the
// rusage; the fields after those may end the record at any field
// boundary. Fields past the last one this package knows are kept as
// written (Record.Extra). A line that is not a good record is reported
// as a *ParseError naming the file, the line and the field, and skipped;
// it never stops the reading. Blank lines and lines starting with '#'
// (which LSF does not write, but hand-edited files hold) are skipped.
//
// Append writes a Record as one line, in the 10.108 layout, the way LSF
// writes it, so that what reads LSF's lsb.acct reads it too. A Log
// appends records to a directory's lsb.acct durably and archives it into
// lsb.acct.1, lsb.acct.2, ... as lsb.params's ACCT_ARCHIVE_AGE,
// ACCT_ARCHIVE_SIZE, ACCT_ARCHIVE_TIME and MAX_ACCT_ARCHIVE_FILE say;
// Recent reads back the records of a recent period, from the end. The
// package imports only the standard library: the LSF commands use it.
package lsbacct
