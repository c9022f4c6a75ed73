package daemon

import (
	"cmp"
	"context"
	"crypto/subtle"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/apitls"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// An identity is who makes a request: from the Unix socket's peer
// credentials, the name of a TCP client's verified certificate (Cert),
// or the user a TCP client names after showing the secret.
type identity struct {
	User     string
	UID, GID int
	Remote   bool
	Cert     bool
}

type identityKey struct{}

// listen opens the Unix socket (0666: anyone may connect, and is known by
// their credentials) in the run directory (0755: anyone may enter it, as
// the state directory only its owner may) and, when configured, the TCP
// listener.
func (d *Daemon) listen() error {
	if err := makeRunDir(api.RunDir(d.cfg.StateDir)); err != nil {
		return err
	}
	sock := api.SocketPath(d.cfg.StateDir)
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("socket: %w", err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		ln.Close()
		return fmt.Errorf("socket: %w", err)
	}
	unixSrv := d.limits.server(d.routes(false), d.cfg.Logf)
	unixSrv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if id, ok := peerIdentity(unwrapConn(c)); ok {
			return context.WithValue(ctx, identityKey{}, id)
		}
		return ctx
	}
	d.servers = append(d.servers, unixSrv)
	go unixSrv.Serve(limitPeers(ln, d.limits.PerPeer, unixPeer))
	if d.cfg.Listen != "" {
		if d.cfg.Secret == "" && (d.cfg.TLS == nil || d.cfg.TLS.ClientCAs == nil) {
			return fmt.Errorf("--listen needs a shared secret (--secret-file or LSFC_SECRET) or client certificates (--client-ca)")
		}
		tln, err := net.Listen("tcp", d.cfg.Listen)
		if err != nil {
			return fmt.Errorf("listen %s: %w", d.cfg.Listen, err)
		}
		d.addr = tln.Addr().String()
		tcpSrv := d.limits.server(d.routes(true), d.cfg.Logf)
		d.servers = append(d.servers, tcpSrv)
		var ln net.Listener = limitPeers(tln, d.limits.PerPeer, tcpPeer)
		if d.cfg.TLS != nil {
			ln = tls.NewListener(ln, d.cfg.TLS.Clone())
		}
		go tcpSrv.Serve(ln)
	}
	return nil
}

// Addr returns the TCP address the daemon listens on, or "".
func (d *Daemon) Addr() string { return d.addr }

// peerIdentity reads the credentials of the process at the other end of a
// Unix socket.
func peerIdentity(c net.Conn) (identity, bool) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return identity{}, false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return identity{}, false
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return identity{}, false
	}
	name := "uid" + strconv.Itoa(int(cred.Uid))
	if u, err := user.LookupId(strconv.Itoa(int(cred.Uid))); err == nil {
		name = u.Username
	}
	return identity{User: name, UID: int(cred.Uid), GID: int(cred.Gid)}, true
}

// routes returns the API's handler; remote routes require the secret.
func (d *Daemon) routes(remote bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/jobs", d.handleSubmit)
	mux.HandleFunc("GET /v1/jobs", d.handleJobs)
	mux.HandleFunc("GET /v1/jobs/{id}", d.handleJob)
	mux.HandleFunc("POST /v1/jobs/{id}/{action}", d.handleJobAction)
	mux.HandleFunc("GET /v1/jobs/{id}/output", d.handleJobOutput)
	mux.HandleFunc("GET /v1/queues", d.handleQueues)
	mux.HandleFunc("POST /v1/queues/{name}/{op}", d.handleQueueOp)
	mux.HandleFunc("GET /v1/hosts", d.handleHosts)
	mux.HandleFunc("POST /v1/hosts/{name}/{op}", d.handleHostOp)
	mux.HandleFunc("GET /v1/resources", d.handleResources)
	mux.HandleFunc("GET /v1/status", d.handleStatus)
	mux.HandleFunc("GET /v1/history", d.handleHistory)
	mux.HandleFunc("GET /v1/params", d.handleParams)
	mux.HandleFunc("GET /v1/params/long", d.handleParamsLong)
	mux.HandleFunc("GET /v1/users", d.handleUsers)
	mux.HandleFunc("GET /v1/limits", d.handleLimits)
	mux.HandleFunc("GET /v1/groups/{kind}", d.handleGroups)
	mux.HandleFunc("GET /v1/apps", d.handleApps)
	mux.HandleFunc("GET /v1/cluster", d.handleCluster)
	mux.HandleFunc("GET /v1/conf", d.handleConf)
	mux.HandleFunc("GET /v1/perf", d.handlePerf)
	mux.HandleFunc("GET /v1/sla", d.handleSLA)
	mux.HandleFunc("GET /v1/jobgroups", d.handleJobGroups)
	mux.HandleFunc("POST /v1/jobgroups", d.handleJobGroupChange)
	mux.HandleFunc("GET /v1/reservations", d.handleReservations)
	mux.HandleFunc("GET /v1/reservations/policies", d.handleReservationPolicies)
	mux.HandleFunc("POST /v1/reservations", d.handleReservationChange)
	mux.HandleFunc("POST /v1/reconfig", d.handleReconfig)
	mux.HandleFunc("POST /v1/agent/load", d.handleAgentLoad)
	mux.HandleFunc("POST /v1/agent/sync", d.handleAgentSync)
	if remote {
		// Between clusters: only peers that show the shared secret.
		mux.HandleFunc("POST /v1/mc/forward", d.handleMCForward)
		mux.HandleFunc("POST /v1/mc/poll", d.handleMCPoll)
		mux.HandleFunc("POST /v1/mc/withdraw", d.handleMCWithdraw)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		_, pattern := mux.Handler(r)
		defer func() { d.perf.add(pattern, r.URL.Query(), time.Since(start)) }()
		// The caller is known from the headers alone: a refusal is
		// answered before any of the body is read, and closes the
		// connection rather than wait for the rest of the body.
		refuse := func(code int, msg string) {
			w.Header().Set("Connection", "close")
			writeError(w, code, msg)
		}
		if remote {
			id, ok := d.remoteIdentity(r)
			if !ok {
				refuse(http.StatusUnauthorized, "the client certificate or the shared secret is missing or wrong")
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), identityKey{}, id))
		} else if _, ok := r.Context().Value(identityKey{}).(identity); !ok {
			refuse(http.StatusForbidden, "the caller's credentials cannot be read")
			return
		}
		if r.Method == http.MethodPost && pattern != "POST /v1/agent/load" {
			if err := d.cannotRecord(); err != nil {
				refuse(http.StatusInsufficientStorage, err.Error())
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, api.MaxRequestBytes)
		mux.ServeHTTP(w, r)
	})
}

// remoteIdentity reads who makes a TCP request: the name of its
// verified client certificate, else the user it names after the secret.
func (d *Daemon) remoteIdentity(r *http.Request) (identity, bool) {
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 && len(r.TLS.VerifiedChains[0]) > 0 {
		name := apitls.CertName(r.TLS.VerifiedChains[0][0])
		if checkName("user", name) != nil {
			return identity{}, false
		}
		return identity{User: name, UID: -1, GID: -1, Remote: true, Cert: true}, true
	}
	if d.cfg.Secret == "" {
		return identity{}, false
	}
	auth := r.Header.Get(api.HeaderAuthorization)
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(d.cfg.Secret)) != 1 {
		return identity{}, false
	}
	u := r.Header.Get(api.HeaderUser)
	if checkName("user", u) != nil {
		return identity{}, false
	}
	return identity{User: u, UID: -1, GID: -1, Remote: true}, true
}

func who(r *http.Request) identity {
	id, _ := r.Context().Value(identityKey{}).(identity)
	return id
}

// isAdmin reports whether a user administers the cluster: root, the
// daemon's own user, or a ClusterAdmins user of lsf.cluster.
func (d *Daemon) isAdmin(id identity) bool {
	if !id.Remote && (id.UID == 0 || id.UID == os.Getuid()) {
		return true
	}
	return slices.Contains(d.cfg.Policy.Admins, id.User)
}

// isQueueAdmin reports whether a user administers a queue (ADMINISTRATORS
// of lsb.queues) or the cluster.
func (d *Daemon) isQueueAdmin(id identity, q *runtime.Queue) bool {
	if d.isAdmin(id) {
		return true
	}
	if q == nil || q.Def == nil {
		return false
	}
	st := q.Def.Settings["ADMINISTRATORS"]
	if st == nil {
		return false
	}
	items, _ := st.Value.([]compile.UserItem)
	return runtime.UsersInclude(items, d.cfg.Policy, id.User)
}

// mayControl reports whether a user may act on a job: their own, or one
// of a queue they administer.
func (d *Daemon) mayControl(id identity, j *runtime.Job) bool {
	return j.User == id.User || d.isQueueAdmin(id, j.Queue)
}

// statusError carries an HTTP status.
type statusError struct {
	code int
	msg  string
	// retry, when set, tells the client to try again after it.
	retry time.Duration
}

func (e *statusError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) error {
	return &statusError{code: code, msg: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	if data, ok := v.(api.JobListJSON); ok {
		// A job list written as it was made.
		w.Header().Set("Content-Length", strconv.Itoa(len(data)+1))
		w.WriteHeader(code)
		w.Write(append(data, '\n'))
		return
	}
	if l, ok := v.(api.JobList); ok {
		// A job list, the largest answer, is written without
		// reflection over each job, as the Encoder would write it.
		if b, err := l.AppendJSON(nil); err == nil {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
			w.WriteHeader(code)
			w.Write(append(b, '\n'))
			return
		}
	}
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, api.Error{Error: msg})
}

// reply writes a call's result: v, or the error with its status.
func reply(w http.ResponseWriter, v any, err error) {
	var se *statusError
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, v)
	case errors.As(err, &se) && se.retry > 0:
		writeJSON(w, se.code, api.Error{Error: se.msg, Retry: int64(max(time.Second, se.retry) / time.Second)})
	case errors.As(err, &se):
		writeError(w, se.code, se.msg)
	case errors.Is(err, errShutdown):
		writeError(w, http.StatusServiceUnavailable, err.Error())
	case isNotLeader(err):
		w.Header().Set(api.HeaderLeader, "")
		writeError(w, http.StatusServiceUnavailable, "this master no longer leads: "+err.Error())
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

// readJSON decodes a request body strictly: one object, no unknown field.
func readJSON(r *http.Request, v any) error {
	return decodeJSON(r.Body, v)
}

// decodeJSON decodes a request body from rd as readJSON does.
func decodeJSON(rd io.Reader, v any) error {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errorf(http.StatusRequestEntityTooLarge, "request larger than %d bytes", api.MaxRequestBytes)
		}
		return errorf(http.StatusBadRequest, "bad request body: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, "bad request body: more than one JSON value")
	}
	return nil
}

// validSubmit checks a submission's fields before it reaches the cluster.
func validSubmit(s *api.SubmitRequest) error {
	bad := func(format string, args ...any) error { return errorf(http.StatusBadRequest, format, args...) }
	switch {
	case strings.TrimSpace(s.Command) == "":
		return bad("no command to run")
	case len(s.Command) > 64<<10:
		return bad("the command is longer than 64 KiB")
	case strings.ContainsRune(s.Command, 0):
		return bad("the command contains a NUL byte")
	case s.Slots < 0 || s.Slots > 1<<20:
		return bad("-n %d is out of range", s.Slots)
	case s.MaxSlots < 0 || s.MaxSlots > 1<<20:
		return bad("-n max %d is out of range", s.MaxSlots)
	case len(s.ResizeNotify) > 4<<10 || strings.ContainsRune(s.ResizeNotify, 0):
		return bad("-rnc: the notification command is longer than 4 KB or holds a NUL byte")
	case s.RunLimit < 0 || s.MemLimit < 0 || s.Estimate < 0:
		return bad("negative limits")
	case s.Umask < -1 || s.Umask > 0o777:
		return bad("umask %o is out of range", s.Umask)
	case len(s.Env) > 10000:
		return bad("more than 10,000 environment variables")
	case len(s.Token) > 128:
		return bad("the submission token is longer than 128 bytes")
	}
	for _, e := range s.Env {
		if !strings.Contains(e, "=") || strings.ContainsRune(e, 0) {
			return bad("environment entry %q is not KEY=VALUE", truncate(e))
		}
	}
	switch {
	case len(s.Description) > api.MaxJobDescription:
		return bad("the job description is longer than %d characters", api.MaxJobDescription)
	case strings.ContainsRune(s.Description, 0):
		return bad("the job description holds a NUL byte")
	case s.RequeueExitValues != "" && badExitValues(s.RequeueExitValues) != nil:
		return bad("bad requeue exit values %q: %v", truncate(s.RequeueExitValues), badExitValues(s.RequeueExitValues))
	case len(s.Project) > 511:
		return bad("the project name is longer than 511 characters")
	case strings.ContainsAny(s.Project, "\n\x00"):
		return bad("bad project name %q", truncate(s.Project))
	case s.UserGroup != "" && checkName("user group", s.UserGroup) != nil:
		return bad("bad user group name %q", truncate(s.UserGroup))
	}
	if s.JobGroup != "" {
		if _, err := runtime.CleanJobGroupPath(s.JobGroup); err != nil {
			return bad("%v", err)
		}
	}
	if len(s.Reservation) > 128 || strings.ContainsAny(s.Reservation, " \t\n\x00") {
		return bad("Bad reservation ID")
	}
	if err := checkMailUser(s.MailUser); err != nil {
		return err
	}
	// -q may name several queues, tried in turn (bsub -q "short normal").
	for _, n := range append(strings.Fields(s.Queue), s.App) {
		if n != "" && checkName("queue or profile", n) != nil {
			return bad("bad name %q", truncate(n))
		}
	}
	if in := s.Interactive; in != nil {
		spec := localexec.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
		if err := spec.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (d *Daemon) handleSubmit(w http.ResponseWriter, r *http.Request) {
	var req api.SubmitRequest
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := validSubmit(&req); err != nil {
		reply(w, nil, err)
		return
	}
	id := who(r)
	if req.Reservation != "" && strings.TrimSpace(req.ResReq) == "" && len(req.Hosts) == 0 {
		// A job of an advance reservation with neither -R nor -m may
		// run on hosts of any type, as LSF has it.
		req.ResReq = "select[type==any]"
	}
	// A new -R is compiled here, not by the cluster's owner.
	fromHost := req.FromHost
	if fromHost == "" {
		fromHost = d.host
	}
	pre := d.reqc.Load().Compile(req.Queue, req.App, req.ResReq, fromHost)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		if j := d.cluster.Job(d.tokens[req.Token]); req.Token != "" && j != nil {
			// The same submission again: its job (an array's first
			// element stands for the array).
			return api.SubmitResponse{ID: j.JobID(), Queue: j.Queue.Name, Default: req.Queue == ""}, nil, nil, nil
		}
		d.defaultDirs(&req)
		spec := api.ArraySpec{Name: req.Name}
		if strings.Contains(req.Name, "[") {
			var err error
			if spec, err = d.cluster.CheckArraySpec(req.Name); err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%s", api.ArraySpecMessage(req.Name, err))
			}
		}
		sub := runtime.Submission{Name: req.Name, User: id.User, Queue: req.Queue, App: req.App, Slots: req.Slots,
			ResReq: req.ResReq, Priority: req.Priority, RunLimit: req.RunLimit, Estimate: req.Estimate, Hold: req.Hold, Depend: req.Depend,
			Command: req.Command, Env: req.Env, Cwd: req.Cwd, Umask: req.Umask, Stdout: req.Stdout,
			Stderr: req.Stderr, FromHost: req.FromHost, UID: id.UID, GID: id.GID, Rerunnable: req.Rerunnable,
			MemLimit: req.MemLimit, MemHard: req.MemHard, Hosts: req.Hosts, Exclusive: req.Exclusive, GPU: req.GPU, Sla: req.Sla, Pre: pre,
			Project: req.Project, Group: req.UserGroup, JobGroup: req.JobGroup, OutOverwrite: req.OutOverwrite,
			ErrOverwrite: req.ErrOverwrite, Reservation: req.Reservation, MaxSlots: req.MaxSlots, AutoResize: req.AutoResize,
			ResizeNotify: req.ResizeNotify, Description: req.Description, RequeueExitValues: req.RequeueExitValues}
		if sub.Reservation != "" {
			if err := d.cluster.CheckRsvUse(sub.Reservation, sub.User, d.now()); err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%v. Job not submitted", err)
			}
			if err := d.rsvAskedHosts(sub.Reservation, sub.Hosts); err != nil {
				return nil, nil, nil, err
			}
		}
		var err error
		if sub.Exec, err = d.submitExec(&req, d.now()); err != nil {
			return nil, nil, nil, err
		}
		sub.Mail = submitMail(&req)
		if in := req.Interactive; in != nil {
			sub.Interactive = &runtime.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
		}
		if sub.Group != "" {
			if err := d.cluster.CheckUserGroup(sub.Group, sub.User); err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
			}
		}
		if err := d.checkPendThresholds(sub, spec); err != nil {
			return nil, nil, nil, err
		}
		if sub.FromHost == "" {
			sub.FromHost = d.host
		}
		if h := d.cluster.Host(sub.FromHost); h != nil {
			sub.FromType = h.Facts.Type
		}
		if spec.IsArray() {
			a, err := d.cluster.SubmitArray(sub, spec, d.now())
			if err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
			}
			first := a.Elements[0]
			im := first.Image()
			im.ID = a.ID
			return api.SubmitResponse{ID: a.ID, Queue: first.Queue.Name, Default: req.Queue == ""},
				[]Record{{Type: KindArray, At: first.Submit, Image: &im, Token: d.noteToken(req.Token, first.ID)}}, nil, nil
		}
		j, err := d.cluster.Submit(sub, d.now())
		if err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		im := j.Image()
		return api.SubmitResponse{ID: j.ID, Queue: j.Queue.Name, Default: req.Queue == ""},
			[]Record{{Type: KindNew, At: j.Submit, Job: j.ID, Image: &im, Token: d.noteToken(req.Token, j.ID)}}, nil, nil
	})
	reply(w, v, err)
}

func (d *Daemon) handleJobs(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		var out []api.Job
		ids := map[int64]bool{}
		for _, s := range q["id"] {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n <= 0 {
				return nil, nil, nil, errorf(http.StatusBadRequest, "bad job id %q", truncate(s))
			}
			ids[n] = true
		}
		userF := q.Get("user")
		if userF == "" && len(ids) == 0 {
			userF = id.User
		}
		all := q.Get("all") == "1"
		mask, err := api.ParseJobFieldMask(q.Get("fields"))
		if err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		compact := q.Get("compact") == "1"
		var b api.JobListBuilder
		queue := q.Get("queue")
		now := d.now()
		// The jobs selected first, so that the list is made at its size.
		keep := func(j *runtime.Job) bool {
			return !(len(ids) == 0 && userF != "all" && j.User != userF || queue != "" && j.Queue.Name != queue ||
				len(ids) == 0 && !all && j.State.Finished())
		}
		var list []*runtime.Job
		if len(ids) > 0 {
			list = slices.DeleteFunc(d.namedJobs(ids), func(j *runtime.Job) bool { return !keep(j) })
		} else {
			list = d.cluster.JobsWhere(keep)
		}
		if compact {
			// The list is written as it is made, of the fields asked
			// for alone: a long one holds no copy of each job.
			b.Keep(mask)
			b.Stream(len(list))
		} else {
			out = make([]api.Job, 0, len(list))
		}
		var v api.Job // one for all: the mask's look at it puts it on the heap
		wants := wantsOf(mask)
		for _, j := range list {
			v = d.jobFieldsAt(j, false, now, wants)
			if compact {
				// The elements of an array go as rows: the list of a
				// large array is small to send and to read. It writes
				// the fields of the mask alone.
				b.Add(&v)
				continue
			}
			mask.Apply(&v)
			out = append(out, v)
		}
		if compact {
			data, err := b.JSON()
			return data, nil, nil, err
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// namedJobs returns the jobs ids name, in the order bjobs lists them: a
// job by its ID, an array's element by its own, and by its job ID every
// element of an array.
func (d *Daemon) namedJobs(ids map[int64]bool) []*runtime.Job {
	sorted := slices.Sorted(maps.Keys(ids))
	slices.SortFunc(sorted, func(a, b int64) int {
		ja, ia := api.SplitID(a)
		jb, ib := api.SplitID(b)
		return cmp.Or(cmp.Compare(ja, jb), cmp.Compare(ia, ib))
	})
	var out []*runtime.Job
	// A job named twice (an array and one of its elements) is listed
	// once.
	var seen map[int64]bool
	if len(sorted) > 1 {
		seen = map[int64]bool{}
	}
	add := func(j *runtime.Job) {
		if seen == nil {
			out = append(out, j)
		} else if !seen[j.ID] {
			seen[j.ID] = true
			out = append(out, j)
		}
	}
	for _, id := range sorted {
		if a := d.cluster.Array(id); a != nil {
			out = slices.Grow(out, len(a.Elements))
			for _, j := range a.Elements {
				add(j)
			}
		} else if j := d.cluster.Job(id); j != nil {
			add(j)
		}
	}
	return out
}

func (d *Daemon) handleJob(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad job id %q", truncate(r.PathValue("id"))))
		return
	}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		j := d.cluster.Job(n)
		if j == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "Job <%s> is not found", api.FormatJobID(n))
		}
		return d.jobInfo(j, true), nil, nil, nil
	})
	reply(w, v, err)
}

// jobInfo describes a job for clients; explain adds each host's reason
// for a pending job.
func (d *Daemon) jobInfo(j *runtime.Job, explain bool) api.Job {
	return d.jobInfoAt(j, explain, d.now())
}

// jobInfoAt is jobInfo on the daemon's clock reading now.
func (d *Daemon) jobInfoAt(j *runtime.Job, explain bool, now runtime.Time) api.Job {
	return d.jobFieldsAt(j, explain, now, wantsOf(api.JobFieldMask{}))
}

// jobWants are the fields of a job a listing sends that take work to
// make.
type jobWants struct {
	execHosts, rerunnable, exceptions, project, jobGroup, resize, execCwd, gpu, aps, reason bool
	// notify, reserved, forward and home are made on the heap.
	notify, reserved, forward, home bool
}

// wantsOf returns the fields that take work to make that mask keeps.
func wantsOf(mask api.JobFieldMask) jobWants {
	return jobWants{execHosts: mask.Has("execHosts"), rerunnable: mask.Has("rerunnable"), exceptions: mask.Has("exceptions"),
		project: mask.Has("project"), jobGroup: mask.Has("jobGroup"), resize: mask.Has("resize"), execCwd: mask.Has("execCwd"),
		gpu: mask.Has("gpuReq") || mask.Has("gpuAlloc"), aps: mask.Has("aps"), reason: mask.Has("reason") || mask.Has("hostReasons"),
		notify: mask.Has("notify"), reserved: mask.Has("reserved"), forward: mask.Has("forward"), home: mask.Has("home")}
}

// jobFieldsAt is jobInfoAt for a listing that sends some fields alone:
// the fields that take work to make (hosts, paths, the pending reason,
// the absolute priority ...) are made only when w wants them. The others
// are set all the same: the listing's mask clears them.
func (d *Daemon) jobFieldsAt(j *runtime.Job, explain bool, now runtime.Time, w jobWants) api.Job {
	state := j.State.String()
	if j.State == runtime.Unknown && j.Term != "" {
		// Killed while its host does not answer: ZOMBI, until the host
		// answers and the kill reaches the job, or the host is lost.
		state = runtime.Zombie.String()
	}
	out := api.Job{ID: j.ID, User: j.User, Queue: j.Queue.Name, State: state, Name: j.Name,
		Command: j.Sub.Command, Slots: j.Slots, FromHost: j.Sub.FromHost,
		Submit: int64(j.Submit), Start: int64(j.Start), End: int64(j.End), ExitCode: j.ExitCode, Term: j.Term,
		ResReq: j.ResReq, Cwd: j.Sub.Cwd, Stdout: j.Sub.Stdout, Stderr: j.Sub.Stderr, Depend: j.Depend,
		RunLimit: j.RunLimit, MemLimit: j.Sub.MemLimit, Priority: j.Priority, Preempted: j.PreemptCount,
		CPUTime: j.CPUTime, MaxMem: j.MaxMem, UserGroup: j.Group,
		App: j.Sub.App, Sla: j.Sub.Sla, Estimate: j.Estimate, Reservation: j.Sub.Reservation, Description: j.Sub.Description}
	if w.execHosts {
		out.ExecHosts = j.HostNames()
	}
	if w.rerunnable {
		out.Rerunnable = j.Rerunnable()
	}
	if w.exceptions {
		out.Exceptions = j.Exceptions.String()
	}
	if w.project {
		out.Project = j.Project()
	}
	if w.jobGroup {
		out.JobGroup = j.JobGroupPath()
	}
	execJobFields(j, &out)
	if w.resize {
		out.Resize = jobResize(j)
	}
	if m := j.Sub.Mail; m != nil && w.notify {
		out.Notify = &api.JobNotify{Begin: m.Begin, End: m.End, Exit: m.Exit, User: m.User}
	}
	if r := j.Reservation; r != nil && j.State.Pending() && w.reserved {
		out.Reserved = jobReservation(r)
	}
	if j.Start != 0 && w.execCwd {
		out.ExecCwd = d.cwdOf(j)
	}
	if a := j.Array(); a != nil {
		out.Index, out.Array = j.Index(), a.SpecString()
		out.Name = j.Name + "[" + strconv.Itoa(out.Index) + "]"
	}
	if j.GPU != nil && w.gpu {
		out.GPUReq = j.GPU.String()
		for _, a := range j.Allocs {
			if len(a.GPUs) == 0 {
				continue
			}
			g := api.JobGPUs{Host: a.Host.Name, IDs: slices.Clone(a.GPUs), Reserved: j.GPU.GMem}
			for _, x := range a.GPUs {
				model, mem := "", 0.0
				for _, dev := range a.Host.GPUs {
					if dev.Index == x {
						model, mem = dev.Model, dev.Mem
					}
				}
				g.Models, g.Mem = append(g.Models, model), append(g.Mem, mem)
			}
			out.GPUAlloc = append(out.GPUAlloc, g)
		}
	}
	if r := j.Remote; r != nil && w.forward {
		out.Forward = &api.JobForward{Cluster: r.Cluster, Queue: r.Queue, RemoteID: r.ID, Time: int64(r.SentAt)}
	}
	if h := j.Sub.Home; h != nil && w.home {
		out.Home = &api.JobHome{Cluster: h.Cluster, ID: h.ID}
	}
	if w.aps {
		if v, ok := d.cluster.APS(j, now); ok {
			out.APS = &api.JobAPS{Value: v.Value, System: v.System, FS: v.FS, Proc: v.Proc, Mem: v.Mem, Swap: v.Swap,
				JPriority: v.JPriority, QPriority: v.QPriority, Admin: v.Admin}
		}
	}
	switch {
	case !w.reason:
	case j.State.Pending():
		reason := d.engine.Reason(j)
		if explain && reason != runtime.ReasonNew {
			// A job no cycle has looked at yet says so alone, as LSF's
			// does; its hosts are weighed once a cycle has.
			jr, hosts := d.engine.WhyPending(j)
			if jr != runtime.ReasonNone {
				reason = jr
			}
			for _, h := range hosts {
				if h.Reason != runtime.ReasonNone {
					out.HostReasons = append(out.HostReasons, api.HostReason{Host: h.Host, Reason: h.Reason.String()})
				}
			}
		}
		out.Reason = reason.String()
	case j.State == runtime.SSusp:
		out.Reason = j.Reason.String()
	case j.State == runtime.USusp:
		out.Reason = "The job was suspended by the user while running"
	}
	return out
}

// cwdOf returns the directory a job runs or ran in: where it went when it
// could not enter the one it asked for (LSF's /tmp), else that one.
func (d *Daemon) cwdOf(j *runtime.Job) string {
	if cwd := d.ranIn[j.ID]; cwd != "" {
		return cwd
	}
	if j.State.Started() && !j.State.Finished() {
		if cwd := d.runsIn[j.ID]; cwd != "" {
			return cwd
		}
		if d.exec != nil {
			if cwd := d.exec.Cwd(j.ID); cwd != "" {
				return cwd
			}
		}
	}
	return j.Sub.Cwd
}

// jobAction applies bkill, bstop, bresume, btop, bbot, bswitch or bmod.
func (d *Daemon) handleJobAction(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad job id %q", truncate(r.PathValue("id"))))
		return
	}
	action := r.PathValue("action")
	var req api.ActionRequest
	if r.ContentLength != 0 {
		if err := readJSON(r, &req); err != nil {
			reply(w, nil, err)
			return
		}
	}
	if len(req.Reason) > api.MaxActionReason {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the reason is longer than %d characters", api.MaxActionReason))
		return
	}
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		j := d.cluster.Job(n)
		if a := d.cluster.Array(n); j == nil && a != nil {
			return d.arrayAction(id, a, action, req)
		}
		if j == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "Job <%s>: No matching job found", api.FormatJobID(n))
		}
		if req.Indices != nil {
			// ID[INDEX] of a job that is no array names no job: the
			// action must not fall on the whole job.
			return nil, nil, nil, noElements(n, req.Indices)
		}
		if action == "modify" && req.Modify != nil && strings.HasPrefix(req.Modify.Name, "%") {
			return nil, nil, nil, errorf(http.StatusBadRequest, "Job <%s>: the running limit %%N applies to a whole job array", j.Label())
		}
		if !d.mayControl(id, j) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Job <%s>: User permission denied", api.FormatJobID(n))
		}
		return d.jobAction(id, j, action, req)
	})
	reply(w, v, err)
}

// noElements is the answer to an action on elements (ID[INDEX]) of job
// n, which is no job array: no element is found, as for an array
// without them.
func noElements(n int64, indices []int) error {
	if len(indices) > runtime.MaxArrayElements {
		return errorf(http.StatusBadRequest, "more than %d indices", runtime.MaxArrayElements)
	}
	lines := make([]string, len(indices))
	for i, x := range indices {
		lines[i] = fmt.Sprintf("Job <%s[%d]>: No matching job found", api.FormatJobID(n), x)
	}
	return errorf(http.StatusNotFound, "%s", strings.Join(lines, "\n"))
}

// arrayAction applies an action to every element of an array it
// applies to (bkill ID, bstop ID ...), in one transaction; the answer
// names the array. bmod -J "%N" changes the array's running limit.
func (d *Daemon) arrayAction(id identity, a *runtime.Array, action string, req api.ActionRequest) (any, []Record, func(), error) {
	if action == "resize" {
		return nil, nil, nil, errorf(http.StatusBadRequest, "Job <%d>: bresize applies to one job, not a job array: name an element, ID[INDEX]", a.ID)
	}
	for _, e := range a.Elements {
		if !d.mayControl(id, e) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Job <%d>: User permission denied", a.ID)
		}
	}
	if action == "modify" && req.Modify != nil && strings.HasPrefix(req.Modify.Name, "%") {
		if req.Indices != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "Job <%d>: the running limit %%N applies to a whole job array", a.ID)
		}
		n, err := strconv.Atoi(req.Modify.Name[1:])
		if err != nil || n < 0 || req.Modify.Name[1:] != strconv.Itoa(n) {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%q: the running limit is not a whole number", truncate(req.Modify.Name))
		}
		if err := d.cluster.SetArrayLimit(a, n); err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		return api.ActionResponse{Message: fmt.Sprintf("Parameters of job <%d> are being changed", a.ID)},
			[]Record{{Type: KindArrayLimit, Job: a.ID, Code: n}}, nil, nil
	}
	applies := func(j *runtime.Job) bool {
		switch action {
		case "stop":
			return j.State == runtime.Pend || j.State == runtime.Run
		case "resume":
			return j.State == runtime.PSusp || j.State == runtime.USusp
		case "top", "bottom", "modify":
			return j.State.Pending()
		case "requeue":
			// The states brequeue takes are the request's: the element's
			// own action checks them.
			return true
		}
		return !j.State.Finished()
	}
	elems := slices.Clone(a.Elements)
	var errs []string
	if req.Indices != nil {
		if len(req.Indices) > runtime.MaxArrayElements {
			return nil, nil, nil, errorf(http.StatusBadRequest, "more than %d indices", runtime.MaxArrayElements)
		}
		elems = elems[:0]
		for _, i := range req.Indices {
			if e := d.cluster.Job(api.ElementID(a.ID, i)); e != nil && i > 0 {
				elems = append(elems, e)
			} else {
				errs = append(errs, fmt.Sprintf("Job <%d[%d]>: No matching job found", a.ID, i))
			}
		}
	}
	if action == "top" {
		// Each element moved to the top goes before the one moved
		// before it: the last goes first so that the order stays.
		slices.Reverse(elems)
	}
	var recs []Record
	var acts []func()
	var first error
	var lines []string
	for _, e := range elems {
		if req.Indices == nil && !applies(e) {
			continue
		}
		v, r, act, err := d.jobAction(id, e, action, req)
		if err != nil {
			first = cmp.Or(first, err)
			if ae, ok := errors.AsType[*statusError](err); ok && req.Indices != nil {
				errs = append(errs, ae.msg)
			}
			continue
		}
		if resp, ok := v.(api.ActionResponse); ok && req.Indices != nil {
			lines = append(lines, resp.Message)
		}
		recs = append(recs, r...)
		if act != nil {
			acts = append(acts, act)
		}
	}
	if req.Indices != nil {
		if len(lines) == 0 && len(errs) > 0 {
			return nil, nil, nil, errorf(http.StatusConflict, "%s", strings.Join(errs, "\n"))
		}
		var act func()
		if len(acts) > 0 {
			act = func() {
				for _, f := range acts {
					f()
				}
			}
		}
		return api.ActionResponse{Message: strings.Join(lines, "\n"), Errors: errs}, recs, act, nil
	}
	if len(recs) == 0 {
		if first != nil {
			return nil, nil, nil, first
		}
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%d>: Job has already finished", a.ID)
	}
	msg := map[string]string{"kill": "Job <%d> is being terminated", "stop": "Job <%d> is being stopped",
		"resume": "Job <%d> is being resumed", "signal": "Job <%d> is being signaled",
		"top": "Job <%d> has been moved to position 1 from top.", "bottom": "Job <%d> has been moved to position 1 from bottom.",
		"modify": "Parameters of job <%d> are being changed", "aps": "Parameters of job <%d> are being changed",
		"requeue": "Job <%d> is being requeued"}[action]
	text := fmt.Sprintf(msg, a.ID)
	if action == "switch" {
		text = fmt.Sprintf("Job <%d> is switched to queue <%s>", a.ID, req.Queue)
	}
	var act func()
	if len(acts) > 0 {
		act = func() {
			for _, f := range acts {
				f()
			}
		}
	}
	return api.ActionResponse{Message: text}, recs, act, nil
}

func (d *Daemon) jobAction(id identity, j *runtime.Job, action string, req api.ActionRequest) (any, []Record, func(), error) {
	now := d.now()
	c := d.cluster
	conflict := func(err error) (any, []Record, func(), error) {
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: %v", j.Label(), err)
	}
	ok := func(msg string, recs ...Record) (any, []Record, func(), error) {
		return api.ActionResponse{Message: msg}, recs, nil, nil
	}
	if j.Remote != nil && action != "kill" && !j.State.Finished() {
		return conflict(fmt.Errorf("the job is forwarded to cluster %s", j.Remote.Cluster))
	}
	switch action {
	case "kill":
		switch {
		case j.State.Finished():
			//lint:ignore ST1005 LSF's own message, word for word
			return conflict(errors.New("Job has already finished"))
		case j.State.Pending() || j.Remote != nil:
			// A forwarded job ends here at once; its copy at the other
			// cluster is killed at the next exchange with it.
			if err := c.Kill(j, now); err != nil {
				return conflict(err)
			}
			return ok(fmt.Sprintf("Job <%s> is being terminated", j.Label()),
				Record{Type: KindFinish, At: now, Job: j.ID, State: "EXIT", Code: j.ExitCode, Term: j.Term, Comment: req.Reason})
		}
		id := j.ID
		if req.Remove {
			// bkill -r: the job ends here at once; its processes are
			// killed, and their end, when it comes, changes nothing.
			if err := c.Finish(j, runtime.Exit, 130, "TERM_FORCE_OWNER", now); err != nil {
				return conflict(err)
			}
			return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being terminated", api.FormatJobID(id))},
				[]Record{{Type: KindFinish, At: now, Job: id, State: "EXIT", Code: j.ExitCode, Term: j.Term, Comment: req.Reason}}, d.killAct(id), nil
		}
		j.Term = "TERM_OWNER"
		rec := Record{Type: KindKill, At: now, Job: id, Term: j.Term, Comment: req.Reason}
		if req.Done {
			j.KilledDone, rec.State = true, runtime.Done.String()
		}
		return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being terminated", api.FormatJobID(id))},
			[]Record{rec}, d.killAct(id), nil
	case "signal":
		return d.signalJob(id, j, req)
	case "resize":
		return d.resizeJob(j, req.Resize)
	case "requeue":
		return d.requeueJob(id, j, req)
	case "stop":
		switch j.State {
		case runtime.Pend:
			if err := c.Hold(j); err != nil {
				return conflict(err)
			}
			return ok(fmt.Sprintf("Job <%s> is being stopped", j.Label()), Record{Type: KindHold, At: now, Job: j.ID, Comment: req.Reason})
		case runtime.Run:
			if err := c.Suspend(j, runtime.ReasonNone, now); err != nil {
				return conflict(err)
			}
			id := j.ID
			return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being stopped", api.FormatJobID(id))},
				[]Record{{Type: KindSuspend, At: now, Job: id, Comment: req.Reason}}, d.signalAct(id, syscall.SIGSTOP), nil
		}
		return conflict(fmt.Errorf("the job is %s: only a pending or running job can be stopped", j.State))
	case "resume":
		switch j.State {
		case runtime.PSusp:
			if err := c.Release(j); err != nil {
				return conflict(err)
			}
			return ok(fmt.Sprintf("Job <%s> is being resumed", j.Label()), Record{Type: KindRelease, At: now, Job: j.ID, Comment: req.Reason})
		case runtime.USusp:
			if err := c.Resume(j, now); err != nil {
				return conflict(err)
			}
			id := j.ID
			return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being resumed", api.FormatJobID(id))},
				[]Record{{Type: KindResume, At: now, Job: id, Comment: req.Reason}}, d.signalAct(id, syscall.SIGCONT), nil
		}
		return conflict(fmt.Errorf("the job is %s: only a job its owner or an administrator stopped can be resumed", j.State))
	case "top", "bottom":
		var err error
		kind := KindTop
		if action == "top" {
			err = c.Top(j)
		} else {
			err, kind = c.Bottom(j), KindBottom
		}
		if err != nil {
			return conflict(err)
		}
		where := "top"
		if action == "bottom" {
			where = "bottom"
		}
		return ok(fmt.Sprintf("Job <%s> has been moved to position 1 from %s.", j.Label(), where),
			Record{Type: kind, At: now, Job: j.ID})
	case "switch":
		if err := checkName("queue", req.Queue); err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		if err := c.Switch(j, req.Queue, now); err != nil {
			return conflict(err)
		}
		return ok(fmt.Sprintf("Job <%s> is switched to queue <%s>", j.Label(), req.Queue),
			Record{Type: KindSwitch, At: now, Job: j.ID, Queue: req.Queue})
	case "modify":
		if req.Modify == nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "nothing to modify")
		}
		if err := checkMailUser(req.Modify.MailUser); err != nil {
			return nil, nil, nil, err
		}
		if d := req.Modify.Description; len(d) > api.MaxJobDescription || strings.ContainsRune(d, 0) {
			return nil, nil, nil, errorf(http.StatusBadRequest, "bad job description: at most %d characters, no NUL byte", api.MaxJobDescription)
		}
		for _, n := range strings.Fields(req.Modify.Queue) {
			if err := checkName("queue", n); err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
			}
		}
		m := modification(req.Modify)
		if r := m.Reservation; r != nil && *r != "" {
			if len(*r) > 128 {
				return nil, nil, nil, errorf(http.StatusBadRequest, "Bad reservation ID")
			}
			if err := c.CheckRsvUse(*r, j.User, now); err != nil {
				return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
			}
		}
		if err := c.Modify(j, m); err != nil {
			return conflict(err)
		}
		return ok(fmt.Sprintf("Parameters of job <%s> are being changed", j.Label()),
			Record{Type: KindModify, At: now, Job: j.ID, Mod: &m})
	case "aps":
		// An administrator's APS value: a job's owner may not set it.
		if !d.isQueueAdmin(id, j.Queue) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Job <%s>: only an administrator may change an APS value", j.Label())
		}
		kind, value, err := runtime.ParseAPS(req.APS)
		if err != nil {
			return nil, nil, nil, errorf(http.StatusBadRequest, "%v", err)
		}
		if err := c.SetAPS(j, kind, value); err != nil {
			return conflict(err)
		}
		return ok(fmt.Sprintf("Parameters of job <%s> are being changed", j.Label()),
			Record{Type: KindAPS, At: now, Job: j.ID, Text: req.APS})
	}
	return nil, nil, nil, errorf(http.StatusNotFound, "unknown action %q", truncate(action))
}

// signalJob sends a job the signal of bkill -s. A pending job takes only
// what LSF lets it take: KILL, TERM or INT kill it, STOP holds it and
// CONT releases a held one. A started job is sent the signal; STOP and
// TSTP suspend it (USUSP) and CONT resumes a job its user suspended, as
// bstop and bresume do.
func (d *Daemon) signalJob(id identity, j *runtime.Job, req api.ActionRequest) (any, []Record, func(), error) {
	sig := syscall.Signal(req.Signal)
	if req.Signal <= 0 || req.Signal > 64 {
		return nil, nil, nil, errorf(http.StatusBadRequest, "bad signal %d", req.Signal)
	}
	if j.State.Finished() {
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: Job has already finished", j.Label())
	}
	signaled := func(v any, recs []Record, act func(), err error) (any, []Record, func(), error) {
		if err != nil {
			return nil, nil, nil, err
		}
		return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being signaled", j.Label())}, recs, act, nil
	}
	var as string
	switch {
	case sig == syscall.SIGKILL || (j.State.Pending() && (sig == syscall.SIGTERM || sig == syscall.SIGINT)):
		as = "kill"
	case sig == syscall.SIGSTOP || (j.State.Started() && sig == syscall.SIGTSTP):
		as = "stop"
	case sig == syscall.SIGCONT && (j.State == runtime.PSusp || j.State == runtime.USusp):
		as = "resume"
	case j.State.Pending():
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: a pending job can only be killed, stopped or resumed", j.Label())
	case j.Remote != nil:
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: the job is forwarded to cluster %s", j.Label(), j.Remote.Cluster)
	default:
		return signaled(nil, nil, d.signalAct(j.ID, sig), nil)
	}
	return signaled(d.jobAction(id, j, as, api.ActionRequest{Reason: req.Reason}))
}

// modification turns bmod's options into a Modification: the fields set
// are the ones changed.
func modification(s *api.SubmitRequest) runtime.Modification {
	var m runtime.Modification
	if s.Queue != "" {
		m.Queue = &s.Queue
	}
	if s.Name != "" {
		m.Name = &s.Name
	}
	if s.ResReq != "" {
		m.ResReq = &s.ResReq
	}
	if s.Slots > 0 {
		m.Slots = &s.Slots
	}
	if s.RunLimit > 0 {
		m.RunLimit = &s.RunLimit
	}
	if s.Priority > 0 {
		m.Priority = &s.Priority
	}
	if s.Depend != "" {
		m.Depend = &s.Depend
	}
	if len(s.Hosts) > 0 {
		m.Hosts = &s.Hosts
	}
	none := ""
	switch {
	case s.NoProject:
		m.Project = &none
	case s.Project != "":
		m.Project = &s.Project
	}
	switch {
	case s.NoDescription:
		m.Description = &none
	case s.Description != "":
		m.Description = &s.Description
	}
	switch {
	case s.NoUserGroup:
		m.Group = &none
	case s.UserGroup != "":
		m.Group = &s.UserGroup
	}
	switch {
	case s.NoJobGroup:
		m.JobGroup = &none
	case s.JobGroup != "":
		m.JobGroup = &s.JobGroup
	}
	switch {
	case s.NoGPU:
		m.GPU = &none
	case s.GPU != "":
		m.GPU = &s.GPU
	}
	switch {
	case s.NoReservation:
		m.Reservation = &none
	case s.Reservation != "":
		m.Reservation = &s.Reservation
	}
	m.Mail = mailChange(s)
	return m
}

// mailChange turns bmod's mail options into a MailChange, nil when it
// has none: -N and -Ne replace each other, -Nn cancels both.
func mailChange(s *api.SubmitRequest) *runtime.MailChange {
	yes, no, none := true, false, ""
	var ch runtime.MailChange
	switch {
	case s.NotifyBegin:
		ch.Begin = &yes
	case s.NoNotifyBegin:
		ch.Begin = &no
	}
	switch {
	case s.NotifyEnd:
		ch.End, ch.Exit = &yes, &no
	case s.NotifyExit:
		ch.End, ch.Exit = &no, &yes
	case s.NoNotify:
		ch.End, ch.Exit = &no, &no
	}
	switch {
	case s.MailUser != "":
		ch.User = &s.MailUser
	case s.NoMailUser:
		ch.User = &none
	}
	if ch == (runtime.MailChange{}) {
		return nil
	}
	return &ch
}

func (d *Daemon) handleQueues(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.Queue{}
		for _, q := range d.cluster.Queues {
			out = append(out, d.queueInfo(q))
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// queueInfo describes a queue as bqueues does.
func (d *Daemon) queueInfo(q *runtime.Queue) api.Queue {
	st := "Open"
	if !q.Open {
		st = "Closed"
	}
	if q.Active {
		st += ":Active"
	} else {
		st += ":Inact"
	}
	out := api.Queue{Name: q.Name, Priority: q.Priority, Status: st, Open: q.Open, Active: q.Active,
		Max: q.QJobLimit, JLU: q.UJobLimit, JLP: q.PJobLimit, JLH: q.HJobLimit, AcceptInterval: q.AcceptInterval}
	d.queueDefinition(&out, q)
	for _, l := range d.cluster.ShareTree(q, d.now()) {
		level := api.ShareLevel{Path: l.Path, Accounts: make([]api.ShareAccount, 0, len(l.Accounts))}
		for _, a := range l.Accounts {
			level.Accounts = append(level.Accounts, api.ShareAccount{Name: a.Name, Group: a.Group, Shares: a.Shares,
				Priority: a.Priority, Started: a.Slots, CPUTime: a.CPUHours * 3600, RunTime: a.RunSeconds})
		}
		out.Shares = append(out.Shares, level)
	}
	for _, j := range d.cluster.Reserving() {
		if j.Queue == q {
			out.Rsv += j.Reservation.Slots()
		}
	}
	for _, j := range d.cluster.Jobs() {
		if j.Queue != q || j.State.Finished() {
			continue
		}
		out.NJobs += j.Slots
		switch {
		case j.State.Pending():
			out.Pend += j.Slots
		case j.State == runtime.Run:
			out.Run += j.Slots
		default:
			out.Susp += j.Slots
			if j.State == runtime.USusp {
				out.USusp += j.Slots
			} else {
				out.SSusp += j.Slots
			}
		}
	}
	if len(out.Shares) > 0 && !slices.Contains(out.Policies, "FAIRSHARE") {
		// A queue of a FAIRSHARE_QUEUES set shares its leader's tree.
		out.Policies = slices.Insert(out.Policies, 0, "FAIRSHARE")
	}
	return out
}

func (d *Daemon) handleQueueOp(w http.ResponseWriter, r *http.Request) {
	name, op := r.PathValue("name"), r.PathValue("op")
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		q := d.cluster.Queue(name)
		if q == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "%s: No such queue", truncate(name))
		}
		if !d.isQueueAdmin(id, q) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Queue <%s>: User permission denied", q.Name)
		}
		var msg string
		switch op {
		case "open":
			d.cluster.SetQueueOpen(q, true)
			msg = "Queue <%s> is opened"
		case "close":
			d.cluster.SetQueueOpen(q, false)
			msg = "Queue <%s> is closed"
		case "activate":
			d.cluster.SetQueueActive(q, true)
			msg = "Queue <%s> is activated"
		case "inactivate":
			d.cluster.SetQueueActive(q, false)
			msg = "Queue <%s> is inactivated"
		default:
			return nil, nil, nil, errorf(http.StatusNotFound, "unknown queue operation %q", truncate(op))
		}
		return api.ActionResponse{Message: fmt.Sprintf(msg, q.Name)},
			[]Record{{Type: KindQueue, At: d.now(), Queue: q.Name, Open: q.Open, Active: q.Active}}, nil, nil
	})
	reply(w, v, err)
}

func (d *Daemon) handleHosts(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.Host{}
		hosts := d.cluster.Hosts
		if req := r.URL.Query().Get("resreq"); req != "" {
			var err error
			if hosts, err = d.selectHosts(req); err != nil {
				return nil, nil, nil, err
			}
		}
		for _, h := range hosts {
			out = append(out, d.hostInfo(h))
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// handleResources lists the ResourceMap's static instances with what
// running jobs hold of them.
func (d *Daemon) handleResources(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.SharedResource{}
		for _, s := range d.cluster.Shared() {
			sr := api.SharedResource{Resource: s.Resource, Value: s.Value, Numeric: s.Numeric()}
			if sr.Numeric {
				sr.Reserved = s.Reserved()
			}
			for _, h := range s.Hosts {
				sr.Hosts = append(sr.Hosts, h.Name)
			}
			out = append(out, sr)
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// hostInfo describes a host as bhosts, lshosts and lsload do.
func (d *Daemon) hostInfo(h *runtime.Host) api.Host {
	st := h.State().String()
	if h.State() == runtime.HostOK && h.MaxSlots >= 0 && h.Used >= h.MaxSlots {
		st = "closed_Full"
	}
	out := api.Host{Name: h.Name, Status: st, JLU: h.JLU, Max: h.MaxSlots, Type: h.Facts.Type, Model: h.Facts.Model,
		Ncpus: h.Facts.Ncpus, Maxmem: h.Facts.Maxmem, Load: h.Facts.Load, Resources: h.Facts.Booleans,
		Cpuf: h.Facts.Cpuf, ExitRate: h.ExitRate}
	if h.ExitRate > 0 {
		out.ExitRateLoad = d.cluster.ExitRateLoad(h, d.now())
	}
	if h.ExitClosed {
		out.Comment = runtime.ExitRateComment
	}
	if h.JLU == 0 {
		out.JLU = -1
	}
	for name, v := range h.Facts.Reserved {
		if v > 0 {
			if out.Reserved == nil {
				out.Reserved = map[string]float64{}
			}
			out.Reserved[name] = v
		}
	}
	for name, th := range h.Thresholds {
		if out.Thresholds == nil {
			out.Thresholds = map[string]api.Threshold{}
		}
		out.Thresholds[name] = api.Threshold{Sched: th.Sched, Stop: th.Stop}
	}
	out.GPUsFound = h.GPUsFound()
	for _, g := range h.GPUStates() {
		hg := api.HostGPU{ID: g.Index, Model: g.Model, Mem: g.Mem, NJobs: g.Jobs, Run: g.Running,
			Susp: g.Suspended, Exclusive: g.Exclusive, Reserved: g.Reserved, RunJobs: g.RunJobs, SuspJobs: g.SuspJobs}
		if g.MemUsedKnown {
			used := g.MemUsed
			hg.MemUsed = &used
		}
		out.GPUs = append(out.GPUs, hg)
	}
	if len(out.GPUs) > 0 {
		// The pending jobs that reserve each GPU.
		for _, j := range d.cluster.Reserving() {
			for _, a := range j.Reservation.Allocs {
				if a.Host != h {
					continue
				}
				for _, idx := range a.GPUs {
					for i := range out.GPUs {
						if out.GPUs[i].ID == idx {
							out.GPUs[i].Rsv++
						}
					}
				}
			}
		}
	}
	for _, j := range h.Jobs() {
		n := j.SlotsOn(h)
		out.NJobs += n
		switch j.State {
		case runtime.Run:
			out.Run += n
		case runtime.SSusp:
			out.SSusp += n
		case runtime.USusp:
			out.USusp += n
		}
	}
	rsv, start := h.Reserved()
	out.Rsv = rsv
	if rsv > 0 && start < runtime.Never {
		out.RsvStart = int64(start)
	}
	return out
}

func (d *Daemon) handleHostOp(w http.ResponseWriter, r *http.Request) {
	name, op := r.PathValue("name"), r.PathValue("op")
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		h := d.cluster.Host(name)
		if h == nil {
			return nil, nil, nil, errorf(http.StatusNotFound, "%s: No such host", truncate(name))
		}
		if !d.isAdmin(id) {
			return nil, nil, nil, errorf(http.StatusForbidden, "Host <%s>: User permission denied", h.Name)
		}
		var msg string
		switch op {
		case "open":
			d.cluster.SetHostStatus(h, runtime.HostOK)
			msg = "Opening host <%s> ...... done"
		case "close":
			d.cluster.SetHostStatus(h, runtime.HostClosedAdm)
			msg = "Closing host <%s> ...... done"
		default:
			return nil, nil, nil, errorf(http.StatusNotFound, "unknown host operation %q", truncate(op))
		}
		return api.ActionResponse{Message: fmt.Sprintf(msg, h.Name)},
			[]Record{{Type: KindHost, At: d.now(), Host: h.Name, Text: h.Status.String()}}, nil, nil
	})
	reply(w, v, err)
}

func (d *Daemon) handleStatus(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) { return d.status(), nil, nil, nil })
	reply(w, v, err)
}

// handleConf answers lsadmin showconf: the settings of lsf.conf as they
// are written there.
func (d *Daemon) handleConf(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := map[string]string{}
		for name, st := range d.cfg.Policy.Conf {
			out[name] = st.Raw
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// handlePerf answers badmin perfmon view. It does not wait for the
// owning goroutine: the counts are the server's own.
func (d *Daemon) handlePerf(w http.ResponseWriter, r *http.Request) {
	reply(w, d.perf.snapshot(), nil)
}

// handleParams answers bparams -a: the lsb.params the scheduler applies,
// with the documented defaults of the keys it reads.
func (d *Daemon) handleParams(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return d.params(), nil, nil, nil
	})
	reply(w, v, err)
}

// params returns lsb.params as bparams -a shows it: the keys set, and
// the values the scheduler uses of the keys it reads.
func (d *Daemon) params() map[string]string {
	out := map[string]string{}
	for name, st := range d.cfg.Policy.Params {
		out[name] = st.Raw
	}
	yn := func(b bool) string {
		if b {
			return "Y"
		}
		return "N"
	}
	c := d.cluster
	out["RESOURCE_RESERVE_PER_TASK"] = yn(c.ReservePerTask)
	out["MBD_SLEEP_TIME"] = strconv.FormatFloat(c.SleepTime, 'g', -1, 64)
	out["SBD_SLEEP_TIME"] = strconv.FormatFloat(c.SbdSleep, 'g', -1, 64)
	if _, ok := out["CLEAN_PERIOD"]; !ok {
		out["CLEAN_PERIOD"] = "3600"
	}
	return out
}

// handleParamsLong lists every parameter of lsb.params with its value
// and what it is for (bparams -l).
func (d *Daemon) handleParamsLong(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		return paramList(d.params(), d.cfg.Policy.Params), nil, nil, nil
	})
	reply(w, v, err)
}

// thresholdOf returns a pending job threshold as busers shows it: nil
// for none.
func thresholdOf(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

// checkPendThresholds refuses a submission that would take its user or
// one of the user's groups past a pending job threshold (MAX_PEND_JOBS,
// MAX_PEND_SLOTS): nothing is submitted, and bsub is told to try again
// after SUB_TRY_INTERVAL.
func (d *Daemon) checkPendThresholds(sub runtime.Submission, spec api.ArraySpec) error {
	jobs := 1
	if spec.IsArray() {
		jobs = len(spec.Indices())
	}
	slots := max(sub.Slots, 1)
	err := d.cluster.CheckPendThresholds(sub.User, jobs, jobs*slots)
	if err == nil {
		return nil
	}
	retry := time.Minute
	if p := d.cluster.Policy; p != nil {
		// SUB_TRY_INTERVAL = 0 tries again at once: a second at least
		// keeps bsub from pressing the daemon.
		retry = max(p.Parameters.SubTryInterval, time.Second)
	}
	return &statusError{code: http.StatusTooManyRequests, msg: err.Error(), retry: retry}
}

// handleUsers answers busers: the job slots of each user named, by
// state, and the limits lsb.users sets on them.
func (d *Daemon) handleUsers(w http.ResponseWriter, r *http.Request) {
	names := r.URL.Query()["user"]
	id := who(r)
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		c := d.cluster
		counts := map[string]*api.User{}
		all := false
		for _, n := range names {
			if n == "all" {
				all = true
			}
		}
		if len(names) == 0 {
			names = []string{id.User}
		}
		row := func(name string) *api.User {
			u := counts[name]
			if u == nil {
				u = &api.User{Name: name}
				u.Max, u.JLP = c.UserJobLimits(name)
				if slots, jobs := c.PendThresholds(name); slots >= 0 || jobs >= 0 {
					u.MPend, u.MPJobs = thresholdOf(slots), thresholdOf(jobs)
				}
				counts[name] = u
			}
			return u
		}
		// A user group named counts the jobs of all its members.
		groups := map[string]func(string) bool{}
		if !all {
			for _, n := range names {
				if m := c.UserGroupMembers(n); m != nil {
					groups[n] = m
				}
			}
		}
		rowsOf := func(user string) []*api.User {
			var out []*api.User
			if all || slices.Contains(names, user) {
				out = append(out, row(user))
			}
			for g, member := range groups {
				if g != user && member(user) {
					out = append(out, row(g))
				}
			}
			return out
		}
		for _, j := range c.Jobs() {
			if j.State.Finished() {
				continue
			}
			for _, u := range rowsOf(j.User) {
				u.NJobs += j.Slots
				switch j.State {
				case runtime.Pend, runtime.PSusp:
					u.Pend += j.Slots
					u.PJobs++
				case runtime.Run:
					u.Run += j.Slots
				case runtime.SSusp:
					u.SSusp += j.Slots
				case runtime.USusp:
					u.USusp += j.Slots
				}
			}
		}
		for _, j := range c.Reserving() {
			for _, u := range rowsOf(j.User) {
				u.Rsv += j.Reservation.Slots()
			}
		}
		if all {
			for _, n := range c.LimitedUsers() {
				row(n)
			}
		} else {
			for _, n := range names {
				row(n)
			}
		}
		out := []api.User{}
		for _, u := range counts {
			out = append(out, *u)
		}
		slices.SortFunc(out, func(a, b api.User) int { return strings.Compare(a.Name, b.Name) })
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// handleLimits answers blimits: the Limit sections of lsb.resources the
// query picks (name, user, queue, host, project, app), with what running
// jobs use of each.
func (d *Daemon) handleLimits(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := runtime.LimitFilter{Names: q["name"], Users: q["user"], Queues: q["queue"], Hosts: q["host"], Projects: q["project"], Apps: q["app"]}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.Limit{}
		for _, l := range d.cluster.Limits(f) {
			al := api.Limit{Name: l.Name, Enforced: l.Enforced, Settings: []api.LimitSetting{},
				Slots: limitOf(l.Slots), Jobs: limitOf(l.Jobs), Mem: limitOf(l.Mem)}
			for _, s := range l.Settings {
				al.Settings = append(al.Settings, api.LimitSetting{Key: s.Key, Value: s.Value})
			}
			for _, u := range l.Use {
				al.Use = append(al.Use, api.LimitUse{User: u.User, Queue: u.Queue, Host: u.Host, Project: u.Project, App: u.App,
					Slots: u.Slots, Jobs: u.Jobs, Mem: u.Mem})
			}
			out = append(out, al)
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// limitOf returns a limit of a Limit section as the API gives it: nil
// for none (negative).
func limitOf(x float64) *float64 {
	if x < 0 {
		return nil
	}
	return &x
}

// handleGroups lists the user groups (bugroup) or the host groups
// (bmgroup) of the configuration the daemon runs.
func (d *Daemon) handleGroups(w http.ResponseWriter, r *http.Request) {
	kind := r.PathValue("kind")
	if kind != "user" && kind != "host" && kind != "cu" {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown group kind %q (want user, host or cu)", truncate(kind)))
		return
	}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		switch kind {
		case "host":
			return hostGroups(d.cfg.Policy), nil, nil, nil
		case "cu":
			return computeUnits(d.cfg.Policy), nil, nil, nil
		}
		return userGroups(d.cfg.Policy), nil, nil, nil
	})
	reply(w, v, err)
}

// userGroups describes the user groups of lsb.users, in their order.
func userGroups(p *compile.Policy) []api.Group {
	byName := map[string]*compile.UserGroup{}
	for i := range p.UserGroups {
		byName[p.UserGroups[i].Name] = p.UserGroups[i]
	}
	// expand adds the users of group g, its member groups expanded;
	// seen guards against a group that holds itself.
	var expand func(g *compile.UserGroup, seen map[string]bool, into map[string]bool)
	expand = func(g *compile.UserGroup, seen map[string]bool, into map[string]bool) {
		if seen[g.Name] {
			return
		}
		seen[g.Name] = true
		for _, m := range g.Members {
			if m.Exclude {
				continue
			}
			if sub := byName[m.Name]; sub != nil {
				expand(sub, seen, into)
				continue
			}
			into[m.Name] = true
		}
	}
	out := []api.Group{}
	for i := range p.UserGroups {
		g := p.UserGroups[i]
		ag := api.Group{Name: g.Name, Members: []string{}}
		for _, m := range g.Members {
			name := m.Name
			if byName[name] != nil {
				name += "/"
			}
			if m.Exclude {
				name = "~" + name
			}
			ag.Members = append(ag.Members, name)
		}
		users := map[string]bool{}
		expand(g, map[string]bool{}, users)
		ag.Expanded = sortedKeys(users)
		var shares []string
		for _, s := range g.Shares {
			shares = append(shares, fmt.Sprintf("[%s, %s]", s.Name, strconv.FormatFloat(s.Shares, 'f', -1, 64)))
		}
		ag.Shares = strings.Join(shares, " ")
		out = append(out, ag)
	}
	return out
}

// hostGroups describes the host groups of lsb.hosts (compute units
// left out), in their order.
func hostGroups(p *compile.Policy) []api.Group {
	isGroup := map[string]bool{}
	for _, g := range p.HostGroups {
		isGroup[g.Name] = true
	}
	out := []api.Group{}
	for _, g := range p.HostGroups {
		if g.Type == "" {
			out = append(out, describeHostGroup(g, isGroup))
		}
	}
	return out
}

// computeUnits describes the compute units of lsb.hosts, in their order:
// each with its type, its members as written (a member compute unit or
// host group followed by "/", an excluded one after "~") and its hosts.
func computeUnits(p *compile.Policy) []api.Group {
	isGroup := map[string]bool{}
	for _, g := range p.HostGroups {
		isGroup[g.Name] = true
	}
	for _, cu := range p.ComputeUnits {
		isGroup[cu.Name] = true
	}
	out := []api.Group{}
	for _, cu := range p.ComputeUnits {
		out = append(out, describeHostGroup(cu, isGroup))
	}
	return out
}

// describeHostGroup describes a host group or compute unit: its members
// as written, those isGroup names followed by "/", excluded ones after
// "~", and its hosts.
func describeHostGroup(g *compile.HostGroup, isGroup map[string]bool) api.Group {
	ag := api.Group{Name: g.Name, Type: g.Type, Members: []string{}, Expanded: slices.Clone(g.Hosts)}
	if ag.Expanded == nil {
		ag.Expanded = []string{}
	}
	for _, m := range g.Members {
		name := m.Name
		if isGroup[name] {
			name += "/"
		}
		if m.Exclude {
			name = "~" + name
		}
		ag.Members = append(ag.Members, name)
	}
	return ag
}

// paramList describes every key the schema knows for lsb.params, in its
// order: its value in values, else its default; Set when the
// configuration sets it.
func paramList(values map[string]string, set compile.Settings) []api.Param {
	out := []api.Param{}
	sec := schema.Lookup(lang.KindLSBParams).Section("Parameters")
	for _, k := range sec.Keys {
		p := api.Param{Name: k.Name, Unit: k.Unit, Doc: k.Doc}
		_, p.Set = set[k.Name]
		if v, ok := values[k.Name]; ok {
			p.Value = v
		} else {
			p.Value = k.Default
		}
		out = append(out, p)
	}
	return out
}

// handleSLA lists the service classes and their state (bsla).
func (d *Daemon) handleSLA(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		now := d.now()
		out := []api.ServiceClass{}
		for _, s := range d.cluster.SLAs {
			out = append(out, serviceClassOf(s, now))
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// serviceClassOf returns the API's view of a service class.
func serviceClassOf(s *runtime.SLA, now runtime.Time) api.ServiceClass {
	pend, run, ssusp, ususp := s.Counts()
	out := api.ServiceClass{Name: s.Name, Description: s.Def.Description, Priority: s.Priority, Guarantee: s.Def.Guarantee,
		Optimum: s.Optimum, NJobs: s.NJobs, Pend: pend, Run: run, SSusp: ssusp, USusp: ususp, Finish: s.Finished,
		FinishedLastHour: s.FinishedLastHour(now)}
	for _, u := range s.Def.UserGroup {
		name := u.Name
		if u.Exclude {
			name = "~" + name
		}
		out.UserGroup = append(out.UserGroup, name)
	}
	if st := s.Def.Settings["CONTROL_ACTION"]; st != nil {
		out.ControlAction = st.Raw
	}
	for _, g := range s.Goals {
		cg := api.ClassGoal{Kind: string(g.Kind), Target: g.Target, Status: g.Status.String(), Optimum: g.Optimum,
			Finish: float64(g.Finish), Violations: g.Violations}
		for _, w := range g.Windows {
			cg.Windows = append(cg.Windows, w.String())
		}
		out.Goals = append(out.Goals, cg)
	}
	return out
}

// jobReservation returns what a pending job reserves, as the API gives
// it.
func jobReservation(r *runtime.Reservation) *api.JobReservation {
	out := &api.JobReservation{Since: int64(r.Since)}
	if r.Start < runtime.Never {
		out.Start = int64(r.Start)
	}
	for _, a := range r.Allocs {
		if a.Slots > 0 {
			out.Hosts = append(out.Hosts, api.HostSlots{Host: a.Host.Name, Slots: a.Slots})
		}
	}
	for _, am := range r.Amounts {
		out.Amounts = append(out.Amounts, api.ReservedAmount{Host: am.Host.Name, Name: am.Name, Value: am.Value})
	}
	for _, a := range r.Allocs {
		if len(a.GPUs) > 0 {
			// Reserved GPUs show as LSF names the GPUs a host has.
			out.Amounts = append(out.Amounts, api.ReservedAmount{Host: a.Host.Name, Name: "ngpus_physical", Value: float64(len(a.GPUs))})
		}
	}
	return out
}
