//go:build !lsfclient

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
	"github.com/spf13/cobra"
)

// exitNoMatch is lsfc resreq match's exit code for a valid requirement no
// host satisfies.
const exitNoMatch = 4

func newResReqCmd(e env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "resreq",
		Short: "Parse resource requirement strings and test them against hosts",
		Long: `resreq works with resource requirement strings, as given to bsub -R or
written in RES_REQ: parse checks their syntax and prints the canonical
form; match type-checks one and tests it against a host inventory,
explaining why each host fails.`,
	}
	cmd.AddCommand(newResReqParseCmd(e), newResReqMatchCmd(e))
	return cmd
}

func newResReqParseCmd(e env) *cobra.Command {
	var req, format string
	cmd := &cobra.Command{
		Use:   "parse -R STRING",
		Short: "Check the syntax of a resource requirement and print it canonically",
		Long: `parse checks the syntax of a resource requirement (names and types are
checked by match, check and lint) and prints its canonical form: every
section named, sections in the order select, order, rusage, span, same, cu,
affinity, blanks normalised. With --format json it prints the syntax tree.

An invalid string prints "-R:1:COL: error: ..." with a caret and exits 1.`,
		Example: `  lsfc resreq parse -R 'mem>4000 && type==X86_64 order[ut] rusage[mem=2000]'
  lsfc resreq parse -R '2*{span[ptile=1]} + 3*{-}' --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("R") {
				return usageError("parse needs -R STRING")
			}
			if format != "text" && format != "json" {
				return usageError("unknown --format %q (want text or json)", format)
			}
			r, ds := lang.ParseResReq(lang.NewSource("-R", req))
			if ds.HasErrors() {
				writeDiags(e.stderr, format, ds)
				return exit(exitFindings, nil)
			}
			ds.WriteText(e.stderr)
			if format == "json" {
				return writeJSON(e.stdout, r.JSON())
			}
			fmt.Fprintln(e.stdout, r.String())
			return nil
		},
	}
	cmd.Flags().StringVarP(&req, "R", "R", "", "the resource requirement string")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("text", "json"))
	return cmd
}

// writeDiags prints diagnostics in text or as a JSON array.
func writeDiags(w io.Writer, format string, ds lang.Diagnostics) {
	if format == "json" {
		ds.WriteJSON(w)
		return
	}
	ds.WriteText(w)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return exit(exitUsage, err)
	}
	return nil
}

type matchFlags struct {
	reqs                                              []string
	hosts, lshosts, lsload, conf, cluster, queue, app string
	fromType, fromModel, unit, format                 string
	explain                                           bool
	slots                                             int
}

func newResReqMatchCmd(e env) *cobra.Command {
	var f matchFlags
	cmd := &cobra.Command{
		Use:   "match -R STRING (--hosts FILE | --lshosts FILE [--lsload FILE]) [flags]",
		Short: "Test a resource requirement against hosts and explain each rejection",
		Long: `match type-checks a resource requirement and prints the hosts that satisfy
it, best first (its order[], or LSF's default r15s:pg), one name per line.

Hosts come from an inventory (--hosts, YAML or JSON: a "hosts" list of
{name, type, model, ncpus, maxmem, maxswp, maxtmp, cpuf, server, slots,
maxslots, resources, values, load, reserved, status}) or from the text
output of lshosts -w and lsload -w. Site resources are declared by
lsf.shared when --conf is given, else by the inventory itself.

With --conf and --queue (and --app), the queue's and application's
RES_REQ are merged with -R as LSF 10.1 does, and the effective requirement
is printed. Like lshosts -R, the host type defaults to any; with
--from-type TYPE (the submission host's type) bsub's rule applies instead:
type==local, unless the select names a String or Boolean resource.

Several -R options are joined as bsub joins them: selects ANDed; order
keys, rusage usage strings and same resources merged; span, cu and
affinity given by one option at most.

--explain adds, for every part of the requirement, how many hosts satisfy
it; for every host and term of the requirement one verdict: matches, the
parts it fails with its values, or not placed by span[] or same[]; the
alternative used; and a verdict: never satisfiable on these hosts, or not
satisfiable now.

Exit codes: 0 some host matches; 1 invalid requirement or input; 2 usage
or I/O error; 4 valid, but no host matches.`,
		Example: `  lsfc resreq match -R 'select[mem>4000 && gpu] order[-slots]' --hosts testdata/hosts/demo.yaml
  lsfc resreq match -R 'rusage[mem=2000]' --hosts testdata/hosts/demo.yaml --conf testdata/clusters/demo --queue normal --explain`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("R") {
				return usageError("match needs -R STRING")
			}
			return runMatch(e, f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.reqs, "R", "R", nil, "the resource requirement string; several -R are joined as bsub joins them")
	fl.StringVar(&f.hosts, "hosts", "", "host inventory, YAML or JSON")
	fl.StringVar(&f.lshosts, "lshosts", "", "output of lshosts -w, instead of --hosts")
	fl.StringVar(&f.lsload, "lsload", "", "output of lsload -w, with --lshosts")
	fl.StringVar(&f.conf, "conf", "", "LSF configuration tree: declares site resources, the memory unit, queues")
	fl.StringVar(&f.cluster, "cluster", "", "name of the local cluster, when lsf.shared lists several")
	fl.StringVar(&f.queue, "queue", "", "merge this queue's RES_REQ (needs --conf)")
	fl.StringVar(&f.app, "app", "", "merge this application profile's RES_REQ (needs --conf)")
	fl.StringVar(&f.fromType, "from-type", "", "type of the submission host, for type==local")
	fl.StringVar(&f.fromModel, "from-model", "", "model of the submission host, for model==local")
	fl.StringVar(&f.unit, "unit", "MB", "memory unit of bare numbers without --conf (KB, MB, GB, ...)")
	fl.IntVarP(&f.slots, "slots", "n", 1, "job slots asked for, as bsub -n")
	fl.BoolVar(&f.explain, "explain", false, "explain every rejection and give a verdict")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("text", "json"))
	_ = cmd.RegisterFlagCompletionFunc("queue", completeTreeNames(e, queueNames))
	_ = cmd.RegisterFlagCompletionFunc("unit", completeWords("KB", "MB", "GB", "TB", "PB", "EB", "ZB"))
	return cmd
}

func runMatch(e env, f matchFlags) error {
	if f.format != "text" && f.format != "json" {
		return usageError("unknown --format %q (want text or json)", f.format)
	}
	if (f.hosts == "") == (f.lshosts == "") {
		return usageError("give the hosts with --hosts FILE or --lshosts FILE")
	}
	if (f.queue != "" || f.app != "") && f.conf == "" {
		return usageError("--queue and --app need --conf")
	}
	if f.slots < 1 {
		return usageError("--slots must be at least 1")
	}
	// The requirement is parsed (and the parser of -R built, the most of
	// it) on another goroutine, while this one reads the environment from
	// its cache and the hosts; what they say waits until the
	// requirement's errors, which come first, are known.
	type parsed struct {
		job *lang.ResReq
		ds  lang.Diagnostics
	}
	parsing := make(chan parsed, 1)
	go func() {
		job, ds := lang.ParseResReqOptions(f.reqs)
		parsing <- parsed{job, ds}
	}()
	var env *compile.Env
	unit := compile.MB
	if f.conf != "" && f.queue == "" && f.app == "" {
		env = cachedMatchEnv(e, f.conf, f.cluster)
	}
	var (
		inv     *inventory.Inventory
		ids     lang.Diagnostics
		invErr  error
		invRead bool
	)
	if env != nil {
		unit = env.Unit
		inv, ids, invErr = readInventory(f, unit)
		invRead = true
	} else if f.conf == "" {
		if u, err := compile.ParseUnit(f.unit); err == nil {
			unit = u
			inv, ids, invErr = readInventory(f, unit)
			invRead = true
		}
	}
	p := <-parsing
	job, ds := p.job, p.ds
	if ds.HasErrors() {
		writeDiags(e.stderr, f.format, ds)
		return exit(exitFindings, nil)
	}
	var all lang.Diagnostics
	all = append(all, ds...)

	// The environment: from the tree (or its cached environment, when
	// nothing but the environment is needed), or from the inventory.
	var tree *compile.Tree
	if env == nil && f.conf != "" {
		var tds lang.Diagnostics
		var err error
		tree, tds, err = compile.Load([]string{f.conf}, compile.LoadOptions{Cluster: f.cluster})
		if err != nil {
			return exit(exitUsage, err)
		}
		if tds.HasErrors() {
			writeDiags(e.stderr, f.format, tds)
			return exit(exitFindings, fmt.Errorf("%s has errors; run lsfc lint for all findings", f.conf))
		}
	} else if env == nil {
		u, err := compile.ParseUnit(f.unit)
		if err != nil {
			return usageError("--unit: %v", err)
		}
		unit = u
	}
	if tree != nil {
		cfg := compile.EnvConfigFromTree(tree)
		env = compile.NewEnv(cfg)
		unit = env.Unit
		storeMatchEnv(e, f.conf, f.cluster, tree, cfg)
	}
	if !invRead {
		inv, ids, invErr = readInventory(f, unit)
	}
	if invErr != nil {
		return exit(exitUsage, invErr)
	}
	all = append(all, ids...)
	if ids.HasErrors() {
		writeDiags(e.stderr, f.format, all)
		return exit(exitFindings, nil)
	}
	if env == nil {
		env = compile.NewEnv(compile.EnvConfig{Site: compile.SiteResourcesFromHosts(inv.Hosts), Unit: unit})
	}

	// Merge the queue's and the application's requirements.
	eff := job
	merged := len(f.reqs) > 1 // several -R are joined
	if f.queue != "" || f.app != "" {
		var queue, app *lang.ResReq
		if f.queue != "" {
			q, qds, err := levelResReq(tree, lang.KindLSBQueues, "Queue", "QUEUE_NAME", f.queue)
			if err != nil {
				return exit(exitFindings, err)
			}
			queue, all = q, append(all, qds...)
		}
		if f.app != "" {
			a, ads, err := levelResReq(tree, lang.KindLSBApplications, "Application", "NAME", f.app)
			if err != nil {
				return exit(exitFindings, err)
			}
			app, all = a, append(all, ads...)
		}
		var mds lang.Diagnostics
		eff, mds = env.Merge(queue, app, job)
		all = append(all, mds...)
		merged = true
	}
	req, cds := env.CompileResReq(eff, compile.SelectOptions{FromType: f.fromType, FromModel: f.fromModel, LocalTypeDefault: f.fromType != ""})
	all = append(all, cds...)
	all.Sort()
	if all.HasErrors() || req == nil {
		writeDiags(e.stderr, f.format, all)
		return exit(exitFindings, nil)
	}
	if f.format == "text" {
		all.WriteText(e.stderr)
	}
	table := env.Table(inv.Hosts)
	res := env.Match(req, table, compile.MatchOptions{Slots: f.slots, Explain: f.explain || f.format == "json"})
	if f.format == "json" {
		out := matchJSON(table, req, res, merged, all)
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		if merged {
			fmt.Fprintf(e.stderr, "effective requirement: %s\n", req)
		}
		for _, i := range res.Matched {
			fmt.Fprintln(e.stdout, table.Hosts[i].Name)
		}
		if f.explain {
			writeExplain(e.stdout, req, res)
		}
	}
	if len(res.Matched) == 0 {
		return exit(exitNoMatch, nil)
	}
	return nil
}

// readInventory reads the hosts from --hosts or --lshosts/--lsload.
func readInventory(f matchFlags, unit compile.Unit) (*inventory.Inventory, lang.Diagnostics, error) {
	read := func(path string) (*lang.Source, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return lang.NewSource(path, string(b)), nil
	}
	if f.hosts != "" {
		src, err := read(f.hosts)
		if err != nil {
			return nil, nil, err
		}
		inv, ds := inventory.Read(src, unit)
		return inv, ds, nil
	}
	hs, err := read(f.lshosts)
	if err != nil {
		return nil, nil, err
	}
	var ls *lang.Source
	if f.lsload != "" {
		if ls, err = read(f.lsload); err != nil {
			return nil, nil, err
		}
	}
	inv, ds := inventory.ReadLSHosts(hs, ls, unit)
	return inv, ds, nil
}

// levelResReq parses the RES_REQ of a queue or application profile; its
// diagnostics point into the configuration file.
func levelResReq(tree *compile.Tree, kind lang.FileKind, section, nameKey, name string) (*lang.ResReq, lang.Diagnostics, error) {
	v, found := tree.SectionValue(kind, section, nameKey, name, "RES_REQ")
	if !found {
		return nil, nil, fmt.Errorf("no %s %q in %s", strings.ToLower(section), name, kind)
	}
	if v == nil {
		return nil, nil, nil
	}
	r, ds := lang.ParseResReq(v.Src)
	if ds.HasErrors() {
		return nil, ds, fmt.Errorf("the RES_REQ of %s %q does not parse", strings.ToLower(section), name)
	}
	return r, ds, nil
}

// writeExplain prints the alternative explained, the clause table, one
// verdict per host and term, and the overall verdict.
func writeExplain(w io.Writer, req *compile.Requirement, res *compile.MatchResult) {
	if line := alternativeLine(req, res); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	fmt.Fprintf(w, "\n%-8s  %s\n", "matches", "part of the requirement")
	for _, c := range res.Clauses {
		kind := ""
		if c.Static {
			kind = "  (static)"
		}
		fmt.Fprintf(w, "%8d  %s%s\n", c.Matches, c.Part, kind)
	}
	if len(res.Hosts) > 0 {
		fmt.Fprintln(w, "\nhosts:")
	}
	for _, hm := range res.Hosts {
		for _, tv := range hm.Terms {
			term := ""
			if len(hm.Terms) > 1 {
				term = fmt.Sprintf("term %d: ", tv.Term)
			}
			fmt.Fprintf(w, "  %-16s %s%s\n", hm.Host.Name, term, termVerdictText(tv))
		}
	}
	if res.Placement != "" {
		fmt.Fprintf(w, "\nplacement: %s\n", res.Placement)
	}
	verdict := fmt.Sprintf("%d of %d hosts match", len(res.Matched), len(res.Hosts))
	if len(res.Matched) == 0 {
		verdict = res.Verdict.String()
	}
	fmt.Fprintf(w, "\nverdict: %s\n", verdict)
}

// alternativeLine names the alternative of an "||" requirement that was
// used, or, when none matches, the one explained; it is empty for a
// requirement without alternatives.
func alternativeLine(req *compile.Requirement, res *compile.MatchResult) string {
	n := len(req.AST.Alts)
	if n < 2 || res.Explained < 0 || res.Explained >= n {
		return ""
	}
	text := (&lang.ResReq{Alts: req.AST.Alts[res.Explained : res.Explained+1]}).String()
	if res.Alt >= 0 {
		return fmt.Sprintf("alternative %d of %d used: %s", res.Alt+1, n, text)
	}
	return fmt.Sprintf("no alternative matches; alternative %d of %d explained: %s", res.Explained+1, n, text)
}

// termVerdictText is one host's verdict on one term: "matches", "fails
// PART: VALUES; PART: VALUES" or "not placed: PART: VALUES".
func termVerdictText(tv compile.TermVerdict) string {
	if tv.Outcome == compile.OutcomeUsed {
		return "matches"
	}
	parts := make([]string, 0, len(tv.Reasons))
	for _, r := range tv.Reasons {
		p := r.Part
		if r.Values != "" {
			p += ": " + r.Values
		}
		parts = append(parts, p)
	}
	head := "fails "
	if tv.Outcome == compile.OutcomeUnplaced {
		head = "not placed: "
	}
	return head + strings.Join(parts, "; ")
}

func matchJSON(table *compile.HostTable, req *compile.Requirement, res *compile.MatchResult, merged bool, ds lang.Diagnostics) map[string]any {
	matched := []string{}
	for _, i := range res.Matched {
		matched = append(matched, table.Hosts[i].Name)
	}
	clauses := []any{}
	for _, c := range res.Clauses {
		clauses = append(clauses, map[string]any{"part": c.Part, "matches": c.Matches, "static": c.Static})
	}
	rejected := []any{}
	hosts := []any{}
	for _, hm := range res.Hosts {
		var terms []any
		for _, tv := range hm.Terms {
			reasons := []any{}
			for _, r := range tv.Reasons {
				reasons = append(reasons, map[string]any{"part": r.Part, "values": r.Values, "static": r.Static})
			}
			terms = append(terms, map[string]any{"term": tv.Term, "outcome": tv.Outcome.String(), "reasons": reasons})
		}
		hosts = append(hosts, map[string]any{"host": hm.Host.Name, "terms": terms})
		if hm.OK {
			continue
		}
		var reasons []any
		for _, tv := range hm.Terms {
			for _, r := range tv.Reasons {
				reasons = append(reasons, map[string]any{"term": tv.Term, "part": r.Part, "values": r.Values, "static": r.Static})
			}
		}
		rejected = append(rejected, map[string]any{"host": hm.Host.Name, "reasons": reasons})
	}
	out := map[string]any{
		"requirement": req.String(),
		"merged":      merged,
		"matched":     matched,
		"clauses":     clauses,
		"rejected":    rejected,
		"hosts":       hosts,
		"verdict":     res.Verdict.String(),
	}
	if len(res.Matched) > 0 {
		out["verdict"] = "satisfiable"
	}
	if res.Placement != "" {
		out["placement"] = res.Placement
	}
	if len(req.AST.Alts) > 1 {
		out["alternative"] = res.Explained + 1
		out["alternativeMatched"] = res.Alt >= 0
	}
	var warnings strings.Builder
	ds.WriteJSON(&warnings)
	var w any
	json.Unmarshal([]byte(warnings.String()), &w)
	out["diagnostics"] = w
	return out
}
