package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// writer appends a message: unsigned and signed varints, float32s by
// their bits, strings and byte strings with their length first. With a
// string table (tab), a string the reader already holds is written as its
// number in the table (see strTable).
type writer struct {
	b   []byte
	tab *strWriter
}

func (w *writer) byte(v byte)    { w.b = append(w.b, v) }
func (w *writer) uint(v uint64)  { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) int(v int64)    { w.b = binary.AppendVarint(w.b, v) }
func (w *writer) f32(v float32)  { w.uint(uint64(math.Float32bits(v))) }
func (w *writer) raw(s string)   { w.uint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *writer) bytes(p []byte) { w.uint(uint64(len(p))); w.b = append(w.b, p...) }
func (w *writer) bool(v bool)    { w.byte(b2u(v)) }
func (w *writer) count(n int)    { w.uint(uint64(n)) }
func (w *writer) strs(s []string) {
	w.count(len(s))
	for _, v := range s {
		w.str(v)
	}
}

func b2u(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// errShort is the error of a message that ends too soon or holds a value
// out of range.
var errShort = errors.New("protocol: a message cut short or corrupt")

// errNoBase is the error of a frame written as a delta of a frame the
// reader does not hold.
var errNoBase = errors.New("protocol: a frame that changes a frame this page does not hold")

// reader reads what writer wrote. The first error sticks: every later
// read returns zero values, and err says what went wrong, so that a
// decoder reads on and checks once.
type reader struct {
	b   []byte
	err error
	tab *strReader
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail(errShort)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uint32() uint32 {
	v := r.uint()
	if v > math.MaxUint32 {
		r.fail(errShort)
		return 0
	}
	return uint32(v)
}

// small reads an int (steps, limits, indexes: those that index are
// checked where they are read).
func (r *reader) small() int {
	v := r.int()
	if int64(int(v)) != v {
		r.fail(errShort)
		return 0
	}
	return int(v)
}

func (r *reader) f32() float32 { return math.Float32frombits(r.uint32()) }
func (r *reader) bool() bool   { return r.byte() != 0 }

// count reads a length of elements at least min bytes each: one longer
// than what is left of the message is an error, so that a corrupt length
// never allocates much.
func (r *reader) count(min int) int {
	v := r.uint()
	if v > uint64(len(r.b)/max(min, 1)) {
		r.fail(errShort)
		return 0
	}
	return int(v)
}

func (r *reader) bytes() []byte {
	n := r.count(1)
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) raw() string { return string(r.bytes()) }

func (r *reader) strs() []string {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// writeSlice writes a count then each element with enc.
func writeSlice[T any](w *writer, list []T, enc func(*writer, *T)) {
	w.count(len(list))
	for i := range list {
		enc(w, &list[i])
	}
}

// readSlice reads what writeSlice wrote, each element with dec into a
// zero value (nil for none); min is the fewest bytes an element takes.
func readSlice[T any](r *reader, min int, dec func(*reader, *T)) []T {
	n := r.count(min)
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		dec(r, &out[i])
	}
	return out
}

// header reads the version and the kind of message.
func (r *reader) header(kind byte) error {
	if v := r.byte(); r.err == nil && v != Version {
		return fmt.Errorf("%w (version %d; this page reads %d): reload the page", ErrVersion, v, Version)
	}
	if k := r.byte(); r.err == nil && k != kind {
		return fmt.Errorf("protocol: a message of kind %q where %q was expected", k, kind)
	}
	return r.err
}

// end reports the first error, or bytes left over after the message.
func (r *reader) end() error {
	if r.err == nil && len(r.b) > 0 {
		return fmt.Errorf("protocol: %d bytes after the end of the message", len(r.b))
	}
	return r.err
}

// sortedKeys returns a map's keys in order (maps are written in order, so
// that the same frame is the same bytes).
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
