package main

import (
	"strings"
	"testing"
)

// FuzzBsubArgs feeds bsub's option parser, its #BSUB script reader and
// the shell word splitter arbitrary input: they answer or refuse, and
// never panic.
func FuzzBsubArgs(f *testing.F) {
	for _, s := range []string{
		"-q normal -n 4 -R select[mem>200MB] rusage[mem=200MB] sleep 10",
		"-cwd . -J toil_job_0 -M 2147MB -o out.%J.log -e err.%J.log -- cmd a b",
		"-app big -sp 10 -W 1:30 -w done(12) -m hostA hostB -K -x true",
		"#!/bin/sh\n#BSUB -q short\n#BSUB -n 2\necho hi\n",
		"-n",
		"'unterminated \"quote",
		"-M 2G! -W 99:99:99 -sp -1",
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
