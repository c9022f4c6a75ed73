package api

import (
	"context"
	"net/url"
	"strconv"
)

// MaxOutputChunk is the most output bytes one JobOutput carries.
const MaxOutputChunk = 1 << 20

// JobOutput is a piece of a job's output as it runs, as bpeek shows it:
// Data, read from the offset asked for, and Next, the offset after it.
// Done is set once the job has ended (its output no longer grows, and
// what it wrote is in its -o file); State is its state.
type JobOutput struct {
	Data  []byte `json:"data,omitempty"`
	Next  int64  `json:"next"`
	State string `json:"state"`
	Done  bool   `json:"done,omitempty"`
	// Apart is set when the job's errors go apart from its output (a -e
	// file of its own), to be read with JobErrors.
	Apart bool `json:"apart,omitempty"`
}

// JobOutput reads a running job's output from offset (bpeek): at most
// MaxOutputChunk bytes.
func (c *Client) JobOutput(ctx context.Context, id, offset int64) (*JobOutput, error) {
	return c.jobStream(ctx, id, offset, "")
}

// JobErrors reads, as JobOutput does, a running job's standard error
// when it goes apart from its output.
func (c *Client) JobErrors(ctx context.Context, id, offset int64) (*JobOutput, error) {
	return c.jobStream(ctx, id, offset, "stderr")
}

// jobStream reads a piece of one of a running job's streams: its output
// (stream ""), or its errors ("stderr").
func (c *Client) jobStream(ctx context.Context, id, offset int64, stream string) (*JobOutput, error) {
	var out JobOutput
	q := url.Values{"offset": {strconv.FormatInt(offset, 10)}}
	if stream != "" {
		q.Set("stream", stream)
	}
	if err := c.do(ctx, "GET", "/v1/jobs/"+strconv.FormatInt(id, 10)+"/output", q, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
