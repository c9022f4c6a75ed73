package main

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lsfc/lsfc/runtime/api"
)

// textSafe returns v (the daemon's answer: a job, a list of queues, ...)
// with its every string, map keys included, shown by escapeText, for the
// text layouts: a name a user chose cannot add a row to a listing or send
// a terminal control sequence. What holds a string that changes is
// copied, the rest is shared with v; JSON output is written from the
// answer itself.
func textSafe[T any](v T) T {
	out, changed := safeValue(reflect.ValueOf(&v).Elem())
	if !changed {
		return v
	}
	return out.Interface().(T)
}

// safeValue returns v with its strings escaped, and whether any was: when
// none was, v itself. Unexported fields (those of a time.Time) are copied
// as they are.
func safeValue(v reflect.Value) (reflect.Value, bool) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if e := escapeText(s); e != s {
			return reflect.ValueOf(e).Convert(v.Type()), true
		}
	case reflect.Struct:
		var n reflect.Value
		for _, i := range textFields(v.Type()) {
			f, changed := safeValue(v.Field(i))
			if !changed {
				continue
			}
			if !n.IsValid() {
				n = reflect.New(v.Type()).Elem()
				n.Set(v)
			}
			n.Field(i).Set(f)
		}
		if n.IsValid() {
			return n, true
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return v, false
		}
		var n reflect.Value
		for i := range v.Len() {
			e, changed := safeValue(v.Index(i))
			if !changed {
				continue
			}
			if !n.IsValid() {
				if v.Kind() == reflect.Slice {
					n = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
					reflect.Copy(n, v)
				} else {
					n = reflect.New(v.Type()).Elem()
					n.Set(v)
				}
			}
			n.Index(i).Set(e)
		}
		if n.IsValid() {
			return n, true
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := safeValue(v.Elem())
		if !changed {
			return v, false
		}
		if v.Kind() == reflect.Interface {
			n := reflect.New(v.Type()).Elem()
			n.Set(e)
			return n, true
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(e)
		return n, true
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		changed := false
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			k, kc := safeValue(it.Key())
			e, ec := safeValue(it.Value())
			changed = changed || kc || ec
			n.SetMapIndex(k, e)
		}
		if changed {
			return n, true
		}
	}
	return v, false
}

// textFieldsOf holds, for each struct type safeValue has met, textFields'
// answer.
var textFieldsOf sync.Map // reflect.Type → []int

// textFields returns the indices of the exported fields of the struct
// type t that may hold a string: a listing of a thousand jobs is escaped
// without looking at each job's numbers.
func textFields(t reflect.Type) []int {
	if f, ok := textFieldsOf.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && mayHoldText(f.Type, 0) {
			out = append(out, i)
		}
	}
	textFieldsOf.Store(t, out)
	return out
}

// mayHoldText reports whether a value of type t may hold a string; depth
// bounds the look into types that hold themselves.
func mayHoldText(t reflect.Type, depth int) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return depth > 8 || mayHoldText(t.Elem(), depth+1)
	case reflect.Struct:
		if depth > 8 {
			return true
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && mayHoldText(f.Type, depth+1) {
				return true
			}
		}
		return false
	}
	return true // strings, maps, interfaces and the rest
}

// textJobs returns textSafe(jobs), each command first put on one line as
// the layouts show it (oneLine), so that a job script's lines are joined
// by ";" rather than shown as \n.
func textJobs(jobs []api.Job) []api.Job {
	jobs = slices.Clone(jobs)
	for i := range jobs {
		jobs[i].Command = oneLine(jobs[i].Command)
	}
	return textSafe(jobs)
}

// escapeText returns s with what a terminal would act on shown as text,
// as ls -b does: a newline, carriage return or tab as \n, \r, \t, another
// control character or a byte that is not UTF-8 as a backslash and three
// octal digits (ESC is \033), and the Unicode controls and bidirectional
// overrides as \u and four hex digits. Other text, backslashes included,
// is left as it is, so escaping twice changes nothing more.
func escapeText(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unsafeRune(r, size):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError || r < 0x80:
			fmt.Fprintf(&b, `\%03o`, s[i])
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports whether the rune r, size bytes long in its string,
// must be escaped: a byte that is not UTF-8, a C0 or C1 control or DEL,
// a line or paragraph separator, or a bidirectional control.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069: // bidirectional controls
		return true
	}
	return false
}
