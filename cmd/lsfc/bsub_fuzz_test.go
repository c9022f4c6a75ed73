package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzBsubArgs feeds bsub's option parser, its #BSUB script reader and
// the shell word splitter arbitrary input: they answer or refuse, and
// never panic; and no option word is ever read as a shorter option plus
// an argument.
func FuzzBsubArgs(f *testing.F) {
	for _, s := range []string{
		"-q normal -n 4 -R select[mem>200MB] rusage[mem=200MB] sleep 10",
		"-cwd . -J toil_job_0 -M 2147MB -o out.%J.log -e err.%J.log -- cmd a b",
		"-app big -sp 10 -W 1:30 -w done(12) -m hostA hostB -K -x true",
		"#!/bin/sh\n#BSUB -q short\n#BSUB -n 2\necho hi\n",
		"-n",
		"'unterminated \"quote",
		"-M 2G! -W 99:99:99 -sp -1",
		"-env all -o /dev/null true",
		"-outdir /tmp/x -gpu num=1 -We 10 true",
		"-n4 -qnormal -oout -envall -Jdx -Pp true",
		"#BSUB -gpu num=1\n#BSUB -eo e\nx\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitShellWords(s)
		if err != nil {
			words = strings.Fields(s)
		}
		if r, err := parseBsub(words); err == nil && r == nil {
			t.Fatal("parseBsub gave neither a request nor an error")
		}
		checkNoSplitOption(t, words)
		script, err := readJobScript(strings.NewReader(s))
		if err != nil {
			return
		}
		a, err := parseLSFArgs(nil, bsubOptionList(), bsubRefusedOptions(), true)
		if err != nil {
			t.Fatal(err)
		}
		withScriptOptions(a, script)
	})
}

// checkNoSplitOption parses words as bsub's options and fails when a word
// was read as an option other than the one it spells: only a one-letter
// option may take the rest of its word as argument, and only when that
// word is no option's name and does not begin a longer option's name.
func checkNoSplitOption(t *testing.T, words []string) {
	t.Helper()
	all := slices.Concat(bsubOptionList(), bsubRefusedOptions())
	a, err := parseLSFArgs(words, bsubOptionList(), bsubRefusedOptions(), true)
	if uo, ok := errors.AsType[*unsupportedOptionError](err); ok {
		i := slices.IndexFunc(words, func(w string) bool { return strings.HasPrefix(w, uo.option) })
		if i < 0 || !slices.ContainsFunc(bsubRefusedOptions(), func(o lsfOption) bool { return "-"+o.name == uo.option }) {
			t.Fatalf("refused %q, which is no refused option of %q", uo.option, words)
		}
		return
	}
	if err != nil {
		return
	}
	for i, name := range a.seq {
		w := a.words[i]
		if w == "-"+name {
			continue
		}
		word := w[1:]
		if len(name) != 1 || !strings.HasPrefix(word, name) {
			t.Fatalf("%q was read as -%s", w, name)
		}
		for _, o := range all {
			if o.name == word || len(o.name) >= 2 && strings.HasPrefix(o.name, word[:2]) {
				t.Fatalf("%q, which begins -%s, was read as -%s %q", w, o.name, name, word[1:])
			}
		}
	}
}
