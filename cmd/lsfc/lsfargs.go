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
	operands []string
	state    string // --state DIR
	help     bool   // -h, --help
}

// add records that the option was given, with its arguments.
func (a *lsfArgs) add(name string, args ...string) {
	a.opts[name] = append(a.opts[name], args...)
	for range args {
		a.seq = append(a.seq, name)
	}
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

// parseLSFArgs reads an LSF command line the way LSF's commands do: options
// start with one dash and may have names longer than one letter; an option
// that takes an argument reads the next word, or, for a name that is not
// an option itself, the rest of the word after the longest option name it
// starts with ("-n4", "-qnormal"). "--" ends the options. With
// stopAtOperand, as bsub does, the first word that is not an option ends
// them too; otherwise options and operands may be mixed. --state DIR
// (or --state=DIR) and -h/--help are known to every command.
func parseLSFArgs(argv []string, known []lsfOption, stopAtOperand bool) (*lsfArgs, error) {
	a := &lsfArgs{opts: map[string][]string{}}
	byName := map[string]lsfOption{}
	for _, o := range known {
		byName[o.name] = o
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
		if o, ok := byName[name]; ok {
			if o.arg == "" {
				a.add(name, "")
				continue
			}
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("-%s needs an argument (%s)", name, o.arg)
			}
			i++
			a.add(name, argv[i])
			continue
		}
		o, ok := attachedOption(name, known)
		if !ok {
			return nil, fmt.Errorf("unknown option %q", w)
		}
		a.add(o.name, name[len(o.name):])
	}
	return a, nil
}

// attachedOption returns the option taking an argument whose name is the
// longest prefix of word, for an argument written in the same word.
func attachedOption(word string, known []lsfOption) (lsfOption, bool) {
	var best lsfOption
	for _, o := range known {
		if o.arg != "" && len(o.name) < len(word) && strings.HasPrefix(word, o.name) && len(o.name) > len(best.name) {
			best = o
		}
	}
	return best, best.name != ""
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
	return []string{"bacct", "badmin", "bbot", "bhosts", "bjobs", "bkill", "bmod", "bparams", "bqueues", "bresume",
		"bsla", "bstop", "bsub", "bswitch", "btop", "lsadmin", "lshosts", "lsid", "lsload", "sbatchd"}
}
