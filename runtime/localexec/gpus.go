package localexec

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A GPU is one NVIDIA GPU of this machine: its index (as
// CUDA_VISIBLE_DEVICES counts them), its model and its memory in MB (0
// when unknown).
type GPU struct {
	Index int
	Model string
	Mem   float64
}

// GPUs returns this machine's NVIDIA GPUs, in index order: as nvidia-smi
// lists them when it is on PATH (index, name and total memory), else from
// the driver's /proc/driver/nvidia/gpus/*/information (model and device
// minor number; no memory). Nil when there are none, or neither source
// answers.
func (s *Sampler) GPUs() []GPU {
	if path, err := exec.LookPath("nvidia-smi"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, path, "--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits").Output()
		if err == nil {
			if gs := parseNvidiaSMI(string(out)); len(gs) > 0 {
				return gs
			}
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(s.dir(s.ProcDir, "/proc"), "driver", "nvidia", "gpus", "*", "information"))
	var out []GPU
	for _, p := range dirs {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		g, ok := parseGPUInformation(f)
		f.Close()
		if ok {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b GPU) int { return a.Index - b.Index })
	return out
}

// parseNvidiaSMI reads nvidia-smi's "index, name, memory.total" CSV
// without header or units; lines that do not read are skipped.
func parseNvidiaSMI(text string) []GPU {
	var out []GPU
	for _, line := range strings.Split(text, "\n") {
		f := strings.Split(line, ",")
		if len(f) != 3 {
			continue
		}
		idx, err := strconv.Atoi(strings.TrimSpace(f[0]))
		if err != nil || idx < 0 {
			continue
		}
		g := GPU{Index: idx, Model: gpuModelName(f[1])}
		if mem, err := strconv.ParseFloat(strings.TrimSpace(f[2]), 64); err == nil && mem > 0 && mem < 1<<40 {
			g.Mem = mem
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b GPU) int { return a.Index - b.Index })
	return slices.CompactFunc(out, func(a, b GPU) bool { return a.Index == b.Index })
}

// parseGPUInformation reads one GPU's information file of the NVIDIA
// driver: its "Model:" and "Device Minor:" lines.
func parseGPUInformation(f io.Reader) (GPU, bool) {
	var g GPU
	model, minor := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Model":
			g.Model, model = gpuModelName(val), true
		case "Device Minor":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err == nil && n >= 0 {
				g.Index, minor = n, true
			}
		}
	}
	return g, model && minor
}

// gpuModelName spells a GPU's model as LSF shows it: blanks become
// underscores ("Tesla V100-SXM2-16GB" is Tesla_V100-SXM2-16GB).
func gpuModelName(s string) string {
	return strings.Join(strings.Fields(s), "_")
}

// GPUMemUsed returns the GPU memory in use on this machine, in MB, by
// GPU index, as nvidia-smi reports it; nil when nvidia-smi is not on
// PATH or does not answer (the driver's files do not tell it).
func (s *Sampler) GPUMemUsed() map[int]float64 {
	path, err := exec.LookPath("nvidia-smi")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--query-gpu=index,memory.used", "--format=csv,noheader,nounits").Output()
	if err != nil {
		return nil
	}
	return parseNvidiaSMIUsed(string(out))
}

// parseNvidiaSMIUsed reads nvidia-smi's "index, memory.used" CSV without
// header or units; lines that do not read, and values nvidia-smi does not
// know ("[N/A]"), are skipped.
func parseNvidiaSMIUsed(text string) map[int]float64 {
	var out map[int]float64
	for _, line := range strings.Split(text, "\n") {
		idx, used, ok := strings.Cut(line, ",")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSpace(idx))
		if err != nil || i < 0 {
			continue
		}
		mb, err := strconv.ParseFloat(strings.TrimSpace(used), 64)
		if err != nil || mb < 0 || mb >= 1<<40 || mb != mb {
			continue
		}
		if out == nil {
			out = map[int]float64{}
		}
		out[i] = mb
	}
	return out
}
