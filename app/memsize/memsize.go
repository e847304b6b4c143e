// Package memsize counts the bytes of memory Go values reach, natively and
// under WebAssembly alike: the playground's measure of what its history of
// steps holds against what one state holds (issue 32), where the runtime's
// own figures cannot tell one from the other.
//
// A Counter walks values by reflection and counts each byte of memory once,
// however many values reach it: the memory a pointer, a slice, a string or
// a map reaches is kept as ranges of addresses, merged when counted, so
// that sub-slices of one block and pointers into it count the block once.
// Maps are estimated from their length and their entries' sizes (their
// buckets are not reachable by reflection); memory that functions and
// channels reach is not counted. The figure is what the values need, not
// what the allocator rounds it up to.
package memsize

import (
	"reflect"
	"sort"
	"unsafe"
)

// Counter counts the bytes values reach, each byte once across all the
// values added. Its zero value is ready to use.
type Counter struct {
	spans []span
	// seen are the objects already walked, by address and type.
	seen map[visit]bool
	// pointers caches hasPointers by type.
	pointers map[reflect.Type]bool
	// todo are the values still to walk: a list, not recursion, so that
	// a long chain of pointers does not overflow the stack (under
	// WebAssembly, the browser's).
	todo []reflect.Value
}

type span struct{ from, to uintptr }

type visit struct {
	at uintptr
	t  reflect.Type
}

// Add walks what v reaches (v itself, when it is a pointer, slice, map or
// string) and returns the bytes it reaches that the values added before
// did not.
func (c *Counter) Add(v any) int64 {
	before := c.Bytes()
	if v != nil {
		c.todo = append(c.todo, reflect.ValueOf(v))
		for len(c.todo) > 0 {
			next := c.todo[len(c.todo)-1]
			c.todo = c.todo[:len(c.todo)-1]
			c.walk(next)
		}
	}
	return c.Bytes() - before
}

// Bytes is what the values added reach together.
func (c *Counter) Bytes() int64 {
	// sort.Slice, not slices.SortFunc: the browser build has its code
	// already, where an instance of SortFunc for span would add to
	// app.wasm for a measure of the benchmarks.
	sort.Slice(c.spans, func(i, j int) bool { return c.spans[i].from < c.spans[j].from })
	out := c.spans[:0]
	for _, s := range c.spans {
		if n := len(out); n > 0 && s.from <= out[n-1].to {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	c.spans = out
	var total int64
	for _, s := range out {
		total += int64(s.to - s.from)
	}
	return total
}

func (c *Counter) add(at, size uintptr) {
	if at != 0 && size > 0 {
		c.spans = append(c.spans, span{at, at + size})
	}
}

// first reports whether the object of type t at at is walked for the
// first time (and marks it walked).
func (c *Counter) first(at uintptr, t reflect.Type) bool {
	if c.seen == nil {
		c.seen = map[visit]bool{}
	}
	k := visit{at, t}
	if c.seen[k] {
		return false
	}
	c.seen[k] = true
	return true
}

// walk counts the memory v refers to (not v's own, which its holder
// counts), leaving the values it refers to in todo.
func (c *Counter) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		at, t := v.Pointer(), v.Type().Elem()
		if !c.first(at, t) {
			return
		}
		c.add(at, t.Size())
		c.push(v.Elem())
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		t := v.Type().Elem()
		at := v.Pointer()
		c.add(at, uintptr(v.Cap())*t.Size())
		if !c.hasPointers(t) || !c.first(at, v.Type()) {
			return
		}
		for i := range v.Len() {
			c.push(v.Index(i))
		}
	case reflect.String:
		s := v.String()
		c.add(uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(len(s)))
	case reflect.Array:
		if c.hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				c.push(v.Index(i))
			}
		}
	case reflect.Struct:
		if !c.hasPointers(v.Type()) {
			return
		}
		for i := range v.NumField() {
			c.push(v.Field(i))
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		default:
			// A value that is not a pointer is boxed; its box is not
			// reachable by address, so it is counted apart.
			c.add(boxAddr(v), e.Type().Size())
		}
		c.push(e)
	case reflect.Map:
		if v.IsNil() || !c.first(v.Pointer(), v.Type()) {
			return
		}
		t := v.Type()
		// Go's maps hold their entries in groups of eight slots with a
		// control word, filled to at most seven eighths.
		entry := t.Key().Size() + t.Elem().Size() + 1
		c.add(v.Pointer(), 48+uintptr(v.Len())*entry*8/7)
		if c.hasPointers(t.Key()) || c.hasPointers(t.Elem()) {
			it := v.MapRange()
			for it.Next() {
				c.push(it.Key())
				c.push(it.Value())
			}
		}
	}
}

// push leaves v for walk.
func (c *Counter) push(v reflect.Value) { c.todo = append(c.todo, v) }

// boxAddr is the address of the box an interface holding a value that is
// not a pointer refers to.
func boxAddr(v reflect.Value) uintptr {
	if !v.CanAddr() {
		return 0
	}
	p := (*[2]uintptr)(unsafe.Pointer(v.UnsafeAddr()))
	return p[1]
}

// hasPointers reports whether a value of type t can refer to other memory.
func (c *Counter) hasPointers(t reflect.Type) bool {
	if has, ok := c.pointers[t]; ok {
		return has
	}
	if c.pointers == nil {
		c.pointers = map[reflect.Type]bool{}
	}
	has := refers(t)
	c.pointers[t] = has
	return has
}

// refers reports whether a value of type t can refer to other memory.
func refers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.String, reflect.Map, reflect.Interface, reflect.Func,
		reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && refers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if refers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
