package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// A peekPlace is where a running job's output is read from: a file of
// this machine, or the agent of its host.
type peekPlace struct {
	out   api.JobOutput // the answer when there is nothing to read
	path  string        // the file to read, "" for none
	agent *agent        // the agent that reads it, nil for a local file
	run   api.AgentRun
}

// handleJobOutput answers bpeek: a piece of a running job's output, read
// from the file it goes to as it runs (its spool file, or its -o file
// with LSB_STDOUT_DIRECT). The main loop only says where the output is;
// the file is read, or the agent asked, on the request's own goroutine.
func (d *Daemon) handleJobOutput(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad job id %q", truncate(r.PathValue("id"))))
		return
	}
	offset, err := strconv.ParseInt(r.URL.Query().Get("offset"), 10, 64)
	if r.URL.Query().Get("offset") == "" {
		offset, err = 0, nil
	}
	if err != nil || offset < 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad offset %q", truncate(r.URL.Query().Get("offset"))))
		return
	}
	stderr := false
	switch s := r.URL.Query().Get("stream"); s {
	case "", "stdout":
	case "stderr":
		stderr = true
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad stream %q: stdout or stderr", truncate(s)))
		return
	}
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		j := d.cluster.Job(n)
		if j == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "Job <%d>: No matching job found", n)
		}
		if !d.mayControl(id, j) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Job <%d>: User permission denied", n)
		}
		return d.peekPlace(j, offset, stderr), nil, nil, nil
	})
	if err != nil {
		reply(w, nil, err)
		return
	}
	p := v.(peekPlace)
	out := p.out
	switch {
	case p.agent != nil:
		got, err := d.agents.peek(r.Context(), p.agent, p.run, offset, stderr)
		if err != nil {
			reply(w, nil, errorf(http.StatusServiceUnavailable, "Job <%d>: %v", n, err))
			return
		}
		out.Data, out.Next, out.Apart = got.Data, got.Next, got.Apart
	case p.path != "":
		data, next, err := localexec.ReadOutput(p.path, offset, api.MaxOutputChunk)
		if err != nil {
			reply(w, nil, errorf(http.StatusInternalServerError, "Job <%d>: cannot read its output: %v", n, err))
			return
		}
		out.Data, out.Next = data, next
	}
	reply(w, out, nil)
}

// peekPlace says where a job's output, or its errors, are read from.
func (d *Daemon) peekPlace(j *runtime.Job, offset int64, stderr bool) peekPlace {
	p := peekPlace{out: api.JobOutput{Next: offset, State: j.State.String(), Done: j.State.Finished()}}
	switch {
	case !j.State.Started() || j.Remote != nil:
		return p
	case d.runsLocally(j):
		errPath, apart := d.exec.ErrorFile(j.ID)
		p.out.Apart = apart
		if stderr {
			p.path = errPath
		} else if path, ok := d.exec.OutputFile(j.ID); ok {
			p.path = path
		}
	default:
		p.agent = d.agentOf(j)
		p.run = api.AgentRun{Job: j.ID, Start: float64(j.Start)}
	}
	return p
}

// peekWait bounds how long bpeek waits for an agent's answer.
const peekWait = 15 * time.Second

// peek asks a's agent for a piece of a run's output, from offset, and
// waits for the answer, which comes with the agent's next exchange (the
// order wakes the one it holds). It runs on the request's goroutine.
func (as *agents) peek(ctx context.Context, a *agent, run api.AgentRun, offset int64, stderr bool) (api.AgentPeek, error) {
	ch := make(chan api.AgentPeek, 1)
	as.mu.Lock()
	as.peekSeq++
	id := as.peekSeq
	if as.peeks == nil {
		as.peeks = map[uint64]chan api.AgentPeek{}
	}
	as.peeks[id] = ch
	as.mu.Unlock()
	defer func() {
		as.mu.Lock()
		delete(as.peeks, id)
		as.mu.Unlock()
	}()
	as.order(a, api.AgentOrder{AgentRun: run, Peek: &api.PeekOrder{ID: id, Offset: offset, Stderr: stderr}})
	t := time.NewTimer(peekWait)
	defer t.Stop()
	select {
	case p := <-ch:
		if p.Err != "" {
			return p, errors.New(p.Err)
		}
		return p, nil
	case <-t.C:
		return api.AgentPeek{}, fmt.Errorf("the agent of host %s did not answer", a.host)
	case <-ctx.Done():
		return api.AgentPeek{}, ctx.Err()
	}
}

// deliverPeeks hands the answers to peek orders an exchange carries to
// the requests that wait for them.
func (as *agents) deliverPeeks(peeks []api.AgentPeek) {
	if len(peeks) == 0 {
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, p := range peeks {
		if ch := as.peeks[p.ID]; ch != nil {
			select {
			case ch <- p:
			default:
			}
		}
	}
}
