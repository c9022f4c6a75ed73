package compile_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// TestParamDefaults reads lsb.params and lsf.conf values: set ones, and
// the dialect's documented defaults for the others.
func TestParamDefaults(t *testing.T) {
	tree := loadSynthetic(t, 2, 20)
	p, _ := compile.Compile(tree, compile.Options{})
	if got := p.Parameters.MBDSleepTime; got != 10*time.Second {
		t.Errorf("MBD_SLEEP_TIME set to 10: got %v", got)
	}
	if got := p.Parameters.SBDSleepTime; got != 7*time.Second {
		t.Errorf("SBD_SLEEP_TIME set to 7: got %v", got)
	}
	empty := &compile.Tree{}
	lsf, _ := compile.Compile(empty, compile.Options{})
	ol, _ := compile.Compile(empty, compile.Options{Dialect: compile.Openlava})
	if got := lsf.Parameters.MBDSleepTime; got != time.Minute {
		t.Errorf("LSF 10.1 default MBD_SLEEP_TIME: got %v, want 1m0s", got)
	}
	if got := ol.Parameters.MBDSleepTime; got != 2*time.Second {
		t.Errorf("openlava default MBD_SLEEP_TIME: got %v, want 2s", got)
	}
	if got := lsf.Parameters.JobExitRateDuration; got != 5*time.Minute {
		t.Errorf("JOB_EXIT_RATE_DURATION default (5, in minutes): got %v, want 5m0s", got)
	}
	if got := lsf.Parameters.MaxJobPreempt; got != 0 {
		t.Errorf("MAX_JOB_PREEMPT defaults to unlimited, 0: got %v", got)
	}
	if got, want := lsf.Parameters.JobSchedulingInterval, (compile.SchedulingInterval{Min: 5 * time.Second}); got != want {
		t.Errorf("JOB_SCHEDULING_INTERVAL default: got %+v, want %+v", got, want)
	}
	if got := lsf.Parameters.ExitRateType; !slices.Equal(got, []string{"JOBEXIT_NONLSF"}) {
		t.Errorf("EXIT_RATE_TYPE default: got %q", got)
	}
	if got := lsf.LSFConf.UnitForLimits; got != compile.KB {
		t.Errorf("LSF_UNIT_FOR_LIMITS default: got %v, want KB", got)
	}
	if got := lsf.LSFConf.MaxJobDispatchPerSession; got != 15000 {
		t.Errorf("LSB_MAX_JOB_DISPATCH_PER_SESSION default: got %v, want 15000", got)
	}
	if got := lsf.LSFConf.ShareDir; got != "" {
		t.Errorf("LSB_SHAREDIR's default names no directory, so it is not filled in: got %q", got)
	}
}

// TestParamValues reads values as written, in their units, and the
// units lsf.conf sets for the dialect.
func TestParamValues(t *testing.T) {
	src := `
-- lsf.conf --
LSF_UNIT_FOR_LIMITS=GB
LSB_SHAREDIR=/shared/work
LSB_MBD_PORT=7000
LSF_MASTER_LIST="hostA hostB"
-- lsb.params --
Begin Parameters
JOB_SCHEDULING_INTERVAL = 500ms 20
JOB_ACCEPT_INTERVAL = 30s
DETECT_IDLE_JOB_AFTER = 90s
EADMIN_TRIGGER_DURATION = 2
CLEAN_PERIOD = 2m
MAX_JOB_PREEMPT = 3
DEFAULT_QUEUE = normal short
End Parameters
`
	p, _ := compileArchive(t, src)
	got, want := p.Parameters, compile.Params{
		MBDSleepTime: time.Minute, SBDSleepTime: 30 * time.Second, CleanPeriod: 2 * time.Minute,
		JobSchedulingInterval: compile.SchedulingInterval{Min: 500 * time.Millisecond, Max: 20 * time.Second, Set: true},
		DetectIdleJobAfter:    90 * time.Second, EadminTriggerDuration: 2 * time.Minute, JobExitRateDuration: 5 * time.Minute,
		MaxJobPreempt: 3, MaxJobRequeue: -1, MaxJobArraySize: 1000, SubTryInterval: time.Minute, DefaultQueue: []string{"normal", "short"}, DefaultProject: "default", ExitRateType: []string{"JOBEXIT_NONLSF"},
		CPUTimeFactor: 0.7, RunTimeFactor: 0.7, RunJobFactor: 3, HistHours: 5 * time.Hour,
		LocalMaxPreexecRetryAction: "SUSPEND", MaxPreexecRetry: 5, RemoteMaxPreexecRetry: 5,
	}
	if acc := got.JobAcceptInterval.Time; acc == nil || *acc != 30 {
		t.Errorf("JOB_ACCEPT_INTERVAL = 30s: got %+v", got.JobAcceptInterval)
	}
	got.JobAcceptInterval = compile.AcceptInterval{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parameters:\n got %+v\nwant %+v", got, want)
	}
	c := p.LSFConf
	if c.UnitForLimits != compile.GB || c.ShareDir != "/shared/work" || c.MBDPort != 7000 || !slices.Equal(c.MasterList, []string{"hostA", "hostB"}) {
		t.Errorf("LSFConf: got %+v", c)
	}
	ol, _ := compileArchive(t, "dialect: openlava\n"+src)
	if ol.LSFConf.UnitForLimits != compile.KB {
		t.Errorf("openlava does not read LSF_UNIT_FOR_LIMITS: got %v, want KB", ol.LSFConf.UnitForLimits)
	}
}

// goTypes are the Go types a field may have for each schema type: those
// of the values package compile gives keys of that type.
var goTypes = map[schema.Type][]reflect.Type{
	schema.Duration: {reflect.TypeFor[time.Duration]()},
	schema.Int:      {reflect.TypeFor[int]()},
	schema.Float:    {reflect.TypeFor[float64]()},
	schema.Bool:     {reflect.TypeFor[bool]()},
	schema.String:   {reflect.TypeFor[string]()},
	schema.Path:     {reflect.TypeFor[string]()},
	schema.Command:  {reflect.TypeFor[string]()},
	schema.Name:     {reflect.TypeFor[string]()},
	schema.Enum:     {reflect.TypeFor[string](), reflect.TypeFor[compile.Unit]()},
	schema.Names:    {reflect.TypeFor[[]string]()},
	schema.EnumList: {reflect.TypeFor[[]string]()},
	schema.Memory:   {reflect.TypeFor[float64]()},
}

// specialTypes are the Go types of the fields of keys with a grammar of
// their own.
var specialTypes = map[string]reflect.Type{
	"JOB_SCHEDULING_INTERVAL":    reflect.TypeFor[compile.SchedulingInterval](),
	"JOB_ACCEPT_INTERVAL":        reflect.TypeFor[compile.AcceptInterval](),
	"MC_PLUGIN_SCHEDULE_ENHANCE": reflect.TypeFor[string](),
	"ACCT_ARCHIVE_TIME":          reflect.TypeFor[string](),
	"LSB_GPU_REQ":                reflect.TypeFor[lang.GPUReq](),
}

// TestParamFields checks the typed parameters against the schema: each
// field names a key of its file, once, with a Go type matching the key's
// type; and the keys that are not fields are exactly those of
// checked-only-keys.txt, the keys lsfc checks but does not act on.
// A key becomes a field before anything outside the checks reads it.
func TestParamFields(t *testing.T) {
	checkedOnly := readCheckedOnly(t)
	for _, c := range []struct {
		kind    lang.FileKind
		section string
		typ     reflect.Type
	}{
		{lang.KindLSBParams, "Parameters", reflect.TypeFor[compile.Params]()},
		{lang.KindLSFConf, "", reflect.TypeFor[compile.Conf]()},
	} {
		ss := schema.Lookup(c.kind).Section(c.section)
		mapped := map[string]bool{}
		for i := 0; i < c.typ.NumField(); i++ {
			f := c.typ.Field(i)
			tag, ok := f.Tag.Lookup("lsf")
			if !ok {
				t.Errorf("%s.%s has no lsf tag", c.typ.Name(), f.Name)
				continue
			}
			key, _, _ := strings.Cut(tag, ",")
			k := ss.Key(key, true)
			if k == nil {
				t.Errorf("%s.%s: %s is not a key of %s", c.typ.Name(), f.Name, key, c.kind)
				continue
			}
			if mapped[key] {
				t.Errorf("%s.%s: %s is held by two fields", c.typ.Name(), f.Name, key)
			}
			mapped[key] = true
			want := goTypes[k.Type]
			if k.Type == schema.Special {
				want = []reflect.Type{specialTypes[key]}
			}
			if !slices.Contains(want, f.Type) {
				t.Errorf("%s.%s is a %s, but %s is of type %s (want one of %v)", c.typ.Name(), f.Name, f.Type, key, k.Type, want)
			}
		}
		for _, name := range ss.KeyNames() {
			switch {
			case mapped[name] && checkedOnly[c.kind][name]:
				t.Errorf("%s %s is a field of %s: remove it from checked-only-keys.txt", c.kind, name, c.typ.Name())
			case !mapped[name] && !checkedOnly[c.kind][name]:
				t.Errorf("%s %s is neither a field of %s nor in checked-only-keys.txt", c.kind, name, c.typ.Name())
			}
			delete(checkedOnly[c.kind], name)
		}
		for name := range checkedOnly[c.kind] {
			t.Errorf("checked-only-keys.txt lists %s %s, which the schema does not have", c.kind, name)
		}
	}
}

// readCheckedOnly returns a copy of the checked-only list of lsb.params
// and lsf.conf, for TestParamFields to tick off.
func readCheckedOnly(t *testing.T) map[lang.FileKind]map[string]bool {
	t.Helper()
	out := map[lang.FileKind]map[string]bool{}
	for _, kind := range []lang.FileKind{lang.KindLSBParams, lang.KindLSFConf} {
		out[kind] = map[string]bool{}
		for key := range compile.CheckedOnlyKeys()[kind] {
			out[kind][key] = true
		}
	}
	return out
}

// TestParamReaders keeps the scheduler and the commands on the typed
// parameters: outside packages compile and lint, which check the files as
// written (positions, #if arms), no code looks a key of lsb.params or
// lsf.conf up by name in Policy.Params or Policy.Conf.
func TestParamReaders(t *testing.T) {
	for _, dir := range []string{"../runtime", "../cmd"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				ix, ok := n.(*ast.IndexExpr)
				if !ok {
					return true
				}
				sel, ok := ix.X.(*ast.SelectorExpr)
				lit, isLit := ix.Index.(*ast.BasicLit)
				if ok && isLit && lit.Kind == token.STRING && (sel.Sel.Name == "Params" || sel.Sel.Name == "Conf") {
					key, _ := strconv.Unquote(lit.Value)
					t.Errorf("%s: reads %s by name from %s: read a field of Policy.Parameters or Policy.LSFConf (add one for the key)",
						fset.Position(ix.Pos()), key, sel.Sel.Name)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestAcctArchiveParams reads the lsb.acct archiving keys in their units,
// and refuses a time of day that is not hh:mm, pointing at it.
func TestAcctArchiveParams(t *testing.T) {
	p, diags := compileArchive(t, `
-- lsb.params --
Begin Parameters
ACCT_ARCHIVE_AGE = 7
ACCT_ARCHIVE_SIZE = 2048
ACCT_ARCHIVE_TIME = 3:30
MAX_ACCT_ARCHIVE_FILE = 4
End Parameters
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := p.Parameters
	if got.AcctArchiveAge != 7*24*time.Hour || got.AcctArchiveSize != 2 || got.AcctArchiveTime != "3:30" || got.MaxAcctArchiveFile != 4 {
		t.Errorf("got age %v, size %v MB, time %q, files %d; want 168h, 2 MB, \"3:30\", 4",
			got.AcctArchiveAge, got.AcctArchiveSize, got.AcctArchiveTime, got.MaxAcctArchiveFile)
	}
	_, diags = compileArchive(t, `
-- lsb.params --
Begin Parameters
ACCT_ARCHIVE_TIME = 24:10
End Parameters
`)
	if s := fmt.Sprint(diags); !strings.Contains(s, `"24:10" is not a time of day hh:mm`) || !strings.Contains(s, "lsb.params:2:21:") {
		t.Errorf("ACCT_ARCHIVE_TIME = 24:10: got %v", diags)
	}
	for in, want := range map[string]int{"00:00": 0, "3:30": 210, "23:59": 1439} {
		if m, ok := compile.ParseClock(in); !ok || m != want {
			t.Errorf("ParseClock(%q) = %d, %v; want %d", in, m, ok, want)
		}
	}
	for _, in := range []string{"", "24:00", "12:60", "1:5", "-1:30", "12:+5", "noon"} {
		if _, ok := compile.ParseClock(in); ok {
			t.Errorf("ParseClock(%q) accepted", in)
		}
	}
}
