package daemon

import (
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
