package protocol

// A frame names the same strings again and again (queue paths, application
// ids, users, node names), and a tick's frame names tens of thousands. The
// worker's writer and the page's reader keep the same table of the strings
// sent so far, each side adding a string when it goes by for the first
// time, so that a string is sent once and then as its number; the page
// reads it back as the very string it read the first time, without a copy.
//
// On the wire a string is a uvarint k then, for k = strNew and strRaw, its
// length and bytes: strNew adds it to the table, strRaw (a long string,
// kept out of the table) does not, and k >= strRef is table[k-strRef].
const (
	strNew = 0
	strRaw = 1
	strRef = 2
)

// strTableMax is how many strings a table holds before the writer starts
// both tables again (see FrameWriter): a work of the step limit's size
// names far fewer.
const strTableMax = 1 << 20

// strLongest is the longest string the table keeps; longer ones (a
// scenario's description, a share link) go as they are.
const strLongest = 256

// strWriter is the worker's half of a string table. With list set, it
// also lists its strings by number (the kept frames' table, which their
// reader takes whole: keptframes.go).
type strWriter struct {
	ids  map[string]uint64
	list *[]string
}

// strReader is the page's half.
type strReader struct {
	strs []string
}

func (w *writer) str(s string) {
	t := w.tab
	if t == nil {
		w.raw(s)
		return
	}
	if id, ok := t.ids[s]; ok {
		w.uint(strRef + id)
		return
	}
	if len(s) > strLongest {
		w.uint(strRaw)
		w.raw(s)
		return
	}
	if t.ids == nil {
		t.ids = map[string]uint64{}
	}
	t.ids[s] = uint64(len(t.ids))
	if t.list != nil {
		*t.list = append(*t.list, s)
	}
	w.uint(strNew)
	w.raw(s)
}

func (r *reader) str() string {
	t := r.tab
	if t == nil {
		return r.raw()
	}
	switch k := r.uint(); {
	case r.err != nil:
		return ""
	case k == strNew:
		s := r.raw()
		if r.err == nil {
			t.strs = append(t.strs, s)
		}
		return s
	case k == strRaw:
		return r.raw()
	case k-strRef < uint64(len(t.strs)):
		return t.strs[k-strRef]
	}
	r.fail(errShort)
	return ""
}

// prose writes text that is seldom sent twice (a step's narration, its
// label, an error), out of the table, so that the table holds names, not
// every sentence the page was ever shown. The reader reads it with str.
func (w *writer) prose(s string) {
	if w.tab != nil {
		w.uint(strRaw)
	}
	w.raw(s)
}

// proses writes a list of prose.
func (w *writer) proses(s []string) {
	w.count(len(s))
	for _, v := range s {
		w.prose(v)
	}
}
