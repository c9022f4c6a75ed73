package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzLSFCommandLine runs every LSF command's own option reading on
// arbitrary command lines (words separated by NUL bytes), with a run that
// records what it was given instead of talking to a daemon: each line is
// run, refused as an unsupported option (exit 255, LSF's words) or as a
// usage error, or answered with the help, and never panics; what a run
// gets holds only the command's own options, and its operands come from
// the line in order.
func FuzzLSFCommandLine(f *testing.F) {
	for _, s := range []string{
		"bsub\x00-q\x00normal\x00-n4\x00sleep\x0010",
		"bjobs\x00-u\x00all\x00-noheader\x00-w",
		"bkill\x00-s\x00USR1\x00--\x00-5",
		"bhosts\x00-R\x00select[mem>1]\x00--state=/tmp/x",
		"lsid\x00-h",
		"bqueues\x00-l\x00--state",
		"bsub\x00-oout\x00true",
		"bjobs\x00-zz",
		"bmod\x00-Ln\x00-qnormal\x001",
		"badmin\x00qclose\x00normal",
	} {
		f.Add(s)
	}
	e := env{stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Split(line, "\x00")
		newCmd := lsfCommandNamed(argv[0])
		if newCmd == nil {
			return
		}
		var out, errs bytes.Buffer
		e.stdout, e.stderr = &out, &errs
		c := newCmd(e)
		var got *lsfArgs
		c.run = func(_ context.Context, a *lsfArgs) error {
			got = a
			return nil
		}
		err := c.execute(context.Background(), argv[1:])
		var ee *exitError
		switch {
		case err == nil && got == nil:
			if out.String() != c.help() {
				t.Fatalf("%q: neither run nor the help: %q", argv, out.String())
			}
		case err == nil:
			known := c.spec.options
			for _, name := range got.seq {
				if !slices.ContainsFunc(known, func(o lsfOption) bool { return o.name == name }) {
					t.Fatalf("%q: run got option -%s, which %s does not take", argv, name, c.spec.name)
				}
			}
			rest := argv[1:]
			for _, op := range got.operands {
				i := slices.Index(rest, op)
				if i < 0 {
					t.Fatalf("%q: operand %q is not a word of the line after the last", argv, op)
				}
				rest = rest[i+1:]
			}
		case errors.As(err, &ee) && ee.code == exitLSF:
			if !strings.HasPrefix(errs.String(), c.spec.name+": option -") || !strings.HasSuffix(errs.String(), " is not supported by lsfc\n") {
				t.Fatalf("%q: exit 255 with %q", argv, errs.String())
			}
		case errors.As(err, &ee) && ee.code == exitUsage:
			if ee.err == nil || !strings.HasPrefix(ee.err.Error(), c.spec.name+": ") {
				t.Fatalf("%q: usage error without the command's name: %v", argv, ee.err)
			}
		default:
			t.Fatalf("%q: %v", argv, err)
		}
	})
}
