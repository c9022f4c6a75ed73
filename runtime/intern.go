package runtime

import (
	"slices"
	"unique"
)

// internSubmission makes the strings of s that many jobs repeat share one
// copy: each variable of its environment (bsub sends the whole of the
// submitter's, kilobytes that are the same for every job of a session),
// its command, working directory, output files and submission host. The
// environment itself is shared with last, the environment of the job
// submitted before, when the two are equal, and last becomes it. Strings
// are compared by value: the job is the same either way, it only holds
// less memory.
func internSubmission(s *Submission, last *[]string) {
	if len(s.Env) > 0 {
		if slices.Equal(s.Env, *last) {
			s.Env = *last
		} else {
			env := make([]string, len(s.Env))
			for i, kv := range s.Env {
				env[i] = unique.Make(kv).Value()
			}
			s.Env, *last = env, env
		}
	}
	for _, p := range []*string{&s.Command, &s.Cwd, &s.Stdout, &s.Stderr, &s.FromHost, &s.User} {
		if *p != "" {
			*p = unique.Make(*p).Value()
		}
	}
}
