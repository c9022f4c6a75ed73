package main

import (
	"errors"
	"fmt"
)

// interactiveModes are bsub's options that submit an interactive job,
// without their dash.
var interactiveModes = []string{"I", "Ip", "Is"}

// interactiveMode returns the interactive option given ("" for none), or
// an error when several are, or one is given with an option it conflicts
// with.
func interactiveMode(a *lsfArgs) (string, error) {
	mode := ""
	for _, m := range interactiveModes {
		if !a.has(m) {
			continue
		}
		if mode != "" {
			return "", fmt.Errorf("-%s and -%s cannot be used together", mode, m)
		}
		mode = m
	}
	switch {
	case mode == "" && a.has("tty"):
		return "", errors.New("-tty can only be used with -I, -Ip or -Is")
	case mode == "":
		return "", nil
	case a.has("K"):
		return "", fmt.Errorf("-%s and -K cannot be used together", mode)
	case a.has("r"):
		return "", fmt.Errorf("-%s: interactive jobs are not rerunnable (-r)", mode)
	}
	return mode, nil
}
