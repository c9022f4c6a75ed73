package api

import (
	"context"
)

// What clusters exchange for MultiCluster job forwarding, on the TCP
// listener only (the routes are not on the Unix socket):
//
//	POST /v1/mc/forward    a submission cluster sends a job to a receive-jobs queue (MCForward → MCForwardResponse)
//	POST /v1/mc/poll       it asks for its receive queues and the jobs it sent (MCPollRequest → MCPoll)
//	POST /v1/mc/withdraw   it recalls a job that has not started, or kills one (MCWithdraw → MCWithdrawResponse)
//
// Every cluster of an installation presents the same shared secret; the
// user header names the calling cluster.

// MCForward is a job a submission cluster forwards: the cluster and its
// job ID there, when it sent the job (Unix seconds; a job sent again
// after it came back has a later time, and a delivery repeated because
// an answer was lost has the same), the receive-jobs queue asked for,
// the job's owner (user, group and, for running it, the numeric IDs the
// submission cluster knew) and the submission.
type MCForward struct {
	From     string        `json:"from"`
	FromJob  int64         `json:"fromJob"`
	Sent     float64       `json:"sent,omitempty"`
	Queue    string        `json:"queue"`
	User     string        `json:"user"`
	Group    string        `json:"group,omitempty"`
	UID      int           `json:"uid"`
	GID      int           `json:"gid"`
	FromType string        `json:"fromType,omitempty"`
	Job      SubmitRequest `json:"job"`
}

// MCForwardResponse is the receive-jobs queue's answer: the job's ID in
// the execution cluster, or why the queue rejected it. A job delivered
// again while its copy is there, or again with the same sending time,
// gets that copy's ID.
type MCForwardResponse struct {
	ID       int64  `json:"id,omitempty"`
	Rejected string `json:"rejected,omitempty"`
}

// MCPollRequest names the submission cluster that polls.
type MCPollRequest struct {
	From string `json:"from"`
}

// MCPoll is what an execution cluster tells a submission cluster: its
// queues that receive jobs from it, and every job it received from it
// (finished ones until they are cleaned).
type MCPoll struct {
	Queues []MCQueue `json:"queues"`
	Jobs   []MCJob   `json:"jobs"`
}

// MCQueue is a receive-jobs queue: its IMPT_JOBBKLG (-1 for infinit),
// its pending MultiCluster jobs and the hosts it exports.
type MCQueue struct {
	Queue   string   `json:"queue"`
	Backlog int      `json:"backlog"`
	Pending int      `json:"pending"`
	Hosts   []MCHost `json:"hosts,omitempty"`
}

// MCHost is an exported host: its type, Boolean resources and job slots.
type MCHost struct {
	Name     string   `json:"name"`
	Type     string   `json:"type,omitempty"`
	Booleans []string `json:"booleans,omitempty"`
	Slots    int      `json:"slots"`
}

// MCJob is a received job as its execution cluster sees it: its ID at
// home and here, when home sent it, its state, and the hosts it runs on
// (host@cluster). Withdrawn is set on a job its home recalled.
type MCJob struct {
	FromJob   int64    `json:"fromJob"`
	ID        int64    `json:"id"`
	Sent      float64  `json:"sent,omitempty"`
	Withdrawn bool     `json:"withdrawn,omitempty"`
	State     string   `json:"state"`
	Hosts     []string `json:"hosts,omitempty"`
	Start     float64  `json:"start,omitempty"`
	End       float64  `json:"end,omitempty"`
	ExitCode  int      `json:"exitCode"`
	Term      string   `json:"term,omitempty"`
}

// MCWithdraw asks an execution cluster to give back a job it received:
// recall (Kill unset) removes the job whose ID there is ID only while it
// pends, and says it was removed again when asked again; Kill ends the
// job of home ID FromJob whatever its state.
type MCWithdraw struct {
	From    string `json:"from"`
	FromJob int64  `json:"fromJob"`
	ID      int64  `json:"id,omitempty"`
	Kill    bool   `json:"kill,omitempty"`
}

// MCWithdrawResponse says whether the job was removed, and its state.
type MCWithdrawResponse struct {
	Removed bool   `json:"removed"`
	State   string `json:"state,omitempty"`
}

// MCForward sends a job to a receive-jobs queue of the daemon.
func (c *Client) MCForward(ctx context.Context, req *MCForward) (*MCForwardResponse, error) {
	var out MCForwardResponse
	if err := c.do(ctx, "POST", "/v1/mc/forward", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MCPoll asks the daemon for its receive queues and the jobs from.
func (c *Client) MCPoll(ctx context.Context, from string) (*MCPoll, error) {
	var out MCPoll
	if err := c.do(ctx, "POST", "/v1/mc/poll", nil, &MCPollRequest{From: from}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MCWithdraw recalls or kills a job the daemon received.
func (c *Client) MCWithdraw(ctx context.Context, req *MCWithdraw) (*MCWithdrawResponse, error) {
	var out MCWithdrawResponse
	if err := c.do(ctx, "POST", "/v1/mc/withdraw", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
