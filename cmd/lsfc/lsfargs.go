package main

import (
	"fmt"
	"slices"
	"strings"
)

// An lsfOption is one option of an LSF command, spelled as LSF spells it:
// one dash, then a name of one or more letters (-q, -cwd, -noheader).
type lsfOption struct {
	name string // without the dash
	arg  string // the argument's name in usage texts; "" for a switch
}

// lsfArgs is an LSF command line, parsed: the options given, the operands,
// and the options every LSF command of lsfc takes (--state, -h).
type lsfArgs struct {
	opts     map[string][]string // option name → its arguments, in order ("" for a switch)
	seq      []string            // the option names, once per time given, in order
	words    []string            // the word each of seq was read from ("-n4", "-q")
	operands []string
	state    string // --state DIR
	help     bool   // -h, --help
}

// add records that the option was given, read from word, with its
// argument.
func (a *lsfArgs) add(word, name, arg string) {
	a.opts[name] = append(a.opts[name], arg)
	a.seq = append(a.seq, name)
	a.words = append(a.words, word)
}

// last returns whichever of the options was given last, or "".
func (a *lsfArgs) last(names ...string) string {
	for i := len(a.seq) - 1; i >= 0; i-- {
		if slices.Contains(names, a.seq[i]) {
			return a.seq[i]
		}
	}
	return ""
}

// has reports whether the option was given.
func (a *lsfArgs) has(name string) bool {
	_, ok := a.opts[name]
	return ok
}

// value returns the option's last argument, or "".
func (a *lsfArgs) value(name string) string {
	if v := a.opts[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// values returns every argument the option was given, in order.
func (a *lsfArgs) values(name string) []string { return a.opts[name] }

// An unsupportedOptionError is an option LSF documents for a command and
// lsfc does not implement: refused, never accepted and dropped.
type unsupportedOptionError struct {
	option string // as LSF spells it, with its dash: "-gpu"
}

func (e *unsupportedOptionError) Error() string {
	return fmt.Sprintf("option %s is not supported by lsfc", e.option)
}

// parseLSFArgs reads an LSF command line the way LSF's commands do: options
// start with one dash and may have names longer than one letter, matched
// on the whole word (-env is never -e with "nv"). known are the options
// lsfc implements; refused are those LSF documents for the command that
// lsfc does not, and one of them given is an *unsupportedOptionError. An
// option that takes an argument reads the next word; a one-letter one may
// also have it in the same word ("-n4", "-qnormal"), unless the word's
// first two letters begin a longer option name of the command, known or
// refused ("-oout" is refused as unknown, never -o "out" nor -oo "ut").
// "--" ends the options. With stopAtOperand, as bsub does, the first word
// that is not an option ends them too; otherwise options and operands may
// be mixed. --state DIR (or --state=DIR) and -h/--help are known to every
// command.
func parseLSFArgs(argv []string, known, refused []lsfOption, stopAtOperand bool) (*lsfArgs, error) {
	a := &lsfArgs{opts: map[string][]string{}}
	byName := map[string]lsfOption{}
	for _, o := range known {
		byName[o.name] = o
	}
	isRefused := map[string]bool{}
	for _, o := range refused {
		isRefused[o.name] = true
	}
	for i := 0; i < len(argv); i++ {
		w := argv[i]
		switch {
		case w == "--":
			a.operands = append(a.operands, argv[i+1:]...)
			return a, nil
		case w == "-h" || w == "--help":
			a.help = true
			continue
		case w == "--state":
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("--state needs a directory")
			}
			i++
			a.state = argv[i]
			continue
		case strings.HasPrefix(w, "--state="):
			a.state = strings.TrimPrefix(w, "--state=")
			continue
		case len(w) < 2 || w[0] != '-':
			if stopAtOperand {
				a.operands = append(a.operands, argv[i:]...)
				return a, nil
			}
			a.operands = append(a.operands, w)
			continue
		}
		name := w[1:]
		if isRefused[name] {
			return nil, &unsupportedOptionError{option: w}
		}
		if o, ok := byName[name]; ok {
			if o.arg == "" {
				a.add(w, name, "")
				continue
			}
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("-%s needs an argument (%s)", name, o.arg)
			}
			i++
			a.add(w, name, argv[i])
			continue
		}
		short, ok := attachedOption(name, known, refused)
		switch {
		case !ok:
			return nil, fmt.Errorf("unknown option %q", w)
		case isRefused[short]:
			return nil, &unsupportedOptionError{option: "-" + short}
		}
		a.add(w, short, name[len(short):])
	}
	return a, nil
}

// attachedOption returns the name of the one-letter option taking an
// argument that word (an option word without its dash) starts with, for
// an argument written in the same word. There is none when the word's
// first two letters begin a longer option name, known or refused: such a
// word is never split.
func attachedOption(word string, known, refused []lsfOption) (string, bool) {
	if len(word) < 2 {
		return "", false
	}
	for _, o := range slices.Concat(known, refused) {
		if len(o.name) >= 2 && strings.HasPrefix(o.name, word[:2]) {
			return "", false
		}
	}
	for _, o := range slices.Concat(known, refused) {
		if len(o.name) == 1 && o.name[0] == word[0] && o.arg != "" {
			return o.name, true
		}
	}
	return "", false
}

// lsfUsage returns the synopsis of an LSF command's options, as a usage
// line shows them: "[-a] [-q queue] ...".
func lsfUsage(known []lsfOption) string {
	parts := make([]string, 0, len(known))
	for _, o := range known {
		if o.arg == "" {
			parts = append(parts, "[-"+o.name+"]")
		} else {
			parts = append(parts, "[-"+o.name+" "+o.arg+"]")
		}
	}
	return strings.Join(parts, " ")
}

// isLSFCommand reports whether name is one of the LSF commands lsfc acts
// as when it is invoked under that name.
func isLSFCommand(name string) bool {
	return slices.Contains(lsfCommandNames(), name)
}

// lsfCommandNames returns the names of the LSF commands lsfc provides.
func lsfCommandNames() []string {
	return []string{"bacct", "badmin", "bapp", "bbot", "bgadd", "bgdel", "bgmod", "bhist", "bhosts", "bjgroup", "bjobs", "bkill", "blimits", "bmgroup",
		"bmod", "bparams", "bpeek", "bqueues", "brequeue", "bresize", "bresume", "brsvadd", "brsvdel", "brsvmod", "brsvs", "bsla", "bslots", "bstop", "bsub", "bswitch", "btop", "bugroup",
		"busers", "lsadmin", "lsclusters", "lshosts", "lsid", "lsinfo", "lsload", "sbatchd"}
}
