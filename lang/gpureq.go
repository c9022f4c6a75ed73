package lang

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/units"
)

// A GPUReq is a GPU requirement as bsub -gpu, GPU_REQ (lsb.queues,
// lsb.applications) and LSB_GPU_REQ (lsf.conf) write it:
//
//	num=2:mode=exclusive_process:mps=no:j_exclusive=yes:gmodel=TeslaV100:gmem=8G
//
// A field left empty (0 for the numbers) was not given: merging fills it
// from a requirement of a wider level (see MergeGPUReqs), and Effective
// fills what is still empty with LSF's defaults.
type GPUReq struct {
	// Num is the number of physical GPUs per host (per task with
	// PerTask: num=N/task).
	Num     int  `json:"num,omitempty"`
	PerTask bool `json:"per_task,omitempty"`
	// Mode is "shared" or "exclusive_process".
	Mode string `json:"mode,omitempty"`
	// MPS is "yes", "no", "per_socket" or "per_gpu", with ",shared" and
	// ",nocvd" as written.
	MPS string `json:"mps,omitempty"`
	// JExclusive, Aff, Block, Gpack and GLink are "yes" or "no".
	JExclusive string `json:"j_exclusive,omitempty"`
	Aff        string `json:"aff,omitempty"`
	Block      string `json:"block,omitempty"`
	Gpack      string `json:"gpack,omitempty"`
	GLink      string `json:"glink,omitempty"`
	// GVendor is "nvidia" or "amd".
	GVendor string `json:"gvendor,omitempty"`
	// GModel is the GPU model asked for: a model name, or its prefix;
	// GModelMem the memory size that follows it ("TeslaV100-16G", in MB).
	GModel    string  `json:"gmodel,omitempty"`
	GModelMem float64 `json:"gmodel_mem,omitempty"`
	// GMem is the GPU memory the job needs on each of its GPUs, in MB.
	GMem float64 `json:"gmem,omitempty"`
	// GTile is the number of GPUs per socket, or "!" for as many as fit.
	GTile string `json:"gtile,omitempty"`
	// MIG is the Multi-Instance GPU size (GI_size[/CI_size]).
	MIG string `json:"mig,omitempty"`
}

// The GPU modes.
const (
	GPUShared           = "shared"
	GPUExclusiveProcess = "exclusive_process"
)

// A GPUReqError is a GPU requirement that does not parse: the keyword or
// value at fault and why.
type GPUReqError struct {
	// Text is the whole requirement; Offset the byte offset of the
	// fault in it.
	Text   string
	Offset int
	Msg    string
}

func (e *GPUReqError) Error() string {
	return fmt.Sprintf("bad GPU requirement %q at column %d: %s", e.Text, e.Offset+1, e.Msg)
}

// gpuKeywords lists the keywords of a GPU requirement in the order
// String writes them.
var gpuKeywords = []string{"num", "mode", "mps", "j_exclusive", "aff", "block", "gpack", "glink", "gvendor",
	"gmodel", "gtile", "gmem", "mig"}

// ParseGPUReq reads a GPU requirement. Options are separated by ":" and
// each is keyword=value; blanks around them are allowed. An unknown
// keyword, a keyword given twice, a missing or bad value is an error
// naming it and its column. The empty string gives the zero GPUReq.
func ParseGPUReq(s string) (GPUReq, error) {
	var g GPUReq
	seen := map[string]bool{}
	pos := 0
	for _, part := range strings.Split(s, ":") {
		start := pos
		pos += len(part) + 1
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		item := strings.TrimSpace(part)
		at := start + lead
		if item == "" {
			if strings.TrimSpace(s) == "" {
				return GPUReq{}, nil
			}
			return GPUReq{}, &GPUReqError{s, at, "empty option (two \":\" in a row, or one at an end)"}
		}
		key, val, ok := strings.Cut(item, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		fail := func(msg string, args ...any) error {
			return &GPUReqError{s, at, fmt.Sprintf(msg, args...)}
		}
		known := false
		for _, k := range gpuKeywords {
			known = known || k == key
		}
		switch {
		case !known:
			return GPUReq{}, fail("unknown keyword %q (want one of %s)", key, strings.Join(gpuKeywords, ", "))
		case !ok || val == "":
			return GPUReq{}, fail("keyword %q needs a value (%s=...)", key, key)
		case seen[key]:
			return GPUReq{}, fail("keyword %q is given twice", key)
		}
		seen[key] = true
		if err := g.set(key, val); err != nil {
			return GPUReq{}, fail("%s=%s: %v", key, val, err)
		}
	}
	return g, nil
}

// set reads the value of one keyword.
func (g *GPUReq) set(key, val string) error {
	yesNo := func(dst *string) error {
		v := strings.ToLower(val)
		if v != "yes" && v != "no" {
			return fmt.Errorf("want yes or no")
		}
		*dst = v
		return nil
	}
	switch key {
	case "num":
		n, per, hasPer := strings.Cut(val, "/")
		v, err := strconv.Atoi(n)
		if err != nil || v <= 0 || v > 1<<16 {
			return fmt.Errorf("want a positive whole number of GPUs")
		}
		switch {
		case !hasPer || per == "host":
		case per == "task":
			g.PerTask = true
		default:
			return fmt.Errorf("want num_gpus, num_gpus/task or num_gpus/host")
		}
		g.Num = v
	case "mode":
		if val != GPUShared && val != GPUExclusiveProcess {
			return fmt.Errorf("want shared or exclusive_process")
		}
		g.Mode = val
	case "mps":
		base, opts, _ := strings.Cut(val, ",")
		switch base {
		case "no":
			if opts != "" {
				return fmt.Errorf("mps=no takes no options")
			}
		case "yes", "per_socket", "per_gpu":
			seen := map[string]bool{}
			for _, o := range strings.Split(opts, ",") {
				if opts == "" {
					break
				}
				if o != "shared" && o != "share" && o != "nocvd" || seen[o] {
					return fmt.Errorf("want yes, per_socket or per_gpu, each optionally with ,shared and ,nocvd; or no")
				}
				seen[o] = true
			}
		default:
			return fmt.Errorf("want yes, no, per_socket or per_gpu")
		}
		g.MPS = val
	case "j_exclusive":
		return yesNo(&g.JExclusive)
	case "aff":
		return yesNo(&g.Aff)
	case "block":
		return yesNo(&g.Block)
	case "gpack":
		return yesNo(&g.Gpack)
	case "glink":
		if val != "yes" {
			return fmt.Errorf("want yes")
		}
		g.GLink = val
	case "gvendor":
		if v := strings.ToLower(val); v == "nvidia" || v == "amd" {
			g.GVendor = v
			return nil
		}
		return fmt.Errorf("want nvidia or amd")
	case "gmodel":
		name := val
		if i := strings.LastIndexAny(val, "-#"); i > 0 {
			if mb, err := units.ParseMemory(val[i+1:], units.MB); err == nil && mb > 0 {
				name, g.GModelMem = val[:i], mb
			}
		}
		for _, r := range name {
			if r <= ' ' || r == '"' || r == '\'' || r == '=' || r == 0x7f {
				return fmt.Errorf("a model name has no blank, quote or \"=\"")
			}
		}
		g.GModel = name
	case "gmem":
		mb, err := units.ParseMemory(val, units.MB)
		if err != nil || !(mb > 0) {
			return fmt.Errorf("want an amount of memory, such as 4096, 8G or 512M")
		}
		g.GMem = mb
	case "gtile":
		if val != "!" && val != "'!'" {
			if n, err := strconv.Atoi(val); err != nil || n <= 0 {
				return fmt.Errorf("want a positive whole number or '!'")
			}
		}
		g.GTile = strings.Trim(val, "'")
	case "mig":
		gi, ci, hasCI := strings.Cut(val, "/")
		n, err := strconv.Atoi(gi)
		ok := err == nil && n >= 1 && n <= 7
		if hasCI {
			m, err := strconv.Atoi(ci)
			ok = ok && err == nil && m >= 1 && m <= n
		}
		if !ok {
			return fmt.Errorf("want GI_size[/CI_size], sizes from 1 to 7")
		}
		g.MIG = val
	}
	return nil
}

// IsZero reports whether no option is set.
func (g GPUReq) IsZero() bool { return g == GPUReq{} }

// String writes the requirement in LSF's form, the options in a fixed
// order; ParseGPUReq reads it back to the same value.
func (g GPUReq) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if g.Num > 0 {
		n := strconv.Itoa(g.Num)
		if g.PerTask {
			n += "/task"
		}
		add("num", n)
	}
	add("mode", g.Mode)
	add("mps", g.MPS)
	add("j_exclusive", g.JExclusive)
	add("aff", g.Aff)
	add("block", g.Block)
	add("gpack", g.Gpack)
	add("glink", g.GLink)
	add("gvendor", g.GVendor)
	if g.GModel != "" {
		m := g.GModel
		if g.GModelMem > 0 {
			m += "-" + units.FormatMemory(g.GModelMem)
		}
		add("gmodel", m)
	}
	add("gtile", g.GTile)
	if g.GMem > 0 {
		add("gmem", units.FormatMemory(g.GMem))
	}
	add("mig", g.MIG)
	return strings.Join(parts, ":")
}

// MergeGPUReqs merges GPU requirements given from the narrowest level to
// the widest (job, application profile, queue, cluster): each option is
// taken from the first requirement that sets it, as LSF merges them.
func MergeGPUReqs(levels ...GPUReq) GPUReq {
	var out GPUReq
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		if l.Num > 0 {
			out.Num, out.PerTask = l.Num, l.PerTask
		}
		pick := func(dst *string, v string) {
			if v != "" {
				*dst = v
			}
		}
		pick(&out.Mode, l.Mode)
		pick(&out.MPS, l.MPS)
		pick(&out.JExclusive, l.JExclusive)
		pick(&out.Aff, l.Aff)
		pick(&out.Block, l.Block)
		pick(&out.Gpack, l.Gpack)
		pick(&out.GLink, l.GLink)
		pick(&out.GVendor, l.GVendor)
		if l.GModel != "" {
			out.GModel, out.GModelMem = l.GModel, l.GModelMem
		}
		pick(&out.GTile, l.GTile)
		if l.GMem > 0 {
			out.GMem = l.GMem
		}
		pick(&out.MIG, l.MIG)
	}
	return out
}

// Effective fills the options a merged requirement leaves empty with
// LSF's defaults: num=1:mode=shared:mps=no:j_exclusive=no, where
// exclusive_process mode makes j_exclusive yes.
func (g GPUReq) Effective() GPUReq {
	if g.Num == 0 {
		g.Num = 1
	}
	if g.Mode == "" {
		g.Mode = GPUShared
	}
	if g.MPS == "" {
		g.MPS = "no"
	}
	if g.JExclusive == "" {
		g.JExclusive = "no"
		if g.Mode == GPUExclusiveProcess {
			g.JExclusive = "yes"
		}
	}
	return g
}
