// Package swf reads workload traces in the Standard Workload Format (SWF)
// of the Parallel Workloads Archive, for replay by lsfc simulate.
//
// A trace is a header of comment lines starting with ';' ("; MaxProcs:
// 1024", "; Queue: 0 interactive", free-text notes) followed by one job per
// line, each of 18 blank-separated numbers in which -1 means unknown. The
// Reader takes plain or gzip-compressed input (told apart by the gzip
// magic bytes, not the file name) and hands out one Job at a time, so that
// a trace of any length is read in bounded memory.
//
// The reader checks syntax, not meaning: a negative run time or a job
// number out of order is returned as it is, for the simulator to judge.
// Its rules, chosen so that a damaged file is reported rather than
// half-read:
//
//   - Lines are numbered from 1, counting every line (header, blank and
//     job lines); every error names its line.
//   - Blank lines are skipped. A line ending may be "\n" or "\r\n".
//   - A job line must have exactly 18 fields. More is an error, not
//     ignored: extra columns mean the file is not SWF or its columns are
//     shifted, and dropping them would replay wrong numbers silently.
//   - Integer fields accept a zero fraction ("32.00"); any other fraction,
//     and anything that is not a decimal number, is an error.
//   - A line longer than MaxLineLen bytes is an error (the longest line of
//     the archive's traces is about 120 bytes), and so is header text
//     beyond MaxHeaderBytes; together they bound the reader's memory.
//   - Errors in one line (a bad number, a long line) are *ParseError and
//     are not sticky: the next call to Next reads the next line, so a
//     caller may skip bad lines. Errors of the input itself (a truncated
//     or corrupt gzip stream, a failing reader) are sticky: every later
//     call returns the same error. A truncated gzip stream is such an
//     error, never a silent end of the trace, and its partial last line is
//     not returned as a job.
package swf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
)

// MaxLineLen is the longest line, without its line ending, that a Reader
// accepts.
const MaxLineLen = 64 << 10

// MaxHeaderBytes bounds the header text a Reader keeps. Real headers are
// a few kilobytes; a megabyte of comments is not a trace.
const MaxHeaderBytes = 1 << 20

// A Reader reads jobs from an SWF trace.
type Reader struct {
	br       *bufio.Reader
	hdr      Header
	hdrBytes int
	line     int   // number of the last line read
	err      error // sticky: io.EOF or an input error

	// The leading header ends at the first job line, which NewReader has
	// therefore parsed already; Next returns it first.
	pending    bool
	pendingJob Job
	pendingErr error

	fields [NumFields][]byte
}

// NewReader returns a Reader of the trace in r, gzip-compressed or not,
// having read its leading header. It returns an error only when the
// input cannot be read (a bad gzip header, a read error); a faulty line
// in the header stops the header there and is reported by the first call
// to Next.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, MaxLineLen+2)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, inputError(1, err)
	}
	rd := &Reader{br: br}
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, inputError(1, err)
		}
		rd.br = bufio.NewReaderSize(zr, MaxLineLen+2)
	}
	for {
		line, err := rd.readLine()
		if err == io.EOF {
			return rd, nil
		}
		var perr *ParseError
		if errors.As(err, &perr) && perr.Err != nil {
			return nil, err
		}
		if err != nil {
			rd.pending, rd.pendingErr = true, err
			return rd, nil
		}
		job, isJob, err := rd.parseLine(line)
		if err != nil || isJob {
			rd.pending, rd.pendingJob, rd.pendingErr = true, job, err
			return rd, nil
		}
	}
}

// Header returns the trace's header. It holds the leading header once
// NewReader returns, and grows as Next meets comment lines between jobs:
// those are kept too, with their line numbers, so the Fields stay in file
// order.
func (r *Reader) Header() *Header { return &r.hdr }

// Next returns the next job, or io.EOF after the last one. See the package
// documentation for which errors a caller may read past.
func (r *Reader) Next() (Job, error) {
	if r.pending {
		r.pending = false
		job, err := r.pendingJob, r.pendingErr
		r.pendingJob, r.pendingErr = Job{}, nil
		return job, err
	}
	for {
		line, err := r.readLine()
		if err != nil {
			return Job{}, err
		}
		job, isJob, err := r.parseLine(line)
		if err != nil || isJob {
			return job, err
		}
	}
}

// ReadAll reads the remaining jobs. It stops at the first error and
// returns the jobs read before it; at the end of the input the error is
// nil. It holds every job in memory (about 150 bytes a job); Next
// streams instead.
func (r *Reader) ReadAll() ([]Job, error) {
	var jobs []Job
	for {
		job, err := r.Next()
		if err == io.EOF {
			return jobs, nil
		}
		if err != nil {
			return jobs, err
		}
		if len(jobs) == cap(jobs) {
			// Doubling, not append's gentler growth for large slices:
			// it halves the bytes copied and allocated for a long trace.
			jobs = slices.Grow(jobs, max(len(jobs), 1024))
		}
		jobs = append(jobs, job)
	}
}

// parseLine handles one line: a blank line is skipped, a comment is added
// to the header, anything else is parsed as a job (isJob true, or an
// error).
func (r *Reader) parseLine(line []byte) (job Job, isJob bool, err error) {
	s := trimSpace(line)
	switch {
	case len(s) == 0:
		return Job{}, false, nil
	case s[0] == ';':
		if r.hdrBytes += len(s); r.hdrBytes > MaxHeaderBytes {
			return Job{}, false, &ParseError{Line: r.line, Msg: fmt.Sprintf("header longer than %d bytes", MaxHeaderBytes)}
		}
		r.hdr.Fields = append(r.hdr.Fields, parseField(comment(s), r.line))
		return Job{}, false, nil
	}
	job, err = parseJob(s, r.line, &r.fields)
	return job, err == nil, err
}

// readLine returns the next line without its line ending, valid until the
// next read.
func (r *Reader) readLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.line++
		for err == bufio.ErrBufferFull {
			_, err = r.br.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			r.err = inputError(r.line, err)
			return nil, r.err
		}
		return nil, &ParseError{Line: r.line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineLen)}
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		// A read error after part of a line (a gzip stream cut short)
		// loses that line: half a job line may still parse, as wrong
		// numbers.
		if err == io.EOF {
			r.err = io.EOF
		} else {
			r.err = inputError(r.line+1, err)
		}
		return nil, r.err
	}
	r.line++
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(line) > MaxLineLen {
		return nil, &ParseError{Line: r.line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineLen)}
	}
	return line, nil
}

// inputError wraps an error of the input at a line.
func inputError(line int, err error) error {
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of input: the stream is truncated"
	}
	return &ParseError{Line: line, Msg: msg, Err: err}
}
