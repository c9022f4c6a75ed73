package localexec

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestParseNvidiaSMI(t *testing.T) {
	got := parseNvidiaSMI("1, Tesla V100-SXM2-16GB, 16160\n0, Tesla V100-SXM2-16GB, 16160\nbad line\n2, A100, [N/A]\n")
	want := []GPU{{0, "Tesla_V100-SXM2-16GB", 16160}, {1, "Tesla_V100-SXM2-16GB", 16160}, {2, "A100", 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseNvidiaSMI = %+v, want %+v", got, want)
	}
}

func TestParseNvidiaSMIUsed(t *testing.T) {
	got := parseNvidiaSMIUsed("1, 2048\n0, 0\nbad line\n2, [N/A]\n-1, 5\n3, 1.5e99\n")
	want := map[int]float64{0: 0, 1: 2048}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseNvidiaSMIUsed = %v, want %v", got, want)
	}
	if got := parseNvidiaSMIUsed(""); got != nil {
		t.Errorf("parseNvidiaSMIUsed(\"\") = %v, want nil", got)
	}
}

func TestSamplerGPUsFromProc(t *testing.T) {
	if _, err := os.Stat("/proc/driver/nvidia"); err == nil {
		t.Skip("this machine has NVIDIA GPUs: nvidia-smi may answer first")
	}
	dir := t.TempDir()
	for bus, minor := range map[string]string{"0000:3b:00.0": "1", "0000:1a:00.0": "0"} {
		d := filepath.Join(dir, "driver", "nvidia", "gpus", bus)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		info := "Model: \t\t Tesla T4\nIRQ:   \t\t 90\nBus Location: \t " + bus + "\nDevice Minor: \t " + minor + "\n"
		if err := os.WriteFile(filepath.Join(d, "information"), []byte(info), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &Sampler{ProcDir: dir}
	t.Setenv("PATH", t.TempDir()) // no nvidia-smi
	got := s.GPUs()
	want := []GPU{{0, "Tesla_T4", 0}, {1, "Tesla_T4", 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GPUs() = %+v, want %+v", got, want)
	}
	if gs := (&Sampler{ProcDir: t.TempDir()}).GPUs(); gs != nil {
		t.Errorf("GPUs() of a machine without GPUs = %+v, want nil", gs)
	}
}

// TestJobEnvGPUs: a job that holds GPUs sees them as CUDA_VISIBLE_DEVICES,
// in place of any value its submitter had; a job without GPUs keeps the
// submitter's.
func TestJobEnvGPUs(t *testing.T) {
	s := &Spec{JobID: 7, Command: "true", Env: []string{"CUDA_VISIBLE_DEVICES=5", "HOME=/h"}, GPUs: []int{0, 2}}
	env := jobEnv(s, jobPaths{})
	n := 0
	for _, kv := range env {
		if len(kv) > 21 && kv[:21] == "CUDA_VISIBLE_DEVICES=" {
			n++
			if kv != "CUDA_VISIBLE_DEVICES=0,2" {
				t.Errorf("job environment has %s, want CUDA_VISIBLE_DEVICES=0,2", kv)
			}
		}
	}
	if n != 1 {
		t.Errorf("CUDA_VISIBLE_DEVICES is set %d times in %q", n, env)
	}
	s.GPUs = nil
	if env := jobEnv(s, jobPaths{}); !slices.Contains(env, "CUDA_VISIBLE_DEVICES=5") {
		t.Errorf("a job without GPUs lost its submitter's CUDA_VISIBLE_DEVICES: %q", env)
	}
}
