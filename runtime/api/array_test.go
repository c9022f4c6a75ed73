package api

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseArraySpec(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		indices []int
		limit   int
		back    string
	}{
		{"plain", "plain", nil, 0, "plain"},
		{"with space and %", "with space and %", nil, 0, "with space and %"},
		{"a[1]", "a", []int{1}, 0, "a[1]"},
		{"a[1-5]", "a", []int{1, 2, 3, 4, 5}, 0, "a[1-5]"},
		{"a[1-10:3]", "a", []int{1, 4, 7, 10}, 0, "a[1-10:3]"},
		{"a[1-6:2,2,8]%2", "a", []int{1, 2, 3, 5, 8}, 2, "a[1-6:2,2,8]%2"},
		{"my.job-1_x[3-3]", "my.job-1_x", []int{3}, 0, "my.job-1_x[3]"},
		{"a[ 1 , 4 ]", "a", []int{1, 4}, 0, "a[1,4]"},
		{"a[1-1000]", "a", nil, 0, "a[1-1000]"},
	}
	for _, tt := range tests {
		got, err := ParseArraySpec(tt.in, 1000)
		if err != nil {
			t.Errorf("ParseArraySpec(%q): %v", tt.in, err)
			continue
		}
		if got.Name != tt.name || got.Limit != tt.limit || got.String() != tt.back {
			t.Errorf("ParseArraySpec(%q) = %q limit %d (%q), want %q limit %d (%q)", tt.in, got.Name, got.Limit, got.String(), tt.name, tt.limit, tt.back)
		}
		if tt.indices != nil && !slices.Equal(got.Indices(), tt.indices) {
			t.Errorf("ParseArraySpec(%q).Indices() = %v, want %v", tt.in, got.Indices(), tt.indices)
		}
	}
	if s, _ := ParseArraySpec("a[1-10:3,20]", 1000); s.End() != 20 || s.Step() != 3 {
		t.Errorf("End, Step of a[1-10:3,20] = %d, %d; want 20, 3", s.End(), s.Step())
	}
}

func TestParseArraySpecErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
		text string
	}{
		{"a[5-1]", ErrBadJobName, "the end is below the start"},
		{"a[1-", ErrBadJobName, "no closing"},
		{"a[1-]", ErrBadJobName, "the end is not a positive integer"},
		{"a[]", ErrBadJobName, "empty"},
		{"a[0]", ErrBadJobName, "not a positive integer"},
		{"a[-3]", ErrBadJobName, "the start is not"},
		{"a[1-5:0]", ErrBadJobName, "the step"},
		{"a[1-5:]", ErrBadJobName, "the step"},
		{"a[1,,2]", ErrBadJobName, "the start"},
		{"a[1]x", ErrBadJobName, "after ']'"},
		{"a[1]%", ErrBadJobName, "after ']'"},
		{"a[1]%0", ErrBadJobName, "after ']'"},
		{"a[1]%-2", ErrBadJobName, "after ']'"},
		{"[1-3]", ErrBadJobName, "no name"},
		{"a b[1-3]", ErrBadJobName, "letters, digits"},
		{"a[1-1001]", ErrIndexTooLarge, "MAX_JOB_ARRAY_SIZE (1000)"},
		{"a[1001]", ErrIndexTooLarge, "MAX_JOB_ARRAY_SIZE"},
		{"a[99999999999999999999]", ErrIndexTooLarge, "MAX_JOB_ARRAY_SIZE"},
		{"x]", ErrBadJobName, "cannot hold"},
		{"a[" + strings.Repeat("1,", 200) + "1]", ErrBadJobName, "longer than 255"},
	}
	for _, tt := range tests {
		_, err := ParseArraySpec(tt.in, 1000)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("ParseArraySpec(%q) error = %v, want %v saying %q", tt.in, err, tt.want, tt.text)
		}
	}
	msg := ArraySpecMessage("a[5-1]", func() error { _, err := ParseArraySpec("a[5-1]", 1000); return err }())
	if want := "-J \"a[5-1]\": \"5-1\": the end is below the start\nBad job name. Job not submitted."; msg != want {
		t.Errorf("ArraySpecMessage = %q, want %q", msg, want)
	}
}

func TestElementID(t *testing.T) {
	id := ElementID(123, 45)
	if job, idx := SplitID(id); job != 123 || idx != 45 {
		t.Errorf("SplitID(ElementID(123, 45)) = %d, %d", job, idx)
	}
	if ElementID(7, 0) != 7 || FormatJobID(7) != "7" || FormatJobID(id) != "123[45]" {
		t.Errorf("plain job ids change: %d %q %q", ElementID(7, 0), FormatJobID(7), FormatJobID(id))
	}
	if job, idx := SplitID(ElementID(999999, MaxArrayIndex)); job != 999999 || idx != MaxArrayIndex {
		t.Errorf("the largest index does not round-trip: %d %d", job, idx)
	}
}

func TestParseJobIDList(t *testing.T) {
	tests := []struct {
		in      string
		id      int64
		indices []int
	}{
		{"12", 12, nil},
		{"12[3]", 12, []int{3}},
		{"12[1-5:2,9]", 12, []int{1, 3, 5, 9}},
	}
	for _, tt := range tests {
		id, indices, err := ParseJobIDList(tt.in)
		if err != nil || id != tt.id || !slices.Equal(indices, tt.indices) {
			t.Errorf("ParseJobIDList(%q) = %d %v %v, want %d %v", tt.in, id, indices, err, tt.id, tt.indices)
		}
	}
	for _, in := range []string{"", "x", "0", "12[", "12[]", "12[0]", "12[3-1]", "12[1]x", "[1]", "-1", "12[1-20000000]", "4294967296"} {
		if _, _, err := ParseJobIDList(in); err == nil || !strings.HasSuffix(err.Error(), ": Illegal job ID.") {
			t.Errorf("ParseJobIDList(%q) error = %v, want Illegal job ID", in, err)
		}
	}
}

// FuzzParseArraySpec checks that any -J value is read without a panic,
// that what is accepted writes back to a spec read the same, and that
// its indices are in range, increasing and within the limit.
func FuzzParseArraySpec(f *testing.F) {
	for _, s := range []string{"a[1-1000:2,2000]%50", "a[5-1]", "a[1-", "x", "a[1,2,3]%1", "a[1-10:3]", "12[1-5]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const limit = 5000
		spec, err := ParseArraySpec(s, limit)
		_, _, _ = ParseJobIDList(s)
		if err != nil {
			if !errors.Is(err, ErrBadJobName) && !errors.Is(err, ErrIndexTooLarge) {
				t.Fatalf("ParseArraySpec(%q): error %v is neither kind", s, err)
			}
			_ = ArraySpecMessage(s, err)
			return
		}
		if !spec.IsArray() {
			return
		}
		again, err := ParseArraySpec(spec.String(), limit)
		if err != nil || again.String() != spec.String() {
			t.Fatalf("ParseArraySpec(%q) wrote %q, which reads back as %q, %v", s, spec.String(), again.String(), err)
		}
		idx := spec.Indices()
		for i, n := range idx {
			if n < 1 || n > limit || i > 0 && n <= idx[i-1] {
				t.Fatalf("ParseArraySpec(%q): indices %v out of order or range", s, idx)
			}
		}
		if len(idx) == 0 || idx[len(idx)-1] != spec.End() {
			t.Fatalf("ParseArraySpec(%q): End %d, indices end at %v", s, spec.End(), idx)
		}
	})
}
