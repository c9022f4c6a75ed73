package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/units"
	"github.com/lsfc/lsfc/runtime/api"
)

// gpuMem writes a GPU memory amount in MB as bhosts -gpu does ("16G",
// "0M"); "-" when unknown.
func gpuMem(mb float64) string {
	if mb <= 0 {
		return "-"
	}
	return units.FormatMemory(mb)
}

// gpuMemUsed writes the memory in use on a GPU as bhosts -gpu does, "-"
// when the host's agent does not measure it.
func gpuMemUsed(mb *float64) string {
	if mb == nil {
		return "-"
	}
	return units.FormatMemory(*mb)
}

// gpuModel returns a GPU's model, "-" when unknown, cut to n columns
// unless wide.
func gpuModel(m string, n int, wide bool) string {
	if m == "" {
		return "-"
	}
	if !wide {
		return cutEnd(m, n)
	}
	return m
}

// writeBhostsGPU prints bhosts -gpu: one line per GPU of each host that
// has any, the host's name on its first.
func writeBhostsGPU(w io.Writer, hs []api.Host, wide bool) {
	hs = textSafe(hs)
	fmt.Fprintf(w, "%-18s %4s %-18s %8s %8s %6s %6s %6s %6s\n", "HOST_NAME", "ID", "MODEL", "MUSED", "MRSV", "NJOBS", "RUN", "SUSP", "RSV")
	for _, h := range hs {
		name := h.Name
		if !wide {
			name = cutEnd(name, 18)
		}
		for i, g := range h.GPUs {
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(w, "%-18s %4d %-18s %8s %8s %6d %6d %6d %6d\n", name, g.ID, gpuModel(g.Model, 18, wide), gpuMemUsed(g.MemUsed),
				units.FormatMemory(g.Reserved), g.NJobs, g.Run, g.Susp, g.Rsv)
		}
	}
}

// writeBhostsGPULong prints bhosts -gpu -l: per host its GPU counts, each
// GPU's static attributes (model, memory), its mode and memory reserved,
// and the jobs on it.
func writeBhostsGPULong(w io.Writer, hs []api.Host) {
	hs = textSafe(hs)
	first := true
	for _, h := range hs {
		if len(h.GPUs) == 0 {
			continue
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		shared, excl := 0, 0
		for _, g := range h.GPUs {
			if !g.Exclusive {
				shared++
			}
			if g.NJobs == 0 {
				excl++
			}
		}
		fmt.Fprintf(w, "HOST: %s\n", h.Name)
		fmt.Fprintf(w, "NGPUS NGPUS_SHARED_AVAIL NGPUS_EXCLUSIVE_AVAIL\n%-5d %-18d %d\n", len(h.GPUs), shared, excl)
		fmt.Fprintf(w, "\nSTATIC ATTRIBUTES\n%-6s %-24s %8s\n", "GPU_ID", "MODEL", "MTOTAL")
		for _, g := range h.GPUs {
			fmt.Fprintf(w, "%-6d %-24s %8s\n", g.ID, gpuModel(g.Model, 24, true), gpuMem(g.Mem))
		}
		fmt.Fprintf(w, "\nDYNAMIC ATTRIBUTES\n%-6s %-17s %8s %8s %s\n", "GPU_ID", "MODE", "MUSED", "MRSV", "STATUS")
		for _, g := range h.GPUs {
			mode := "SHARED"
			if g.Exclusive {
				mode = "EXCLUSIVE_PROCESS"
			}
			fmt.Fprintf(w, "%-6d %-17s %8s %8s %s\n", g.ID, mode, gpuMemUsed(g.MemUsed), units.FormatMemory(g.Reserved), "ok")
		}
		fmt.Fprintf(w, "\nGPU JOB INFORMATION\n%-6s %-5s %-20s %s\n", "GPU_ID", "JEXCL", "RUNJOBIDS", "SUSPJOBIDS")
		for _, g := range h.GPUs {
			jexcl := "-"
			if g.Exclusive {
				jexcl = "Y"
			}
			fmt.Fprintf(w, "%-6d %-5s %-20s %s\n", g.ID, jexcl, jobIDList(g.RunJobs), jobIDList(g.SuspJobs))
		}
	}
}

// jobIDList writes job IDs separated by commas, "-" for none.
func jobIDList(ids []int64) string {
	if len(ids) == 0 {
		return "-"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// writeLshostsGPU prints lshosts -gpu: each GPU of each host that has any,
// with its model and what the host knows of it. Vendor is Nvidia for
// GPUs the host's agent found through NVIDIA's driver, "-" for those the
// configuration declares.
func writeLshostsGPU(w io.Writer, hs []api.Host, wide bool) {
	hs = textSafe(hs)
	fmt.Fprintf(w, "%-18s %6s %-18s %-11s %-10s %-7s %s\n", "HOST_NAME", "gpu_id", "gpu_model", "gpu_driver", "gpu_factor", "numa_id", "vendor")
	for _, h := range hs {
		name := h.Name
		if !wide {
			name = cutEnd(name, 18)
		}
		vendor := "-"
		if h.GPUsFound {
			vendor = "Nvidia"
		}
		for i, g := range h.GPUs {
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(w, "%-18s %6d %-18s %-11s %-10s %-7s %s\n", name, g.ID, gpuModel(g.Model, 18, wide), "-", "-", "-", vendor)
		}
	}
}

// writeJobGPUs prints the GPU_ALLOCATION section of bjobs -l -gpu: per
// host the tasks the job runs there and each GPU they use.
func writeJobGPUs(w io.Writer, j *api.Job) {
	writeGPUAlloc(w, j.GPUAlloc, j.ExecHosts)
}

// writeGPUAlloc prints a GPU_ALLOCATION section: per host of allocs the
// tasks the job runs there (one per entry of hosts, a slot each) and each
// GPU they use.
func writeGPUAlloc(w io.Writer, allocs []api.JobGPUs, hosts []string) {
	if len(allocs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n GPU_ALLOCATION:\n %-16s %-9s %-6s %-18s %8s %8s\n", "HOST", "TASK", "GPU_ID", "MODEL", "MTOTAL", "MRSV")
	task := 0
	for _, a := range allocs {
		n := 0
		for _, h := range hosts {
			if h == a.Host {
				n++
			}
		}
		tasks := make([]string, 0, n)
		for range n {
			tasks = append(tasks, strconv.Itoa(task))
			task++
		}
		for i, id := range a.IDs {
			model, mem := "", 0.0
			if i < len(a.Models) {
				model = a.Models[i]
			}
			if i < len(a.Mem) {
				mem = a.Mem[i]
			}
			fmt.Fprintf(w, " %-16s %-9s %-6d %-18s %8s %8s\n", a.Host, strings.Join(tasks, ","), id, gpuModel(model, 18, true),
				gpuMem(mem), units.FormatMemory(a.Reserved))
		}
	}
}

// writeBhostsShared prints bhosts -s: each numeric instance of lsf.cluster's
// ResourceMap, with what is left of it for scheduling (TOTAL) and what
// running jobs reserve (RESERVED), from the daemon's live state.
func writeBhostsShared(w io.Writer, rs []api.SharedResource) {
	rs = textSafe(rs)
	fmt.Fprintf(w, "%-24s %10s %14s       %s\n", "RESOURCE", "TOTAL", "RESERVED", "LOCATION")
	for _, r := range rs {
		fmt.Fprintf(w, "%-24s %10s %14.1f       %s\n", r.Resource, sharedValue(r, true), r.Reserved, strings.Join(r.Hosts, " "))
	}
}

// bhostsSharedRecords returns the instances as bhosts -s -json's records.
func bhostsSharedRecords(rs []api.SharedResource) []lsfRecord {
	out := make([]lsfRecord, 0, len(rs))
	for _, r := range rs {
		out = append(out, lsfRecord{{"RESOURCE", r.Resource}, {"TOTAL", sharedValue(r, true)},
			{"RESERVED", strconv.FormatFloat(r.Reserved, 'f', 1, 64)}, {"LOCATION", strings.Join(r.Hosts, " ")}})
	}
	return out
}
