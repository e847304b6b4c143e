package core

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/preemption"
)

// CloneShapeError reports how dst fails to be a faithful and independent
// copy of src (nil when it is one), for the clone tests: every field of
// every object reachable from src has its equal in dst at the same place;
// every pointer, map and slice of dst is dst's own, and maps one-to-one to
// src's, except what Clone shares by design (the configurations, the last
// preemption decision, the settings, lists of strings); no two slices of
// dst share memory unless src's do; and the scratch state Clone resets
// (leaf visit memos, the walk copies, the due list, the nodes' hints and
// the sum of what warm read) is reset.
// A field added to the scheduler's objects is checked without changing
// this test.
func CloneShapeError(src, dst *Scheduler) error {
	c := &shapeCheck{fwd: map[shapeKey]uintptr{}, back: map[shapeKey]uintptr{}}
	c.walk("s", reflect.ValueOf(src), reflect.ValueOf(dst))
	c.checkRanges()
	if len(c.errs) > 0 {
		if len(c.errs) > 10 {
			c.errs = append(c.errs[:10], fmt.Sprintf("... and %d more", len(c.errs)-10))
		}
		return fmt.Errorf("the clone is not a faithful independent copy:\n%s", strings.Join(c.errs, "\n"))
	}
	return nil
}

type shapeKey struct {
	t reflect.Type
	p uintptr
}

// sliceRange is the memory a slice of src and its copy in dst may write.
type sliceRange struct {
	path                 string
	src, srcEnd, dst, de uintptr
}

type shapeCheck struct {
	fwd, back map[shapeKey]uintptr
	ranges    []sliceRange
	errs      []string
	shared    int // > 0 below a value the copy may share with the source
}

func (c *shapeCheck) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// sharedPointers are the types Clone shares rather than copies.
var sharedPointers = map[reflect.Type]bool{
	reflect.TypeFor[*config.Conf]():         true,
	reflect.TypeFor[*config.Parsed]():       true,
	reflect.TypeFor[*config.QueueConf]():    true,
	reflect.TypeFor[*preemption.Decision](): true,
}

// resetFields are the fields Clone leaves at their zero value.
var resetFields = map[string]bool{"Scheduler.due": true, "Scheduler.warmth": true, "node.nextC": true, "Scheduler.blk": true, "queue.walk": true, "leafState.memo": true}

func (c *shapeCheck) walk(path string, a, b reflect.Value) {
	switch a.Kind() {
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			c.fail(path, "%v, copied as %v", a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			c.fail(path, "%d, copied as %d", a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			c.fail(path, "%d, copied as %d", a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			c.fail(path, "%v, copied as %v", a.Float(), b.Float())
		}
	case reflect.String:
		if a.String() != b.String() {
			c.fail(path, "%q, copied as %q", a.String(), b.String())
		}
	case reflect.Struct:
		t := a.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			fp := path + "." + f.Name
			switch name := t.Name() + "." + f.Name; {
			case resetFields[name]:
				if !b.Field(i).IsZero() {
					c.fail(fp, "not reset by the clone")
				}
			case name == "Scheduler.set": // immutable: equal, and may be shared
				c.shared++
				c.walk(fp, a.Field(i), b.Field(i))
				c.shared--
			default:
				c.walk(fp, a.Field(i), b.Field(i))
			}
		}
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				c.fail(path, "nil in one only")
			}
			return
		}
		pa, pb := a.Pointer(), b.Pointer()
		if sharedPointers[a.Type()] {
			if pa != pb {
				c.fail(path, "shared by design, but copied")
			}
			return
		}
		if pa == pb {
			c.fail(path, "points into the source")
			return
		}
		if c.seen(path, a.Type(), pa, pb) {
			return
		}
		c.walk(path+"*", a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			c.fail(path, "length %d, copied as %d", a.Len(), b.Len())
			return
		}
		if c.shared == 0 && a.Type().Elem().Kind() != reflect.String && b.Cap() > 0 {
			size := a.Type().Elem().Size()
			c.ranges = append(c.ranges, sliceRange{path: path,
				src: a.Pointer(), srcEnd: a.Pointer() + uintptr(a.Cap())*size,
				dst: b.Pointer(), de: b.Pointer() + uintptr(b.Cap())*size})
			if a.Len() > 0 && a.Pointer() == b.Pointer() {
				c.fail(path, "shares its elements with the source")
				return
			}
		}
		for i := range a.Len() {
			c.walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	case reflect.Array:
		for i := range a.Len() {
			c.walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			c.fail(path, "%d entries, copied as %d", a.Len(), b.Len())
			return
		}
		if a.IsNil() || b.IsNil() {
			return
		}
		if c.shared == 0 && a.Pointer() == b.Pointer() {
			c.fail(path, "the source's map")
			return
		}
		if c.seen(path, a.Type(), a.Pointer(), b.Pointer()) {
			return
		}
		keys := a.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				c.fail(path, "key %v missing from the copy", k)
				continue
			}
			c.walk(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), bv)
		}
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				c.fail(path, "nil in one only")
			}
			return
		}
		c.walk(path, a.Elem(), b.Elem())
	default:
		c.fail(path, "a %s, which the clone check does not know", a.Kind())
	}
}

// seen records that pa (of src) was copied as pb, and reports whether the
// pair was met before; the mapping must be one-to-one, and a copy must not
// be an object of the source.
func (c *shapeCheck) seen(path string, t reflect.Type, pa, pb uintptr) bool {
	ka, kb := shapeKey{t, pa}, shapeKey{t, pb}
	if got, ok := c.fwd[ka]; ok {
		if got != pb {
			c.fail(path, "one object of the source copied twice")
		}
		return true
	}
	if _, ok := c.back[kb]; ok {
		c.fail(path, "two objects of the source copied as one")
		return true
	}
	if _, ok := c.fwd[kb]; ok {
		c.fail(path, "points into the source")
	}
	c.fwd[ka], c.back[kb] = pb, pa
	return false
}

// checkRanges verifies that slices of dst overlap only where their sources
// do: appending to one must not overwrite another.
func (c *shapeCheck) checkRanges() {
	r := c.ranges
	sort.Slice(r, func(i, j int) bool { return r[i].dst < r[j].dst })
	for i := 1; i < len(r); i++ {
		x, y := r[i-1], r[i]
		if y.dst < x.de && !(y.src < x.srcEnd && x.src < y.srcEnd) {
			c.fail(y.path, "shares memory with %s in the copy only", x.path)
		}
	}
}
