package units_test

import (
	"math"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile/units"
)

func TestParseUnit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want units.Unit
	}{
		{"KB", units.KB}, {"MB", units.MB}, {"GB", units.GB}, {"TB", units.TB},
		{"PB", units.PB}, {"EB", units.EB}, {"ZB", units.ZB},
		{"kb", units.KB}, {"Gb", units.GB}, {" tb ", units.TB},
	} {
		got, err := units.ParseUnit(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseUnit(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "K", "M", "B", "KIB", "GM", "YB", "1GB", "G B", "MBB"} {
		if got, err := units.ParseUnit(in); err == nil {
			t.Errorf("ParseUnit(%q) = %v, want an error", in, got)
		} else if !strings.Contains(err.Error(), "want KB, MB, GB, TB, PB, EB or ZB") {
			t.Errorf("ParseUnit(%q) error %q does not list the units", in, err)
		}
	}
}

func TestUnitString(t *testing.T) {
	want := []string{"KB", "MB", "GB", "TB", "PB", "EB", "ZB"}
	for u := units.KB; u <= units.ZB; u++ {
		if got := u.String(); got != want[u] {
			t.Errorf("Unit(%d).String() = %q, want %q", int(u), got, want[u])
		}
		if back, err := units.ParseUnit(u.String()); err != nil || back != u {
			t.Errorf("ParseUnit(%q) = %v, %v; want %v", u.String(), back, err, u)
		}
	}
	if got := units.Unit(7).String(); got != "Unit(7)" {
		t.Errorf("Unit(7).String() = %q", got)
	}
	if got := units.Unit(-1).String(); got != "Unit(-1)" {
		t.Errorf("Unit(-1).String() = %q", got)
	}
	var zero units.Unit
	if zero != units.KB {
		t.Errorf("the zero Unit is %v, want KB (LSF's default)", zero)
	}
}

func TestUnitMegabytes(t *testing.T) {
	want := []float64{1.0 / 1024, 1, 1024, 1 << 20, 1 << 30, 1 << 40, 1 << 50}
	for u := units.KB; u <= units.ZB; u++ {
		if got := u.Megabytes(); got != want[u] {
			t.Errorf("%v.Megabytes() = %g, want %g", u, got, want[u])
		}
	}
	if got := units.Unit(9).Megabytes(); !math.IsNaN(got) {
		t.Errorf("Unit(9).Megabytes() = %g, want NaN", got)
	}
}

func TestParseMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		def  units.Unit
		want float64
	}{
		{"512", units.MB, 512},
		{"512", units.KB, 0.5},
		{"2", units.GB, 2048},
		{"0", units.MB, 0},
		{"1.5", units.GB, 1536},
		{".5", units.GB, 512},
		{"5.", units.MB, 5},
		{"007", units.MB, 7},
		{"1024K", units.MB, 1},
		{"1024KB", units.GB, 1},
		{"1k", units.MB, 1.0 / 1024},
		{"512M", units.GB, 512},
		{"512mb", units.GB, 512},
		{"512Mb", units.KB, 512},
		{"8G", units.MB, 8192},
		{"8g", units.MB, 8192},
		{"8GB", units.KB, 8192},
		{"15.6G", units.MB, 15.6 * 1024},
		{"2T", units.MB, 2 << 20},
		{"2tb", units.MB, 2 << 20},
		{"1P", units.MB, 1 << 30},
		{"1PB", units.MB, 1 << 30},
		{"1E", units.MB, 1 << 40},
		{"1eb", units.MB, 1 << 40},
		{"1Z", units.MB, 1 << 50},
		{"1ZB", units.MB, 1 << 50},
		{"  64G\t", units.MB, 65536},
	} {
		got, err := units.ParseMemory(tc.in, tc.def)
		if err != nil || math.Abs(got-tc.want) > 1e-9*math.Max(1, tc.want) {
			t.Errorf("ParseMemory(%q, %v) = %g, %v; want %g", tc.in, tc.def, got, err, tc.want)
		}
	}
}

func TestParseMemoryErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		def  units.Unit
		want string
	}{
		{"", units.MB, "empty memory amount"},
		{"   ", units.MB, "empty memory amount"},
		{"-5", units.MB, `negative memory amount "-5"`},
		{"-5G", units.MB, `negative memory amount "-5G"`},
		{"-0", units.MB, `negative memory amount "-0"`},
		{"-.5M", units.MB, `negative memory amount "-.5M"`},
		{"NaN", units.MB, `memory amount "NaN" is not a finite number`},
		{"nan", units.MB, `memory amount "nan" is not a finite number`},
		{"Inf", units.MB, `memory amount "Inf" is not a finite number`},
		{"+Inf", units.MB, `memory amount "+Inf" is not a finite number`},
		{"-infinity", units.MB, `memory amount "-infinity" is not a finite number`},
		{".inf", units.MB, `memory amount ".inf" is not a finite number`},
		{"G", units.MB, `memory amount "G" does not start with a number`},
		{"+5", units.MB, `memory amount "+5" does not start with a number`},
		{".", units.MB, `memory amount "." does not start with a number`},
		{"-", units.MB, `memory amount "-" does not start with a number`},
		{"abc", units.MB, `memory amount "abc" does not start with a number`},
		{"8GM", units.MB, `unknown unit "GM" in memory amount "8GM" (want K, M, G, T, P, E or Z, optionally followed by B)`},
		{"8X", units.MB, `unknown unit "X" in memory amount "8X"`},
		{"8B", units.MB, `unknown unit "B" in memory amount "8B"`},
		{"8KiB", units.MB, `unknown unit "KiB" in memory amount "8KiB"`},
		{"8 G", units.MB, `unknown unit " G" in memory amount "8 G"`},
		{"8GB junk", units.MB, `unknown unit "GB junk" in memory amount "8GB junk"`},
		{"1.2.3", units.MB, `unknown unit ".3" in memory amount "1.2.3"`},
		{"1e3", units.MB, `unknown unit "e3" in memory amount "1e3"`},
		{"0x10", units.MB, `unknown unit "x10" in memory amount "0x10"`},
		{"1_000", units.MB, `unknown unit "_000" in memory amount "1_000"`},
		{"5%", units.MB, `unknown unit "%" in memory amount "5%"`},
		{"1" + strings.Repeat("0", 400), units.MB, "is too large"},
		{"1" + strings.Repeat("0", 300) + "Z", units.MB, "is too large"},
		{"8", units.Unit(12), "invalid default unit Unit(12)"},
	} {
		got, err := units.ParseMemory(tc.in, tc.def)
		if err == nil {
			t.Errorf("ParseMemory(%q, %v) = %g, want an error containing %q", tc.in, tc.def, got, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMemory(%q, %v) error = %q, want it to contain %q", tc.in, tc.def, err, tc.want)
		}
		if got != 0 {
			t.Errorf("ParseMemory(%q, %v) = %g with an error, want 0", tc.in, tc.def, got)
		}
	}
}

func TestFormatMemory(t *testing.T) {
	for _, tc := range []struct {
		mb   float64
		want string
	}{
		{0, "0M"},
		{512, "512M"},
		{1, "1M"},
		{0.5, "512K"},
		{1.0 / 1024, "1K"},
		{1024, "1G"},
		{1536, "1.5G"},
		{16384, "16G"},
		{15.6 * 1024, "15.6G"},
		{1500, "1500M"},
		{31993, "31993M"},
		{7807, "7807M"},
		{1000, "1000M"},
		{1023.5, "1023.5M"},
		{15.625, "16000K"},   // a limit of 16000 KB: exact in K
		{31458.2, "30.7G"},   // not exact in G, too long in M: rounded
		{123456.7, "120.6G"}, // ditto
		{1 << 20, "1T"},
		{2.9 * (1 << 20), "2.9T"},
		{1.2 * (1 << 20), "1.2T"},
		{1 << 30, "1P"},
		{1 << 40, "1E"},
		{1 << 50, "1Z"},
		{1 << 60, "1024Z"},
		{196608, "192G"},
		{-512, "-512M"},
		{-1536, "-1.5G"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Inf"},
		{math.Inf(-1), "-Inf"},
	} {
		if got := units.FormatMemory(tc.mb); got != tc.want {
			t.Errorf("FormatMemory(%g) = %q, want %q", tc.mb, got, tc.want)
		}
	}
}

func TestFormatMemoryPair(t *testing.T) {
	for _, tc := range []struct {
		a, b         float64
		wantA, wantB string
	}{
		{4096, 1000, "4G", "0.977G"}, // the other side in the first's unit
		{2000, 1000, "2000M", "1000M"},
		{300000, 8192, "292.969G", "8G"}, // rounded to three decimals, not one
		{0.5, 2048, "512K", "2097152K"},
		{1 << 20, 0, "1T", "0T"},
		{1024, math.NaN(), "1G", "NaN"},
	} {
		a, b := units.FormatMemoryPair(tc.a, tc.b)
		if a != tc.wantA || b != tc.wantB {
			t.Errorf("FormatMemoryPair(%g, %g) = %q, %q; want %q, %q", tc.a, tc.b, a, b, tc.wantA, tc.wantB)
		}
	}
	if got := units.FormatMemoryIn(175308.8, units.MB); got != "175308.8M" {
		t.Errorf("FormatMemoryIn(175308.8, MB) = %q, want 175308.8M", got)
	}
}

// TestFormatMemoryRoundTrip checks that what FormatMemory prints reads back
// as the same amount, up to its one-decimal rounding.
func TestFormatMemoryRoundTrip(t *testing.T) {
	for _, mb := range []float64{0.25, 1, 3, 100, 1023, 1024, 1025, 4096, 31993, 31458.2, 65536, 123456.7, 1 << 21, 5e7, 3.3e12, 1e17} {
		s := units.FormatMemory(mb)
		back, err := units.ParseMemory(s, units.MB)
		if err != nil {
			t.Errorf("ParseMemory(FormatMemory(%g) = %q): %v", mb, s, err)
			continue
		}
		if math.Abs(back-mb) > 0.05*mb {
			t.Errorf("FormatMemory(%g) = %q reads back as %g", mb, s, back)
		}
	}
}
