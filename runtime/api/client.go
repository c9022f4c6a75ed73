package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// requestTimeout bounds one request, the daemon's durable write included.
const requestTimeout = 2 * time.Minute

// maxResponseBytes bounds what the client reads of one response.
const maxResponseBytes = 64 << 20

// A Client calls lsfc serve's API, on the Unix socket of a state directory
// (Dial) or on a TCP listener (DialTCP). Its methods are safe for
// concurrent use. Failures the daemon reports are *APIError values; a
// daemon that does not answer gives an error that wraps ErrNoDaemon.
type Client struct {
	hc   *http.Client
	base string // scheme and host of every request URL
	// where names the daemon in errors: its state directory or address.
	where        string
	secret, user string
	unix         bool
	// hint says how to start the daemon, after "no lsfc serve answers".
	hint string
}

// ErrNoDaemon is wrapped by the errors of requests that found no daemon:
// no socket in the state directory, or nothing listening on it.
var ErrNoDaemon = errors.New("no lsfc serve answers")

// APIError is a failure the daemon answered with: the HTTP status and the
// message of its Error body, in the words LSF's commands print.
type APIError struct {
	Status  int
	Message string
	// body is the answer as sent, for calls whose refusals carry more
	// than a message (reconfig).
	body []byte
}

func (e *APIError) Error() string { return e.Message }

// Dial returns a client of the daemon whose state directory is stateDir:
// HTTP on stateDir/lsfc.sock. It does not connect; the first request does.
func Dial(stateDir string) *Client {
	sock := filepath.Join(stateDir, SocketName)
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		MaxIdleConns:    4,
		IdleConnTimeout: 30 * time.Second,
	}
	return &Client{
		hc:    &http.Client{Transport: tr, Timeout: requestTimeout},
		base:  "http://lsfc",
		where: stateDir,
		unix:  true,
		hint:  "start one with lsfc serve, or point LSFC_STATE at its state directory",
	}
}

// DialTCP returns a client of a daemon's TCP listener at addr (host:port),
// which authenticates with the cluster's shared secret and acts for user.
func DialTCP(addr, secret, user string) *Client {
	return &Client{
		hc:     &http.Client{Timeout: requestTimeout},
		base:   "http://" + addr,
		where:  addr,
		secret: secret,
		user:   user,
		hint:   "is lsfc serve running with --listen " + addr + "?",
	}
}

// Submit submits a job (bsub).
func (c *Client) Submit(ctx context.Context, req *SubmitRequest) (*SubmitResponse, error) {
	var out SubmitResponse
	if err := c.do(ctx, http.MethodPost, "/v1/jobs", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Jobs lists the jobs q selects (bjobs).
func (c *Client) Jobs(ctx context.Context, q JobQuery) ([]Job, error) {
	var out []Job
	if err := c.do(ctx, http.MethodGet, "/v1/jobs", q.Values(), nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Job returns one job; a pending job comes with each host's reason. An
// unknown id is an *APIError with status 404.
func (c *Client) Job(ctx context.Context, id int64) (*Job, error) {
	var out Job
	if err := c.do(ctx, http.MethodGet, "/v1/jobs/"+strconv.FormatInt(id, 10), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// JobAction applies an action to a job: kill, stop, resume, top, bottom,
// switch (req.Queue) or modify (req.Modify). req may be nil.
func (c *Client) JobAction(ctx context.Context, id int64, action string, req *ActionRequest) (*ActionResponse, error) {
	var body any
	if req != nil {
		body = req
	}
	var out ActionResponse
	path := "/v1/jobs/" + strconv.FormatInt(id, 10) + "/" + url.PathEscape(action)
	if err := c.do(ctx, http.MethodPost, path, nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Queues lists the queues (bqueues).
func (c *Client) Queues(ctx context.Context) ([]Queue, error) {
	var out []Queue
	if err := c.do(ctx, http.MethodGet, "/v1/queues", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// QueueOp opens, closes, activates or inactivates a queue (badmin qopen,
// qclose, qact, qinact): op is open, close, activate or inactivate.
func (c *Client) QueueOp(ctx context.Context, name, op string) (*ActionResponse, error) {
	var out ActionResponse
	path := "/v1/queues/" + url.PathEscape(name) + "/" + url.PathEscape(op)
	if err := c.do(ctx, http.MethodPost, path, nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Hosts lists the batch hosts with their load and static facts (bhosts,
// lshosts, lsload).
func (c *Client) Hosts(ctx context.Context) ([]Host, error) {
	var out []Host
	if err := c.do(ctx, http.MethodGet, "/v1/hosts", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// HostOp opens or closes a host (badmin hopen, hclose): op is open or
// close.
func (c *Client) HostOp(ctx context.Context, name, op string) (*ActionResponse, error) {
	var out ActionResponse
	path := "/v1/hosts/" + url.PathEscape(name) + "/" + url.PathEscape(op)
	if err := c.do(ctx, http.MethodPost, path, nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Status describes the daemon (badmin showstatus, lsid).
func (c *Client) Status(ctx context.Context) (*Status, error) {
	var out Status
	if err := c.do(ctx, http.MethodGet, "/v1/status", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Perf returns the daemon's request counts and response times.
func (c *Client) Perf(ctx context.Context) (*Perf, error) {
	var out Perf
	if err := c.do(ctx, http.MethodGet, "/v1/perf", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Conf returns the lsf.conf settings of the daemon's configuration, as
// written there (lsadmin showconf).
func (c *Client) Conf(ctx context.Context) (map[string]string, error) {
	var out map[string]string
	if err := c.do(ctx, http.MethodGet, "/v1/conf", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Reconfig asks the daemon to read its configuration again (badmin
// reconfig). A configuration the daemon refuses is not an error: the
// Reload says so, with the diagnostics.
func (c *Client) Reconfig(ctx context.Context) (*Reload, error) {
	var out Reload
	err := c.do(ctx, http.MethodPost, "/v1/reconfig", nil, nil, &out)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusConflict {
		if json.Unmarshal(ae.body, &out) == nil {
			return &out, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Params returns lsb.params as bparams -a shows it.
func (c *Client) Params(ctx context.Context) (map[string]string, error) {
	var out map[string]string
	if err := c.do(ctx, http.MethodGet, "/v1/params", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceClasses returns the service classes and their state (bsla).
func (c *Client) ServiceClasses(ctx context.Context) ([]ServiceClass, error) {
	var out []ServiceClass
	if err := c.do(ctx, http.MethodGet, "/v1/sla", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// do sends one request, with body (when not nil) as JSON, and decodes a
// successful answer into out.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.secret != "" {
		req.Header.Set(HeaderAuthorization, "Bearer "+c.secret)
	}
	if c.user != "" {
		req.Header.Set(HeaderUser, c.user)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if c.noDaemon(err) {
			return &noDaemonError{where: c.where, hint: c.hint, err: err}
		}
		return fmt.Errorf("lsfc serve at %s: %w", c.where, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return fmt.Errorf("lsfc serve at %s: reading the answer: %w", c.where, err)
	}
	if resp.StatusCode >= 400 {
		return apiError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("lsfc serve at %s: bad answer to %s %s: %w", c.where, method, path, err)
	}
	return nil
}

// apiError reads an error response: its Error body, or else its status
// and text.
func apiError(status int, data []byte) *APIError {
	var e Error
	if err := json.Unmarshal(data, &e); err == nil && e.Error != "" {
		return &APIError{Status: status, Message: e.Error, body: data}
	}
	msg := strings.ToLower(http.StatusText(status))
	if msg == "" {
		msg = "status " + strconv.Itoa(status)
	}
	if text := strings.TrimSpace(string(data)); text != "" {
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		msg += ": " + text
	}
	return &APIError{Status: status, Message: msg, body: data}
}

// noDaemon reports whether a transport error means that nothing answers:
// no socket file, a stale one, or a refused connection.
func (c *Client) noDaemon(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	return c.unix && errors.Is(err, fs.ErrNotExist)
}

// noDaemonError says that no daemon answers, and how to start one.
type noDaemonError struct {
	where, hint string
	err         error
}

func (e *noDaemonError) Error() string {
	return fmt.Sprintf("%v at %s: %s", ErrNoDaemon, e.where, e.hint)
}

func (e *noDaemonError) Unwrap() []error { return []error{ErrNoDaemon, e.err} }
