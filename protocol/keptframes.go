package protocol

import "yarnplay/app/store"

// The frames kept to go back without replaying are the page's frames
// (Server.pageFrame: no container but the opened node's, the few
// applications shown), and all but the newest are kept as bytes: each as
// a delta of the frame kept after it, written as frames cross to the page
// (FrameWriter). At benchmark 5's scale a page's frame holds some 6.5 MB
// of views that a tick changes almost all of (every leaf's users, most
// nodes), while its delta of the next step's is about 250 KB: ten steps
// back cost less than one frame, and reading one back a few milliseconds.

// keptTable is the string table of the kept frames' deltas: one table
// shared by them all, whose strings are also listed by number, so that
// any delta reads back on its own (with the table as it was when it was
// written).
type keptTable struct {
	ids  map[string]uint64
	strs []string
}

// full reports whether the table holds as many strings as a table may
// (strTableMax): the kept deltas then go, and the table starts again.
func (t *keptTable) full() bool { return len(t.strs) >= strTableMax }

// encodeBack writes f as a delta of base, the frame kept after it, given
// what a writer remembers of each (memoryOf: f's, computed when it was
// kept, saves encoding it twice): the bytes, and how many strings the
// table held before them (their reader's table).
func (t *keptTable) encodeBack(f *store.Frame, fMem *frameMemory, base *store.Frame, baseMem *frameMemory) (enc []byte, known int) {
	if t.ids == nil {
		t.ids = map[string]uint64{}
	}
	fw := FrameWriter{last: base, tab: strWriter{ids: t.ids, list: &t.strs}, frameMemory: *baseMem, next: fMem}
	known = len(t.strs)
	var w writer
	fw.write(&w, f)
	return w.b, known
}

// decodeBack reads what encodeBack wrote over base: nil when it does not
// read (it always should).
func (t *keptTable) decodeBack(enc []byte, known int, base *store.Frame) *store.Frame {
	if known > len(t.strs) || base == nil {
		return nil
	}
	fr := FrameReader{last: base, tab: strReader{strs: t.strs[:known:known]}}
	r := reader{b: enc}
	f := fr.read(&r)
	if r.end() != nil {
		return nil
	}
	return f
}
