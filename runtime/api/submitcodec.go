package api

import (
	"bytes"
	"encoding/base64"
	"math"
	"slices"
	"strconv"
)

// appendJSON writes the request as encoding/json writes it, byte for
// byte, without reflection: bsub sends one request and exits, and
// encoding/json would first build its encoder for the request's sixty
// fields, the most of what bsub does besides starting. ok is false for a
// request encoding/json refuses (a number that is not finite): the
// caller then lets encoding/json say why. TestSubmitRequestJSON and
// FuzzSubmitRequestJSON check it against encoding/json, every field set.
func (r *SubmitRequest) appendJSON(b []byte) (_ []byte, ok bool) {
	b = append(b, `{"command":`...)
	b = appendJSONString(b, r.Command)
	b = appendStringField(b, "name", r.Name, true)
	b = appendStringField(b, "queue", r.Queue, true)
	b = appendStringField(b, "app", r.App, true)
	b = appendStringField(b, "resReq", r.ResReq, true)
	b = appendIntField(b, "slots", int64(r.Slots), true)
	b = appendIntField(b, "priority", int64(r.Priority), true)
	b = appendIntField(b, "maxSlots", int64(r.MaxSlots), true)
	b = appendBoolField(b, "autoResize", r.AutoResize, true)
	b = appendStringField(b, "resizeNotify", r.ResizeNotify, true)
	if b, ok = appendFloatField(b, "runLimit", r.RunLimit, true); !ok {
		return nil, false
	}
	if b, ok = appendFloatField(b, "memLimit", r.MemLimit, true); !ok {
		return nil, false
	}
	b = appendBoolField(b, "memHard", r.MemHard, true)
	if b, ok = appendFloatField(b, "estimate", r.Estimate, true); !ok {
		return nil, false
	}
	b = appendBoolField(b, "hold", r.Hold, true)
	b = appendStringField(b, "depend", r.Depend, true)
	b = appendStringsField(b, "hosts", r.Hosts, true)
	b = appendBoolField(b, "rerunnable", r.Rerunnable, true)
	b = appendBoolField(b, "exclusive", r.Exclusive, true)
	b = appendStringField(b, "gpu", r.GPU, true)
	b = appendStringField(b, "sla", r.Sla, true)
	b = appendStringField(b, "project", r.Project, true)
	b = appendStringField(b, "userGroup", r.UserGroup, true)
	b = appendStringField(b, "description", r.Description, true)
	b = appendBoolField(b, "noDescription", r.NoDescription, true)
	b = appendStringField(b, "requeueExitValues", r.RequeueExitValues, true)
	b = appendStringField(b, "jobGroup", r.JobGroup, true)
	b = appendBoolField(b, "noJobGroup", r.NoJobGroup, true)
	b = appendStringField(b, "reservation", r.Reservation, true)
	b = appendBoolField(b, "noReservation", r.NoReservation, true)
	b = appendBoolField(b, "noProject", r.NoProject, true)
	b = appendBoolField(b, "noUserGroup", r.NoUserGroup, true)
	b = appendBoolField(b, "noGPU", r.NoGPU, true)
	b = appendStringField(b, "cwd", r.Cwd, true)
	b = appendBoolField(b, "cwdDefault", r.CwdDefault, true)
	b = appendStringsField(b, "env", r.Env, true)
	b = appendIntField(b, "umask", int64(r.Umask), false)
	b = appendStringField(b, "stdout", r.Stdout, true)
	b = appendStringField(b, "stderr", r.Stderr, true)
	b = appendBoolField(b, "outOverwrite", r.OutOverwrite, true)
	b = appendBoolField(b, "errOverwrite", r.ErrOverwrite, true)
	b = appendStringField(b, "fromHost", r.FromHost, true)
	b = appendBoolField(b, "notifyBegin", r.NotifyBegin, true)
	b = appendBoolField(b, "notifyEnd", r.NotifyEnd, true)
	b = appendBoolField(b, "notifyExit", r.NotifyExit, true)
	b = appendStringField(b, "mailUser", r.MailUser, true)
	b = appendBoolField(b, "noNotifyBegin", r.NoNotifyBegin, true)
	b = appendBoolField(b, "noNotify", r.NoNotify, true)
	b = appendBoolField(b, "noMailUser", r.NoMailUser, true)
	b = appendStringField(b, "preExec", r.PreExec, true)
	b = appendStringField(b, "postExec", r.PostExec, true)
	b = appendIntField(b, "beginTime", r.BeginTime, true)
	b = appendIntField(b, "termTime", r.TermTime, true)
	if b, ok = appendFloatField(b, "cpuLimit", r.CPULimit, true); !ok {
		return nil, false
	}
	b = appendStringField(b, "cpuSpec", r.CPUSpec, true)
	if len(r.ProcLimits) > 0 {
		b = appendProcLimits(appendKey(b, "procLimits"), r.ProcLimits)
	}
	b = appendStringField(b, "input", r.Input, true)
	b = appendBoolField(b, "inputSpooled", r.InputSpooled, true)
	if len(r.InputData) > 0 {
		b = appendKey(b, "inputData")
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, r.InputData)
		b = append(b, '"')
	}
	b = appendStringField(b, "loginShell", r.LoginShell, true)
	b = appendStringField(b, "outDir", r.OutDir, true)
	b = appendStringField(b, "token", r.Token, true)
	if r.Interactive != nil {
		b = appendInteractive(appendKey(b, "interactive"), r.Interactive)
	}
	return append(b, '}'), true
}

// appendKey writes a field's name after the fields before it.
func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendStringField(b []byte, key, v string, omit bool) []byte {
	if omit && v == "" {
		return b
	}
	return appendJSONString(appendKey(b, key), v)
}

func appendIntField(b []byte, key string, v int64, omit bool) []byte {
	if omit && v == 0 {
		return b
	}
	return strconv.AppendInt(appendKey(b, key), v, 10)
}

func appendBoolField(b []byte, key string, v, omit bool) []byte {
	if omit && !v {
		return b
	}
	return strconv.AppendBool(appendKey(b, key), v)
}

func appendStringsField(b []byte, key string, v []string, omit bool) []byte {
	if omit && len(v) == 0 {
		return b
	}
	return appendJSONStrings(appendKey(b, key), v)
}

// appendJSONStrings writes a list of strings; nil is null.
func appendJSONStrings(b []byte, v []string) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

func appendFloatField(b []byte, key string, v float64, omit bool) ([]byte, bool) {
	if omit && v == 0 {
		return b, true
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, false
	}
	return appendJSONFloat(appendKey(b, key), v), true
}

// appendProcLimits writes the limits by their names in order, as
// encoding/json writes a map.
func appendProcLimits(b []byte, m map[string]int64) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, m[k], 10)
	}
	return append(b, '}')
}

// appendInteractive writes an interactive job's connection.
func appendInteractive(b []byte, in *Interactive) []byte {
	b = append(b, `{"mode":`...)
	b = appendJSONString(b, in.Mode)
	b = append(b, `,"addrs":`...)
	b = appendJSONStrings(b, in.Addrs)
	b = append(b, `,"token":`...)
	b = appendJSONString(b, in.Token)
	if in.Tty {
		b = append(b, `,"tty":true`...)
	}
	return append(b, '}')
}

// readSubmitResponse reads the daemon's answer to a submission when it
// has its usual form, {"id":N,"queue":"Q"} with ,"default":true before
// the brace when set, the queue's name printable ASCII without escapes:
// what encoding/json would read from it, without building its decoder
// for the type. ok is false for any other answer, which encoding/json
// then reads.
func readSubmitResponse(data []byte, out *SubmitResponse) (ok bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimRight(data, " \t\r\n"), []byte(`{"id":`))
	if !ok {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 1 && rest[0] == '0' {
		return false
	}
	id, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	if err != nil {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest[n:], []byte(`,"queue":"`)); !ok {
		return false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return false
	}
	for _, c := range rest[:end] {
		if c < ' ' || c > '~' || c == '\\' {
			return false
		}
	}
	queue, rest := string(rest[:end]), rest[end+1:]
	def := false
	switch string(rest) {
	case `}`:
	case `,"default":true}`:
		def = true
	default:
		return false
	}
	*out = SubmitResponse{ID: id, Queue: queue, Default: def}
	return true
}
