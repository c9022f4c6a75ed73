package lang

import (
	"strings"
	"testing"
)

func TestParseGPUReq(t *testing.T) {
	tests := []struct {
		in   string
		want GPUReq
	}{
		{"", GPUReq{}},
		{"num=2", GPUReq{Num: 2}},
		{"num=2/task", GPUReq{Num: 2, PerTask: true}},
		{"num=1/host:mode=exclusive_process", GPUReq{Num: 1, Mode: GPUExclusiveProcess}},
		{" num=4 : mode=shared : j_exclusive=yes ", GPUReq{Num: 4, Mode: GPUShared, JExclusive: "yes"}},
		{"mps=yes,shared,nocvd", GPUReq{MPS: "yes,shared,nocvd"}},
		{"mps=per_gpu", GPUReq{MPS: "per_gpu"}},
		{"gmodel=TeslaV100", GPUReq{GModel: "TeslaV100"}},
		{"gmodel=TeslaV100-16G", GPUReq{GModel: "TeslaV100", GModelMem: 16384}},
		{"gmodel=A100-SXM4", GPUReq{GModel: "A100-SXM4"}},
		{"gmem=8G", GPUReq{GMem: 8192}},
		{"gmem=512", GPUReq{GMem: 512}},
		{"gtile=2:aff=no:gvendor=NVIDIA", GPUReq{GTile: "2", Aff: "no", GVendor: "nvidia"}},
		{"gtile='!'", GPUReq{GTile: "!"}},
		{"mig=3/2:glink=yes:block=no:gpack=yes", GPUReq{MIG: "3/2", GLink: "yes", Block: "no", Gpack: "yes"}},
	}
	for _, tt := range tests {
		got, err := ParseGPUReq(tt.in)
		if err != nil {
			t.Errorf("ParseGPUReq(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseGPUReq(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		back, err := ParseGPUReq(got.String())
		if err != nil || back != got {
			t.Errorf("ParseGPUReq(%q).String() = %q reads back as %+v, %v", tt.in, got.String(), back, err)
		}
	}
}

func TestParseGPUReqErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"num=2:foo=1", `column 7: unknown keyword "foo"`},
		{"num=0", `column 1: num=0: want a positive whole number of GPUs`},
		{"num=x", `num=x: want a positive whole number`},
		{"num=2/node", `want num_gpus, num_gpus/task or num_gpus/host`},
		{"mode=exclusive", `mode=exclusive: want shared or exclusive_process`},
		{"mps=maybe", `want yes, no, per_socket or per_gpu`},
		{"mps=no,shared", `mps=no takes no options`},
		{"mps=yes,bogus", `want yes, per_socket or per_gpu`},
		{"j_exclusive=1", `j_exclusive=1: want yes or no`},
		{"num=1::mode=shared", `column 7: empty option`},
		{"num=1:", `empty option`},
		{"num", `keyword "num" needs a value`},
		{"num=1:num=2", `column 7: keyword "num" is given twice`},
		{"gmem=lots", `gmem=lots: want an amount of memory`},
		{"gmem=-1G", `want an amount of memory`},
		{"gtile=0", `want a positive whole number or '!'`},
		{"gvendor=intel", `want nvidia or amd`},
		{"glink=no", `glink=no: want yes`},
		{"mig=9", `want GI_size[/CI_size]`},
		{"gmodel=a b", `no blank`},
	}
	for _, tt := range tests {
		_, err := ParseGPUReq(tt.in)
		if err == nil {
			t.Errorf("ParseGPUReq(%q): no error, want %q", tt.in, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseGPUReq(%q) error = %q, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestMergeGPUReqs(t *testing.T) {
	job := GPUReq{Num: 2}
	app := GPUReq{Mode: GPUExclusiveProcess, GModel: "A100"}
	queue := GPUReq{Num: 4, Mode: GPUShared, JExclusive: "yes"}
	cluster := GPUReq{GMem: 1024, JExclusive: "no"}
	got := MergeGPUReqs(job, app, queue, cluster)
	want := GPUReq{Num: 2, Mode: GPUExclusiveProcess, GModel: "A100", JExclusive: "yes", GMem: 1024}
	if got != want {
		t.Errorf("MergeGPUReqs = %+v, want %+v", got, want)
	}
	if got := (GPUReq{}).Effective().String(); got != "num=1:mode=shared:mps=no:j_exclusive=no" {
		t.Errorf("default requirement = %q", got)
	}
	if got := (GPUReq{Mode: GPUExclusiveProcess}).Effective().String(); got != "num=1:mode=exclusive_process:mps=no:j_exclusive=yes" {
		t.Errorf("exclusive_process requirement = %q, want j_exclusive=yes", got)
	}
}
