package protocol

import (
	"bytes"
	"unsafe"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

// A tick of benchmark 5's cluster changes a thousand of its twenty
// thousand applications, and a node's containers by one or two: a list of
// the frame goes as what changed in it since the last frame the reader
// holds, and the reader copies the rest from that frame.
//
// A list is one of:
//   - listSame: the last frame's list itself (the store kept its views:
//     a selection, an error shown), which the reader shares;
//   - listDelta: its length, then the elements that differ from the last
//     frame's at the same index (all of those past its end), each as the
//     gap since the one before and the element.
const (
	listSame  = 0
	listDelta = 1
)

// listMemory is the writer's memory of one list of the last frame: its
// identity, and each element's encoding (written without the string table,
// so that encodings compare whatever the table holds).
type listMemory struct {
	data unsafe.Pointer
	n    int
	raw  []byte
	at   []int // element i is raw[at[i]:at[i+1]]
}

// same reports whether list is the one remembered.
func (m *listMemory) same(data unsafe.Pointer, n int) bool {
	return m.at != nil && m.n == n && (n == 0 || m.data == data)
}

// writeList writes list as a delta of the last frame's, old, whose
// elements' encodings m remembers; enc writes one element whole (to compare
// encodings), and delta one that changed, given the last frame's element
// at its index (nil past its end), which the reader holds, that element's
// encoding by enc (nil when none) and its own. mine, when not nil, is
// list's own encodings (listOf), known already.
func writeList[T any](w *writer, m, mine *listMemory, list, old []T, enc func(*writer, *T), delta func(w *writer, v, old *T, oldEnc, enc []byte)) {
	data := unsafe.Pointer(unsafe.SliceData(list))
	if m.same(data, len(list)) {
		w.byte(listSame)
		return
	}
	var flat listMemory
	if mine != nil && mine.same(data, len(list)) {
		flat = *mine
	} else {
		flat = listOf(list, enc, len(m.raw))
	}
	var changed []int
	for i := range list {
		if i+1 >= len(m.at) || !bytes.Equal(flat.raw[flat.at[i]:flat.at[i+1]], m.raw[m.at[i]:m.at[i+1]]) {
			changed = append(changed, i)
		}
	}
	w.byte(listDelta)
	w.count(len(list))
	w.count(len(changed))
	prev := -1
	for _, i := range changed {
		w.count(i - prev - 1)
		prev = i
		var o *T
		if i < len(old) {
			o = &old[i]
		}
		var oe []byte
		if i+1 < len(m.at) {
			oe = m.raw[m.at[i]:m.at[i+1]]
		}
		delta(w, &list[i], o, oe, flat.raw[flat.at[i]:flat.at[i+1]])
	}
	*m = flat
}

// listOf is what a writer remembers of list: each element's encoding
// (enc, without the string table), size a guess of their bytes.
func listOf[T any](list []T, enc func(*writer, *T), size int) listMemory {
	flat := writer{b: make([]byte, 0, size)}
	at := make([]int, 0, len(list)+1)
	for i := range list {
		at = append(at, len(flat.b))
		enc(&flat, &list[i])
	}
	at = append(at, len(flat.b))
	return listMemory{data: unsafe.Pointer(unsafe.SliceData(list)), n: len(list), raw: flat.b, at: at}
}

// readList reads what writeList wrote, over last (the last frame's list):
// a new list unless it is the same. dec reads one element over the last
// frame's at its index (fresh: over a zero value, past the end).
func readList[T any](r *reader, last []T, dec func(r *reader, v *T, fresh bool)) []T {
	switch r.byte() {
	case listSame:
		return last
	case listDelta:
	default:
		r.fail(errShort)
		return nil
	}
	n, k := r.uint(), r.count(1)
	// Every element past the last list's end is among the k sent.
	if r.err != nil || n > uint64(len(last)+k) {
		r.fail(errShort)
		return nil
	}
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	copy(out, last)
	if !readChanged(r, int(n), len(last), k, func(i int, fresh bool) { dec(r, &out[i], fresh) }) {
		return nil
	}
	return out
}

// whole adapts an element's writer to writeList's delta: the element
// whole, whatever the reader holds.
func whole[T any](enc func(*writer, *T)) func(w *writer, v, old *T, oldEnc, enc []byte) {
	return func(w *writer, v, _ *T, _, _ []byte) { enc(w, v) }
}

// readWhole adapts an element's reader to readList: over a zero value.
func readWhole[T any](dec func(*reader, *T)) func(r *reader, v *T, fresh bool) {
	return func(r *reader, v *T, _ bool) {
		var zero T
		*v = zero
		dec(r, v)
	}
}

// writeEq writes a short list of comparable elements (a queue's users) as
// what changed from old, index by index: its length, then for each
// element whether it is old's at its index, and if not the element.
func writeEq[T comparable](w *writer, list, old []T, enc func(*writer, *T)) {
	w.count(len(list))
	for i := range list {
		if i < len(old) && list[i] == old[i] {
			w.bool(true)
			continue
		}
		w.bool(false)
		enc(w, &list[i])
	}
}

// readEq reads what writeEq wrote, over old: old itself when every
// element is old's (most queues' users from one step to the next; lists
// are never changed in place, so frames share them), else a new list.
func readEq[T any](r *reader, old []T, dec func(*reader, *T)) []T {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	var out []T // nil while every element so far is old's
	for i := range n {
		if r.bool() {
			if i >= len(old) {
				r.fail(errShort)
				return nil
			}
			if out != nil {
				out[i] = old[i]
			}
			continue
		}
		if out == nil {
			out = make([]T, n)
			copy(out, old[:min(i, len(old))])
		}
		dec(r, &out[i])
	}
	if out == nil {
		if n == len(old) {
			return old
		}
		return old[:n:n]
	}
	return out
}

// Node containers: node i's briefs go as runs over the last frame's node
// i's (a node keeps most of its containers from one step to the next, and
// a new one comes after those it keeps): each run drops some of the old
// ones, keeps the next few, and adds new ones. An unchanged node is one
// run keeping them all.

// writeBriefs writes the frame's container briefs node by node (at is
// the frame's NodeAt), each as runs over last's briefs of the node with
// the same index (lastAt its NodeAt).
func writeBriefs(w *writer, cs []core.ContainerBrief, at []int, last []core.ContainerBrief, lastAt []int) {
	nodes := max(len(at)-1, 0)
	w.count(nodes)
	for i := range nodes {
		var old []core.ContainerBrief
		if i+1 < len(lastAt) {
			old = last[lastAt[i]:lastAt[i+1]]
		}
		writeRuns(w, cs[at[i]:at[i+1]], old)
	}
}

// writeRuns writes list as runs over old: a count of runs, then each as
// the old briefs it drops, the old ones it keeps and the new ones it adds
// (with the briefs). Old briefs after the last run are dropped.
func writeRuns(w *writer, list, old []core.ContainerBrief) {
	type run struct{ drop, keep, from, add int }
	var runs []run
	i, j := 0, 0
	for i < len(list) {
		r := run{from: i}
		if s := indexBrief(old[j:], list[i]); s >= 0 {
			r.drop, j = s, j+s
			for i < len(list) && j < len(old) && old[j] == list[i] {
				r.keep, i, j = r.keep+1, i+1, j+1
			}
			r.from = i
		}
		for i < len(list) && indexBrief(old[j:], list[i]) < 0 {
			r.add, i = r.add+1, i+1
		}
		runs = append(runs, r)
	}
	w.count(len(runs))
	for _, r := range runs {
		w.count(r.drop)
		w.count(r.keep)
		w.count(r.add)
		for k := r.from; k < r.from+r.add; k++ {
			containerBrief(w, &list[k])
		}
	}
}

// indexBrief is the index of c in list, or -1.
func indexBrief(list []core.ContainerBrief, c core.ContainerBrief) int {
	for i := range list {
		if list[i] == c {
			return i
		}
	}
	return -1
}

// readBriefs reads what writeBriefs wrote: the briefs, node after node,
// and where each node's start (NodeAt, one more than the nodes).
func readBriefs(r *reader, last []core.ContainerBrief, lastAt []int) ([]core.ContainerBrief, []int) {
	nodes := r.count(1)
	if nodes == 0 {
		return nil, nil
	}
	at := make([]int, 0, nodes+1)
	cs := make([]core.ContainerBrief, 0, len(last))
	for i := range nodes {
		at = append(at, len(cs))
		var old []core.ContainerBrief
		if i+1 < len(lastAt) {
			old = last[lastAt[i]:lastAt[i+1]]
		}
		j := 0
		for range r.count(3) {
			drop, keep, add := r.uint(), r.uint(), r.count(1)
			if r.err != nil || drop > uint64(len(old)-j) || keep > uint64(len(old)-j)-drop {
				r.fail(errShort)
				return nil, nil
			}
			j += int(drop)
			cs = append(cs, old[j:j+int(keep)]...)
			j += int(keep)
			for range add {
				var c core.ContainerBrief
				readContainerBrief(r, &c)
				cs = append(cs, c)
			}
		}
		if r.err != nil {
			return nil, nil
		}
	}
	at = append(at, len(cs))
	return cs, at
}

// writeUsed writes the nodes' usage (store.Frame.NodeUsed) as what changed
// since last: the number of nodes, then the changed ones, each as its gap
// from the one before and its usage. A tick of ten thousand heartbeats
// changes a fraction of them; the others cost nothing.
func writeUsed(w *writer, used, last []resource.Resource) {
	changed := 0
	for i := range used {
		if i >= len(last) || used[i] != last[i] {
			changed++
		}
	}
	w.count(len(used))
	w.count(changed)
	prev := -1
	for i := range used {
		if i >= len(last) || used[i] != last[i] {
			w.count(i - prev - 1)
			res(w, used[i])
			prev = i
		}
	}
}

// readUsed reads what writeUsed wrote over last: last itself when nothing
// changed, else a new array (frames read are never changed).
func readUsed(r *reader, last []resource.Resource) []resource.Resource {
	n, changed := r.uint(), r.count(3)
	// Every node past the last array's end is among the changed.
	if r.err != nil || n > uint64(len(last)+changed) {
		r.fail(errShort)
		return nil
	}
	if changed == 0 && int(n) == len(last) {
		return last
	}
	if n == 0 {
		return nil
	}
	used := make([]resource.Resource, n)
	copy(used, last)
	if !readChanged(r, int(n), len(last), changed, func(i int, _ bool) { used[i] = readRes(r) }) {
		return nil
	}
	return used
}

// readChanged reads the k changed elements of a list of n over one of
// was (writeList's and writeUsed's): each as its gap from the one before,
// then read by at with its index and whether it is past the old list's
// end. Every element past that end must be among them; false (and the
// reader failed) when the gaps run past n or miss one.
func readChanged(r *reader, n, was, k int, at func(i int, fresh bool)) bool {
	i, past := -1, 0
	for range k {
		gap := r.uint()
		if r.err != nil || gap >= uint64(n-(i+1)) {
			r.fail(errShort)
			return false
		}
		i += int(gap) + 1
		fresh := i >= was
		if fresh {
			past++
		}
		at(i, fresh)
	}
	if past != n-min(n, was) {
		r.fail(errShort)
		return false
	}
	return true
}

// writeReserved writes the nodes' reservations (store.Frame.Reserved).
func writeReserved(w *writer, rs []store.NodeReservation) {
	writeSlice(w, rs, func(w *writer, rv *store.NodeReservation) {
		w.count(rv.Node)
		containerView(w, &rv.Container)
	})
}

// readReserved reads what writeReserved wrote, for nodes of as many nodes:
// each of a node there is, in node order.
func readReserved(r *reader, nodes int) []store.NodeReservation {
	rs := readSlice(r, 2, func(r *reader, rv *store.NodeReservation) {
		node := r.uint()
		if node >= uint64(nodes) {
			r.fail(errShort)
			return
		}
		rv.Node = int(node)
		readContainerView(r, &rv.Container)
	})
	for k := range rs {
		if k > 0 && rs[k].Node <= rs[k-1].Node {
			r.fail(errShort)
			return nil
		}
	}
	return rs
}
