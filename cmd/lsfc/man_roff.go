//go:build !lsfclient

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// manHeader holds what the title line of a page gives beside its name.
type manHeader struct {
	Section string    // the manual section, "1"
	Date    time.Time // written as 2006-01-02
	Source  string    // the program and its version
	Manual  string    // the title of the manual
}

// manPage returns the man page of cmd in the man macros of troff: NAME,
// SYNOPSIS, DESCRIPTION, OPTIONS, OPTIONS INHERITED FROM PARENT COMMANDS,
// EXAMPLES and SEE ALSO, each when it has something to say. The texts of
// cmd are plain text, written as they read: a paragraph per block of
// lines, and lines indented by two blanks or more (a table, an example)
// as they are.
func manPage(cmd *cobra.Command, h manHeader) []byte {
	cmd.InitDefaultHelpFlag()
	name := manName(cmd)
	var p roffWriter
	p.line(fmt.Sprintf(".TH %s %s %s %s %s", roffArg(strings.ToUpper(name)), roffArg(h.Section),
		`"`+h.Date.Format(time.DateOnly)+`"`, roffArg(h.Source), roffArg(h.Manual)))
	// No hyphenation, so that no option or path is broken across lines
	// (after .TH, which turns it back on).
	p.line(".nh")

	p.section("NAME")
	// The name keeps its plain hyphens: indexers such as mandb read it
	// up to the " \- " that ends it.
	p.line(roffLine(name, false) + ` \- ` + roffEscape(cmd.Short))

	p.section("SYNOPSIS")
	p.line(`\fB` + roffEscape(cmd.UseLine()) + `\fP`)

	p.section("DESCRIPTION")
	desc := cmd.Long
	if desc == "" {
		desc = cmd.Short
	}
	p.text(desc)

	if fs := cmd.NonInheritedFlags(); fs.HasAvailableFlags() {
		p.section("OPTIONS")
		p.flags(fs)
	}
	if fs := cmd.InheritedFlags(); fs.HasAvailableFlags() {
		p.section("OPTIONS INHERITED FROM PARENT COMMANDS")
		p.flags(fs)
	}

	if cmd.Example != "" {
		p.section("EXAMPLES")
		p.line(".EX")
		for l := range strings.Lines(strings.TrimRight(cmd.Example, "\n")) {
			p.line(roffLine(strings.TrimSuffix(l, "\n"), true))
		}
		p.line(".EE")
	}

	var see []string
	if cmd.HasParent() {
		see = append(see, manRef(manName(cmd.Parent()), h.Section))
	}
	children := slices.Clone(cmd.Commands())
	slices.SortFunc(children, func(a, b *cobra.Command) int { return strings.Compare(a.Name(), b.Name()) })
	for _, c := range children {
		if manDocumented(c) {
			see = append(see, manRef(name+"-"+c.Name(), h.Section))
		}
	}
	if len(see) > 0 {
		p.section("SEE ALSO")
		p.line(strings.Join(see, ", "))
	}
	return []byte(p.b.String())
}

// manRef is a reference to the page name in section: bold, as
// "lsfc-lint(1)".
func manRef(name, section string) string {
	return `\fB` + roffEscape(name) + "(" + section + `)\fP`
}

// A roffWriter builds a page line by line. It never writes a blank line,
// which troff would print as one: paragraphs are parted by .PP.
type roffWriter struct {
	b strings.Builder
	// blocks counts the paragraphs and examples of the current section.
	blocks int
}

func (p *roffWriter) line(s string) {
	p.b.WriteString(s)
	p.b.WriteByte('\n')
}

func (p *roffWriter) section(title string) {
	p.line(".SH " + roffArg(title))
	p.blocks = 0
}

// block starts a paragraph or an example: after the first of the
// section, with the space between paragraphs.
func (p *roffWriter) block() {
	if p.blocks > 0 {
		p.line(".PP")
	}
	p.blocks++
}

// text writes help text: blank lines part paragraphs, which troff fills;
// a run of lines indented by two blanks or more is an example, written
// line for line without the first two blanks, and blank lines between
// such lines stay in it.
func (p *roffWriter) text(s string) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	indented := func(l string) bool { return strings.HasPrefix(l, "  ") }
	for i := 0; i < len(lines); {
		switch l := lines[i]; {
		case strings.TrimSpace(l) == "":
			i++
		case indented(l):
			p.block()
			p.line(".EX")
			for i < len(lines) {
				if strings.TrimSpace(lines[i]) == "" {
					// A blank line inside the example, when more of it
					// follows.
					j := i
					for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
						j++
					}
					if j == len(lines) || !indented(lines[j]) {
						break
					}
					for ; i < j; i++ {
						p.line("")
					}
					continue
				}
				if !indented(lines[i]) {
					break
				}
				p.line(roffLine(lines[i][2:], true))
				i++
			}
			p.line(".EE")
		default:
			p.block()
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !indented(lines[i]) {
				p.line(roffLine(lines[i], true))
				i++
			}
		}
	}
}

// flags writes the options of fs, in their order, as tagged paragraphs:
// the option's names and default, then its usage. Hidden and deprecated
// options are left out.
func (p *roffWriter) flags(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Deprecated != "" || f.Hidden {
			return
		}
		tag := `\fB\-\-` + roffEscape(f.Name) + `\fP`
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			tag = `\fB\-` + roffEscape(f.Shorthand) + `\fP, ` + tag
		}
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = fmt.Sprintf("%q", def)
		}
		def = "=" + def
		if f.NoOptDefVal != "" {
			// The value may be left out.
			def = "[" + def + "]"
		}
		p.line(".TP")
		p.line(tag + roffEscape(def))
		for l := range strings.SplitSeq(f.Usage, "\n") {
			if strings.TrimSpace(l) != "" {
				p.line(roffLine(l, true))
			}
		}
	})
}

// roffLine returns s as a line of text: escaped (hyphens too, when
// hyphens is set), and kept from reading as a request when it begins
// with a dot or an apostrophe.
func roffLine(s string, hyphens bool) string {
	if hyphens {
		s = roffEscape(s)
	} else {
		s = strings.ReplaceAll(s, `\`, `\e`)
	}
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffEscape escapes text for troff: a backslash is written \e, and a
// hyphen \-, the character a reader can copy into a command line (troff
// prints a plain - as a typographic hyphen).
func roffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, `-`, `\-`).Replace(s)
}

// roffArg quotes s as an argument of a request: escaped, and with a
// double quote written \(dq.
func roffArg(s string) string {
	return `"` + strings.ReplaceAll(roffEscape(s), `"`, `\(dq`) + `"`
}
