package localexec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cpuTopology counts this machine's physical processors (packages), the
// cores of each and the hardware threads of each core, as LSF's nprocs,
// ncores and nthreads, from devices/system/cpu/cpuN/topology under the
// kernel's device file system. ok is false when no CPU there says its
// package and core (not Linux, or /sys not mounted).
func (s *Sampler) cpuTopology() (nprocs, ncores, nthreads float64, ok bool) {
	base := filepath.Join(s.dir(s.SysDir, "/sys"), "devices", "system", "cpu")
	entries, err := os.ReadDir(base)
	if err != nil {
		return 0, 0, 0, false
	}
	type core struct{ pkg, id int }
	packages := map[int]bool{}
	cores := map[core]bool{}
	threads := 0
	for _, e := range entries {
		name := e.Name()
		if _, err := strconv.Atoi(strings.TrimPrefix(name, "cpu")); err != nil || !strings.HasPrefix(name, "cpu") {
			continue
		}
		topo := filepath.Join(base, name, "topology")
		pkg, err1 := readInt(filepath.Join(topo, "physical_package_id"))
		id, err2 := readInt(filepath.Join(topo, "core_id"))
		if err1 != nil || err2 != nil {
			continue // an offline CPU has no topology
		}
		packages[pkg] = true
		cores[core{pkg, id}] = true
		threads++
	}
	if threads == 0 {
		return 0, 0, 0, false
	}
	nprocs = float64(len(packages))
	ncores = float64(len(cores)) / nprocs
	nthreads = float64(threads) / float64(len(cores))
	return nprocs, ncores, nthreads, true
}

func readInt(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}
