package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestStoredFieldsNamed checks that every field a record stores, down
// through the job images and modifications it carries, has an explicit
// JSON name: a Go field renamed must not silently change the log's
// format.
func TestStoredFieldsNamed(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		if _, ok := reflect.New(ty).Interface().(interface{ MarshalJSON() ([]byte, error) }); ok {
			return
		}
		if _, ok := reflect.New(ty).Interface().(interface{ MarshalText() ([]byte, error) }); ok {
			return
		}
		for i := range ty.NumField() {
			f := ty.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if name == "" && tag != "-" {
				t.Errorf("%s.%s (%s) has no JSON name", path, f.Name, ty)
			}
			if tag != "-" {
				walk(f.Type, path+"."+f.Name)
			}
		}
	}
	walk(reflect.TypeOf(Record{}), "Record")
}

// TestKindsApplied checks that apply handles every kind of the table,
// and refuses a kind it does not know and a format newer than its own.
func TestKindsApplied(t *testing.T) {
	c, _ := replayRelease(t)
	for _, k := range Kinds() {
		_, err := apply(c, Record{Type: k.Kind, Job: 7, Version: FormatVersion})
		if err != nil && (strings.Contains(err.Error(), "not applied") || strings.Contains(err.Error(), "unknown record type")) {
			t.Errorf("kind %s: %v", k.Kind, err)
		}
	}
	if _, err := apply(c, Record{Type: "renamed"}); err == nil || !strings.Contains(err.Error(), `unknown record type "renamed"`) {
		t.Errorf("unknown kind: %v, want an error naming it", err)
	}
	_, err := apply(c, Record{Type: KindFormat, Version: FormatVersion + 1})
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("format version %d: %v, want it refused as newer", FormatVersion+1, err)
	}
}

// TestRecordsDocumented checks that RECORDS.md, beside the event log's
// framing, has a row for every kind of record.
func TestRecordsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "eventlog", "RECORDS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		if !strings.Contains(string(doc), "| `"+string(k.Kind)+"` |") {
			t.Errorf("RECORDS.md has no row for records of kind %q", k.Kind)
		}
	}
}
