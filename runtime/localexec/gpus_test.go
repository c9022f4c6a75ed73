package localexec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseNvidiaSMI(t *testing.T) {
	got := parseNvidiaSMI("1, Tesla V100-SXM2-16GB, 16160\n0, Tesla V100-SXM2-16GB, 16160\nbad line\n2, A100, [N/A]\n")
	want := []GPU{{0, "Tesla_V100-SXM2-16GB", 16160}, {1, "Tesla_V100-SXM2-16GB", 16160}, {2, "A100", 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseNvidiaSMI = %+v, want %+v", got, want)
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
