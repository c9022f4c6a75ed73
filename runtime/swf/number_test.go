package swf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseFloatExact checks the fast path of parseFloat against strconv,
// bit for bit, on random decimals of every length around its limits.
func TestParseFloatExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		digits := 1 + rng.IntN(20)
		s := ""
		for range digits {
			s += string(rune('0' + rng.IntN(10)))
		}
		if k := rng.IntN(digits + 1); k < digits && rng.IntN(2) == 0 {
			s = s[:k] + "." + s[k:]
		}
		if rng.IntN(4) == 0 {
			s = "-" + s
		}
		got, msg := parseFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if msg != "" || err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%q) = %v, %q; strconv: %v, %v", s, got, msg, want, err)
		}
	}
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int
		msg  string
	}{
		{"0", 0, ""},
		{"-1", -1, ""},
		{"+7", 7, ""},
		{"32.00", 32, ""},
		{"1e3", 1000, ""},
		{"000000000000000000042", 42, ""},
		{"123456789012345", 123456789012345, ""},
		{"9007199254740993", 9007199254740993, ""},
		{strconv.Itoa(math.MinInt), math.MinInt, ""},
		{strconv.Itoa(math.MaxInt) + "0", 0, "is out of range"},
		{"9007199254740993.0", 0, "is out of range"},
		{"9007199254740991.0", 9007199254740991, ""},
		{"4.5", 0, "is not an integer"},
		{"", 0, "is not a number"},
		{"1-", 0, "is not a number"},
		{"--1", 0, "is not a number"},
		{"1.2.3", 0, "is not a number"},
		{"١", 0, "is not a number"},
	}
	for _, tt := range tests {
		got, msg := parseInt([]byte(tt.in))
		if got != tt.want || msg != tt.msg {
			t.Errorf("parseInt(%q) = %d, %q; want %d, %q", tt.in, got, msg, tt.want, tt.msg)
		}
	}
}

func ExampleFieldName() {
	fmt.Println(FieldName(5), FieldName(18), FieldName(19) == "")
	// Output: allocated processors think time true
}
