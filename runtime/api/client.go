package api

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	tr *transport
	// host is the Host header of a Unix client's requests ("" for a TCP
	// client: its address).
	host string
	// addrs are the master candidates of a TCP client (DialTCP with a
	// list); cur is the index of the one requests go to, guarded by mu.
	addrs []string
	mu    sync.Mutex
	cur   int
	// where names the daemon in errors: its state directory or address.
	where        string
	secret, user string
	unix         bool
	// hint says how to start the daemon, after "no lsfc serve answers".
	hint string
	// retryWait is how long a request whose answer was lost is sent
	// again (0: RetryWait).
	retryWait time.Duration
}

// ErrNoDaemon is wrapped by the errors of requests that found no daemon:
// no socket in the state directory, or nothing listening on it.
var ErrNoDaemon = errors.New("no lsfc serve answers")

// APIError is a failure the daemon answered with: the HTTP status and the
// message of its Error body, in the words LSF's commands print.
type APIError struct {
	Status  int
	Message string
	// Retry is how long to wait before sending a refused submission
	// again, when the daemon says it may succeed then; 0 otherwise.
	Retry time.Duration
	// body is the answer as sent, for calls whose refusals carry more
	// than a message (reconfig).
	body []byte
	// leader is set on the answer of a master candidate that does not
	// lead: the leader's address ("" while none leads).
	leader *string
}

func (e *APIError) Error() string { return e.Message }

// The HTTP statuses of the daemon's answers that its clients tell apart.
const (
	StatusBadRequest          = 400 // a request the daemon does not take
	StatusNotFound            = 404 // no such job, queue, host ...
	StatusConflict            = 409 // a reconfiguration refused
	StatusServiceUnavailable  = 503 // shutting down, or not the leader
	StatusInsufficientStorage = 507 // no space left for the event log
)

// Dial returns a client of the daemon whose state directory is stateDir:
// HTTP on SocketPath(stateDir). It does not connect; the first request
// does.
func Dial(stateDir string) *Client {
	return &Client{
		tr:    &transport{dial: unixDialer(SocketPath(stateDir)), maxIdle: 4, idleTimeout: 30 * time.Second},
		host:  "lsfc",
		where: stateDir,
		unix:  true,
		hint:  "start one with lsfc serve, or point LSFC_STATE at its state directory",
	}
}

// DialTCP returns a client of a daemon's TCP listener at addr (host:port),
// which authenticates with the cluster's shared secret and acts for user.
//
// addr may list master candidates, separated by commas (lsfc serve
// --etcd): requests go to the one that leads. A candidate that does not
// answer, or answers that it does not lead, sends the client to the
// leader it names or to the next candidate, for up to FailoverWait; a
// request is sent again only when it cannot have taken effect (it was
// refused, or it is a query, an agent's report, or a submission, which
// carries its token).
func DialTCP(addr, secret, user string) *Client {
	var addrs []string
	for a := range strings.SplitSeq(addr, ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	if len(addrs) == 0 {
		addrs = []string{addr}
	}
	hint := "is lsfc serve running with --listen " + addr + "?"
	if len(addrs) > 1 {
		hint = "no master candidate of " + strings.Join(addrs, ", ") + " leads; are they running with --etcd?"
	}
	return &Client{
		tr:     &transport{dial: tcpDialer(nil), maxIdle: 2, idleTimeout: 90 * time.Second},
		addrs:  addrs,
		where:  addrs[0],
		secret: secret,
		user:   user,
		hint:   hint,
	}
}

// DialTCPFrom is DialTCP for a client with connections of its own, made
// from the local IP address local (nil: any), as a host's execution agent
// has: a program that speaks for many hosts at once gives each its own
// client, so that their long polls neither share nor exhaust one pool.
func DialTCPFrom(addr, secret, user string, local net.IP) *Client {
	c := DialTCP(addr, secret, user)
	c.tr.dial = tcpDialer(local)
	return c
}

// FailoverWait is how long a client of several master candidates looks
// for the leader before it gives up.
const FailoverWait = 30 * time.Second

// target returns the address of the candidate requests go to ("" for a
// Unix client) and its name.
func (c *Client) target() (addr, where string) {
	if len(c.addrs) == 0 {
		return "", c.where
	}
	if len(c.addrs) < 2 {
		return c.addrs[0], c.where
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addrs[c.cur], c.addrs[c.cur]
}

// CloseIdle closes the connections the client keeps open between
// requests.
func (c *Client) CloseIdle() { c.tr.closeIdle() }

// SetHandshake makes a TCP client start each new connection with
// handshake, which returns the connection the requests go on (TLS:
// apitls.Use). The client's own dialer (DialTCPFrom's source address) is
// kept. It returns c. Call it before the client's first request.
func (c *Client) SetHandshake(handshake func(ctx context.Context, conn net.Conn, addr string) (net.Conn, error)) *Client {
	c.tr.secure = handshake
	return c
}

// follow moves the client off the candidate where: to leader when it is
// one of the candidates, else to the next.
func (c *Client) follow(where, leader string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs[c.cur] != where {
		return // another request moved it already
	}
	if i := slices.Index(c.addrs, leader); i >= 0 && leader != where {
		c.cur = i
		return
	}
	c.cur = (c.cur + 1) % len(c.addrs)
}

// newToken returns a submission token: 128 bits from the runtime's
// generator (ChaCha8, seeded by the kernel's random bytes), as 32 hex
// digits. It names a submission, and is no key: a process that submits
// once links no cryptography for it.
func newToken() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

// Submit submits a job (bsub). A request without a Token gets one, so
// that sending it again cannot make a second job.
func (c *Client) Submit(ctx context.Context, req *SubmitRequest) (*SubmitResponse, error) {
	if req.Token == "" {
		req.Token = newToken()
	}
	var out SubmitResponse
	if err := c.do(ctx, "POST", "/v1/jobs", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Jobs lists the jobs q selects (bjobs). A daemon that refuses a field
// of q.Fields (one older than the field) is asked again for whole jobs.
func (c *Client) Jobs(ctx context.Context, q JobQuery) ([]Job, error) {
	raw, err := c.jobList(ctx, q)
	if err != nil {
		return nil, err
	}
	return readJobs(raw)
}

// Job returns one job; a pending job comes with each host's reason. An
// unknown id is an *APIError with status 404.
func (c *Client) Job(ctx context.Context, id int64) (*Job, error) {
	var out Job
	if err := c.do(ctx, "GET", "/v1/jobs/"+strconv.FormatInt(id, 10), nil, nil, &out); err != nil {
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
	if err := c.do(ctx, "POST", path, nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Queues lists the queues (bqueues).
func (c *Client) Queues(ctx context.Context) ([]Queue, error) {
	var out []Queue
	if err := c.do(ctx, "GET", "/v1/queues", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// QueueOp opens, closes, activates or inactivates a queue (badmin qopen,
// qclose, qact, qinact): op is open, close, activate or inactivate.
func (c *Client) QueueOp(ctx context.Context, name, op string) (*ActionResponse, error) {
	var out ActionResponse
	path := "/v1/queues/" + url.PathEscape(name) + "/" + url.PathEscape(op)
	if err := c.do(ctx, "POST", path, nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Hosts lists the batch hosts with their load and static facts (bhosts,
// lshosts, lsload).
func (c *Client) Hosts(ctx context.Context) ([]Host, error) {
	var out []Host
	if err := c.do(ctx, "GET", "/v1/hosts", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// SharedResources lists the instances of the static resources of
// lsf.cluster's ResourceMap (lshosts -s, lsload -s).
func (c *Client) SharedResources(ctx context.Context) ([]SharedResource, error) {
	var out []SharedResource
	if err := c.do(ctx, "GET", "/v1/resources", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// HostsSelected returns the hosts that satisfy the resource requirement
// resreq now, on the daemon's live state (bhosts -R). A requirement that
// does not parse or type-check is an *APIError with status 400 whose
// message holds the diagnostics.
func (c *Client) HostsSelected(ctx context.Context, resreq string) ([]Host, error) {
	var out []Host
	if err := c.do(ctx, "GET", "/v1/hosts", url.Values{"resreq": {resreq}}, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// HostOp opens or closes a host (badmin hopen, hclose): op is open or
// close.
func (c *Client) HostOp(ctx context.Context, name, op string) (*ActionResponse, error) {
	var out ActionResponse
	path := "/v1/hosts/" + url.PathEscape(name) + "/" + url.PathEscape(op)
	if err := c.do(ctx, "POST", path, nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Status describes the daemon (badmin showstatus, lsid).
func (c *Client) Status(ctx context.Context) (*Status, error) {
	var out Status
	if err := c.do(ctx, "GET", "/v1/status", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Perf returns the daemon's request counts and response times.
func (c *Client) Perf(ctx context.Context) (*Perf, error) {
	var out Perf
	if err := c.do(ctx, "GET", "/v1/perf", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Conf returns the lsf.conf settings of the daemon's configuration, as
// written there (lsadmin showconf).
func (c *Client) Conf(ctx context.Context) (map[string]string, error) {
	var out map[string]string
	if err := c.do(ctx, "GET", "/v1/conf", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Reconfig asks the daemon to read its configuration again (badmin
// reconfig). A configuration the daemon refuses is not an error: the
// Reload says so, with the diagnostics.
func (c *Client) Reconfig(ctx context.Context) (*Reload, error) {
	var out Reload
	err := c.do(ctx, "POST", "/v1/reconfig", nil, nil, &out)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == StatusConflict {
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
	if err := c.do(ctx, "GET", "/v1/params", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Users returns the job counts and limits of the users named ("all":
// every user with unfinished jobs or a row of their own in lsb.users;
// none: the caller), as busers shows them.
func (c *Client) Users(ctx context.Context, names []string) ([]User, error) {
	q := url.Values{}
	for _, n := range names {
		q.Add("user", n)
	}
	var out []User
	if err := c.do(ctx, "GET", "/v1/users", q, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Limits returns the Limit sections of lsb.resources the query picks,
// with what running jobs use of each (blimits).
func (c *Client) Limits(ctx context.Context, q LimitQuery) ([]Limit, error) {
	v := url.Values{}
	for key, names := range map[string][]string{"name": q.Names, "user": q.Users, "queue": q.Queues, "host": q.Hosts, "project": q.Projects, "app": q.Apps} {
		for _, n := range names {
			v.Add(key, n)
		}
	}
	var out []Limit
	if err := c.do(ctx, "GET", "/v1/limits", v, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// JobGroups returns the job groups, parents before their subgroups.
func (c *Client) JobGroups(ctx context.Context) ([]JobGroup, error) {
	var out []JobGroup
	if err := c.do(ctx, "GET", "/v1/jobgroups", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ChangeJobGroups adds, modifies or deletes job groups (bgadd, bgmod,
// bgdel); the answer says what was done, a line for each group.
func (c *Client) ChangeJobGroups(ctx context.Context, req JobGroupRequest) (*ActionResponse, error) {
	var out ActionResponse
	if err := c.do(ctx, "POST", "/v1/jobgroups", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Groups returns the user groups (kind "user") or host groups (kind
// "host") of the configuration, as bugroup and bmgroup show them.
func (c *Client) Groups(ctx context.Context, kind string) ([]Group, error) {
	var out []Group
	if err := c.do(ctx, "GET", "/v1/groups/"+url.PathEscape(kind), nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ParamsLong returns every parameter of lsb.params with its value and
// description (bparams -l).
func (c *Client) ParamsLong(ctx context.Context) ([]Param, error) {
	var out []Param
	if err := c.do(ctx, "GET", "/v1/params/long", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceClasses returns the service classes and their state (bsla).
func (c *Client) ServiceClasses(ctx context.Context) ([]ServiceClass, error) {
	var out []ServiceClass
	if err := c.do(ctx, "GET", "/v1/sla", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// History returns the histories of the jobs the query selects, from the
// daemon's event log (bhist).
func (c *Client) History(ctx context.Context, q HistoryQuery) ([]JobHistory, error) {
	var out []JobHistory
	if err := c.do(ctx, "GET", "/v1/history", q.Values(), nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// do sends one request, with body (when not nil) as JSON, and decodes a
// successful answer into out.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if r, ok := body.(*SubmitRequest); ok && r != nil {
		payload, _ = r.appendJSON(make([]byte, 0, 1024))
	}
	if body != nil && payload == nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		payload = b
	}
	// A request is safe to send again when sending it twice does what
	// sending it once does: a query, an agent's report, a submission
	// (which carries its token).
	safe := method == "GET" || strings.HasPrefix(path, "/v1/agent/") || path == "/v1/jobs" && method == "POST"
	if len(c.addrs) < 2 {
		if !safe {
			_, err := c.once(ctx, method, path, query, payload, out)
			return err
		}
		return c.resend(ctx, method, path, query, payload, out)
	}
	// Several candidates: find the leader.
	wait := FailoverWait
	if c.retryWait > 0 {
		wait = c.retryWait
	}
	deadline := time.Now().Add(wait)
	lost := false // a try that is safe to send again was sent and its answer lost
	for {
		where, err := c.once(ctx, method, path, query, payload, out)
		if err == nil || where == "" {
			return err
		}
		lost = lost || safe && connectionLost(err)
		giveUp := func() error {
			if lost {
				return &answerLostError{where: where, wait: wait, err: err}
			}
			return err
		}
		var ae *APIError
		notLeader := errors.As(err, &ae) && ae.Status == StatusServiceUnavailable && ae.leader != nil
		// Another candidate may answer when this one is not the leader,
		// when no daemon listens there, or, for a request that is safe to
		// send twice, after any failure while the caller still waits.
		retry := notLeader || errors.Is(err, ErrNoDaemon) || safe && ctx.Err() == nil
		if !retry {
			return giveUp()
		}
		if ae != nil && !notLeader {
			return err // the leader answered
		}
		leader := ""
		if notLeader {
			leader = *ae.leader
		}
		c.follow(where, leader)
		if time.Now().After(deadline) {
			return giveUp()
		}
		select {
		case <-ctx.Done():
			return giveUp()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// RetryWait is how long a client sends again a request that is safe to
// send twice after the connection was lost with it (EOF, reset) before
// it gives up; see Client.SetRetryWait.
const RetryWait = 30 * time.Second

// SetRetryWait sets how long the client sends again a request whose
// answer was lost (0: RetryWait) and, for a client of several master
// candidates, how long it looks for the leader (0: FailoverWait). It
// returns c. Call it before the client's first request.
func (c *Client) SetRetryWait(d time.Duration) *Client {
	c.retryWait = d
	return c
}

// ErrAnswerLost is wrapped by the error of a request that was sent, lost
// its connection before the answer came, and could not be sent again
// within the retry wait: it may have taken effect.
var ErrAnswerLost = errors.New("the connection was lost before the answer came")

// answerLostError says that a request may have taken effect.
type answerLostError struct {
	where string
	wait  time.Duration
	err   error // the last failure
}

func (e *answerLostError) Error() string {
	return fmt.Sprintf("lsfc serve at %s: %v, and it did not answer again within %v (last: %v)",
		e.where, ErrAnswerLost, e.wait, e.err)
}

func (e *answerLostError) Unwrap() []error { return []error{ErrAnswerLost, e.err} }

// resend sends a request that is safe to send twice to the one daemon of
// the client, and sends it again while the connection is lost with it
// (the daemon may have restarted meanwhile), for up to the retry wait.
// A request that never left (no daemon answers at all) is not tried
// again; one that left and got no answer ends, after the wait, in an
// error that wraps ErrAnswerLost.
func (c *Client) resend(ctx context.Context, method, path string, query url.Values, payload []byte, out any) error {
	wait := c.retryWait
	if wait <= 0 {
		wait = RetryWait
	}
	deadline := time.Now().Add(wait)
	sent := false
	delay := 50 * time.Millisecond
	for {
		where, err := c.once(ctx, method, path, query, payload, out)
		var ae *APIError
		if err == nil || where == "" || errors.As(err, &ae) {
			return err
		}
		noDaemon := errors.Is(err, ErrNoDaemon)
		switch {
		case noDaemon && !sent:
			return err // it never left
		case !noDaemon && !connectionLost(err):
			return err // refused before it was sent, or not in transit
		}
		sent = sent || !noDaemon
		if ctx.Err() != nil || time.Now().Add(delay).After(deadline) {
			return &answerLostError{where: where, wait: wait, err: err}
		}
		select {
		case <-ctx.Done():
			return &answerLostError{where: where, wait: wait, err: err}
		case <-time.After(delay):
		}
		delay = min(2*delay, time.Second)
	}
}

// once sends one request to the current candidate; where names it when
// the request failed in a way another candidate could change.
func (c *Client) once(ctx context.Context, method, path string, query url.Values, payload []byte, out any) (where string, _ error) {
	addr, where := c.target()
	host := c.host
	if host == "" {
		host = addr
	}
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	headers := make([]string, 0, 8)
	if payload != nil {
		headers = append(headers, "Content-Type", "application/json")
	}
	headers = append(headers, "Accept", "application/json")
	if c.secret != "" {
		headers = append(headers, HeaderAuthorization, "Bearer "+c.secret)
	}
	if c.user != "" {
		headers = append(headers, HeaderUser, c.user)
	}
	resp, err := c.tr.roundTrip(ctx, addr, host, method, target, headers, payload)
	if err != nil {
		if c.noDaemon(err) {
			return where, &noDaemonError{where: where, hint: c.hint, err: err}
		}
		return where, fmt.Errorf("lsfc serve at %s: %w", where, err)
	}
	data := resp.body
	if resp.status >= 400 {
		ae := apiError(resp.status, resp.reason, data)
		if resp.leader != nil && resp.status == StatusServiceUnavailable {
			leader := strings.Join(resp.leader, "")
			ae.leader = &leader
		}
		return where, ae
	}
	if out == nil {
		return "", nil
	}
	if r, ok := out.(*rawAnswer); ok {
		// Read by the caller, which checks it.
		*r = data
		return "", nil
	}
	if r, ok := out.(*SubmitResponse); ok && readSubmitResponse(data, r) {
		return "", nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return "", fmt.Errorf("lsfc serve at %s: bad answer to %s %s: %w", where, method, path, err)
	}
	return "", nil
}

// A rawAnswer is an answer as the daemon sent it, which the caller reads
// itself.
type rawAnswer []byte

// apiError reads an error response: its Error body, or else its status
// and text.
func apiError(status int, reason string, data []byte) *APIError {
	var e Error
	if err := json.Unmarshal(data, &e); err == nil && e.Error != "" {
		return &APIError{Status: status, Message: e.Error, body: data, Retry: time.Duration(e.Retry) * time.Second}
	}
	msg := strings.ToLower(strings.TrimSpace(reason))
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

// connectionLost reports whether a transport error is the end of the
// connection while a request was in transit: an EOF or a reset.
func connectionLost(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
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
