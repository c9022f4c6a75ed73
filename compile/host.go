package compile

import "github.com/lsfc/lsfc/lang"

// A Host is one host's static facts, site resources and current load, as
// `lsfc resreq match` sees it. Memory amounts are in megabytes. The
// inventory readers (inventory.Read, inventory.ReadLSHosts) never leave a
// slice or map of a Host nil.
type Host struct {
	Name  string
	Type  string
	Model string
	// Ncpus is the number of CPUs LSF counts; Ncores, Nthreads and Nprocs
	// are 0 when unknown.
	Ncpus                    float64
	Ncores, Nthreads, Nprocs float64
	// Maxmem, Maxswp and Maxtmp are in megabytes; 0 when unknown.
	Maxmem, Maxswp, Maxtmp float64
	Cpuf                   float64
	// Server is true unless the host is a client only (default true).
	Server bool
	// Slots is the number of free job slots and MaxSlots the host's MXJ;
	// -1 when unknown.
	Slots, MaxSlots float64
	// Booleans are the Boolean resources the host has, sorted.
	Booleans []string
	// Exclusive are those of Booleans that are exclusive (written "!name"):
	// LSF picks the host only for jobs that ask for them. Sorted.
	Exclusive []string
	// Numbers and Strings hold the values of numeric and string site
	// resources.
	Numbers map[string]float64
	Strings map[string]string
	// Load holds the load indices (r15s r1m r15m ut pg io ls it tmp swp
	// mem, under these canonical names) and dynamic site numerics. mem, swp
	// and tmp are in megabytes; ut is a fraction from 0 to 1.
	Load map[string]float64
	// Reserved holds the amounts already reserved by running jobs
	// (rusage), under the same names and units as Load.
	Reserved map[string]float64
	// Status is "ok" by default; others are busy, unavail, unreach,
	// unlicensed, closed, closed_Adm and the like, lockU and lockW, with a
	// leading "-" (as lsload prints it) kept when RES is down.
	Status string
	// Span is where the host is defined: its name in the inventory file,
	// or in the lshosts output.
	Span lang.Span
}
