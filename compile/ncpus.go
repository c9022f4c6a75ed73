package compile

import "strings"

// How LSF counts a host's ncpus. EGO_DEFINE_NCPUS in lsf.conf chooses it
// for the cluster (procs, cores or threads; cores when unset), and a host
// overrides it by carrying one of the Boolean resources define_ncpus_procs,
// define_ncpus_cores or define_ncpus_threads (in its RESOURCES in
// lsf.cluster, or in LSF_LOCAL_RESOURCES on a host that joins by itself).
// LSF's stock lsf.shared declares these resources, each described by the
// count it selects: "(ncpus := procs)".
const (
	NcpusProcs   = "procs"   // ncpus is the number of physical processors
	NcpusCores   = "cores"   // processors times cores per processor
	NcpusThreads = "threads" // processors times cores times threads per core
)

// ncpusDefiners are the resource names LSF keeps for selecting how ncpus
// is counted, with the count each selects; define_ncpus_sockets, which
// some releases' lsf.shared also declares, selects none that
// EGO_DEFINE_NCPUS knows and counts as procs (a socket holds one physical
// processor).
var ncpusDefiners = map[string]string{
	"define_ncpus_procs":   NcpusProcs,
	"define_ncpus_cores":   NcpusCores,
	"define_ncpus_threads": NcpusThreads,
	"define_ncpus_sockets": NcpusProcs,
}

// NcpusCount returns how LSF counts the ncpus of the host named host:
// NcpusProcs, NcpusCores or NcpusThreads. A define_ncpus_* Boolean the host
// carries wins (the first, when it carries several); else EGO_DEFINE_NCPUS
// of lsf.conf; else NcpusCores, LSF's default. An unknown host (or "")
// gets the cluster's count. A nil policy gives NcpusCores.
func (p *Policy) NcpusCount(host string) string {
	if p == nil {
		return NcpusCores
	}
	if h := p.Host(host); h != nil {
		for _, r := range h.Resources {
			if count, ok := ncpusDefiners[r]; ok {
				return count
			}
		}
	}
	return p.clusterNcpusCount()
}

// NcpusCountOf returns the count the Boolean resources of a host select
// (define_ncpus_*, as LSF_LOCAL_RESOURCES gives them to a host that joins
// by itself), else the cluster's, as NcpusCount.
func (p *Policy) NcpusCountOf(booleans []string) string {
	for _, r := range booleans {
		if count, ok := ncpusDefiners[r]; ok {
			return count
		}
	}
	if p == nil {
		return NcpusCores
	}
	return p.clusterNcpusCount()
}

func (p *Policy) clusterNcpusCount() string {
	switch v := strings.ToLower(strings.TrimSpace(p.LSFConf.DefineNcpus)); v {
	case NcpusProcs, NcpusCores, NcpusThreads:
		return v
	}
	return NcpusCores
}

// CountNcpus returns ncpus as count says LSF counts it, from the number
// of physical processors, cores per processor and threads per core; a
// factor that is 0 (unknown) counts as 1, as LIM does where it cannot
// detect the topology. It returns 0 when nprocs is unknown.
func CountNcpus(count string, nprocs, ncores, nthreads float64) float64 {
	if nprocs <= 0 {
		return 0
	}
	ncores, nthreads = max(ncores, 1), max(nthreads, 1)
	switch count {
	case NcpusProcs:
		return nprocs
	case NcpusThreads:
		return nprocs * ncores * nthreads
	}
	return nprocs * ncores
}

// HostNcpus returns the ncpus of the host named host as LSF counts it
// (NcpusCount) from the machine's physical processors, cores per
// processor and threads per core, but never more than usable, the CPUs
// the process that measured them may use. When nprocs is 0 (the topology
// is unknown) it returns usable. A nil policy counts cores.
func (p *Policy) HostNcpus(host string, usable, nprocs, ncores, nthreads float64) float64 {
	n := CountNcpus(p.NcpusCount(host), nprocs, ncores, nthreads)
	if n <= 0 || usable > 0 && n > usable {
		return usable
	}
	return n
}

// SelectsNcpusCount reports whether name is one of the define_ncpus_*
// resources, which a host carries to choose how its ncpus is counted
// rather than for jobs to ask for.
func SelectsNcpusCount(name string) bool {
	_, ok := ncpusDefiners[name]
	return ok
}
