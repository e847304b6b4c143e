package protocol

import (
	"reflect"
	"slices"

	"yarnplay/app/memsize"
	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// Going back is the gesture a learner uses most, and at scale the store
// replays from a checkpoint to do it (a second or more at benchmark 5's
// scale). A frame the page was shown needs no replay to be shown again:
// the server keeps the frames it sent lately, and a step back, forward or
// to a step it holds is answered with the frame it kept, without moving
// the store. The store stands where it stood until a command needs its
// state (anything but moving among kept frames); then it goes to the
// step shown first (settle). The store publishes the same frame for the
// same step of the same work with the same selection whatever the way
// there (its replay guarantee), which TestGoingBackShowsWhatReplayShows
// holds.

// navFrames bounds the frames kept by number, and the bytes of their
// deltas (keptframes.go) by the views of the newest whole frame the store
// published (queues, nodes, containers and applications): at most
// navBytesPerView bytes a view, or navFloor bytes, together. A state
// takes some 200 bytes a view (47 to 52 MB for benchmark 5's 230,000
// after its ticks), so that the deltas add at most a twenty-fifth of a
// state to the history, and the table of their strings some 0.6 MB: within
// twice one state (issue 32) with the store's checkpoints (store.Store.fit:
// 1.91 times the state of the step shown ten ticks back from the end
// there). That is a dozen steps of benchmark 5's ticks (some 160 KB
// each), and of a lesson ten steps or more, often its whole walk (past
// them, a lesson's step back replays in milliseconds).
const (
	navFrames       = 64
	navBytesPerView = 8
	navFloor        = 256 << 10
)

// navCache is the frames kept, the newest last.
type navCache struct {
	frames []*kept
	// pending is the step the page was last shown from a kept frame while
	// the store stands elsewhere, or -1.
	pending int
	// tab is the kept deltas' string table; read is the kept frame last
	// read back, readF that frame.
	tab   keptTable
	read  *kept
	readF *store.Frame
	// limit is the bytes the kept deltas may take (see navBytesPerView).
	limit int
}

// kept is a page's frame (Server.pageFrame) as cut for the canvas cut,
// the work it belongs to (store.Store.Works) and the scenario it is a step
// of (the store's scenarios never change: an edit makes a new one). The
// newest is f itself (whole, the store's frame it was cut from); the
// others are enc, a delta of base's frame (keptTable.encodeBack, with
// known strings). mem is what a writer remembers of f (memoryOf), for
// writing it so once the next frame comes.
type kept struct {
	works int
	doc   *scenarios.Scenario
	head  frameHead
	cut   pageCut
	f     *store.Frame
	whole *store.Frame
	mem   *frameMemory
	enc   []byte
	known int
	base  *kept
}

// frameHead is what finding a kept frame reads of it.
type frameHead struct {
	step, revision             int
	lesson, sel, selUser, part string
	users                      []string
}

func headOf(f *store.Frame) frameHead {
	return frameHead{step: f.Step, revision: f.Revision, lesson: f.Lesson, sel: f.Selected, selUser: f.SelectedUser,
		part: f.Partition, users: f.Users}
}

// pageCut is what a page's frame is cut for: whether the simulation
// paints the nodes, and the node opened (Server.pageFrame).
type pageCut struct {
	painted bool
	focus   string
}

// cutOf is the cut of the page's frames for canvas c.
func cutOf(c Canvas) pageCut { return pageCut{painted: c.Width > 0, focus: c.Focus} }

// elements counts a frame's views.
func elements(f *store.Frame) int {
	return len(f.Queues) + len(f.Nodes) + len(f.Containers) + len(f.Apps)
}

// navRaw is the most kept frames but the newest left whole until
// compact writes them as deltas: the worker compacts after its reply is
// posted, and keep itself past that many.
const navRaw = 1

// keep remembers page, the page's frame (cut for cut) of whole, a frame
// the store published for works and doc, unless it shows an error (a step
// moved to is shown without one), replacing a kept frame of the same step
// and selection. The frame kept before it stays whole until compact.
func (nc *navCache) keep(works int, doc *scenarios.Scenario, page, whole *store.Frame, cut pageCut) {
	if page == nil || page.Err != "" {
		return
	}
	if n := len(nc.frames); n > 0 && nc.frames[n-1].f == page {
		return // kept already
	}
	if nc.tab.full() {
		nc.frames, nc.tab, nc.read, nc.readF = nil, keptTable{}, nil, nil
	}
	if n := len(nc.frames); n > 0 && nc.frames[n-1].whole != whole {
		nc.frames[n-1].whole = nil // the store's frame no more
	}
	for i, k := range nc.frames {
		if k.enc != nil && k.works == works && k.cut == cut && k.head.step == page.Step && sameSelection(k.head, headOf(page)) &&
			(k.doc == doc || samePrefix(k.doc, doc, page.Step)) {
			nc.reroot(i, page, whole)
			return
		}
	}
	e := &kept{works: works, doc: doc, head: headOf(page), cut: cut, f: page, whole: whole}
	if n := len(nc.frames); n > 0 {
		last := nc.frames[n-1]
		last.whole = nil
		if last.works != works || last.cut != cut {
			last.f, last.mem = nil, nil // never shown again: it goes
		}
	}
	raw := 0
	out := make([]*kept, 0, min(len(nc.frames)+1, navFrames))
	for i := len(nc.frames) - 1; i >= 0; i-- {
		k := nc.frames[i]
		if k.works != works || k.cut != cut || k.enc == nil && k.f == nil || sameSelection(k.head, e.head) && k.head.step == e.head.step {
			continue // another work's or canvas's, never shown again; or page's place
		}
		if k.f != nil {
			raw++
		}
		out = append(out, k)
	}
	slices.Reverse(out) // oldest first again
	nc.frames = append(out, e)
	nc.limit = max(navBytesPerView*elements(whole), navFloor)
	if raw > navRaw {
		nc.compact()
	} else {
		nc.trim()
	}
}

// reroot makes the frame kept at i, which the store went to (CatchUp),
// the newest, page (the store's, whole) in place of its delta: the store
// publishes the same frame for the same step (the replay guarantee), but
// the work's length and revision, which every delta carries whole. The
// newest before it, which the frames kept after it read back over, is
// written as a delta of it instead of staying whole beside the store's
// (a megabyte or two at benchmark 5's scale).
func (nc *navCache) reroot(i int, page, whole *store.Frame) {
	e, last := nc.frames[i], nc.frames[len(nc.frames)-1]
	if last.f != nil {
		if last.mem == nil {
			last.mem = memoryOf(last.f)
		}
		last.enc, last.known = nc.tab.encodeBack(last.f, last.mem, page, memoryOf(page))
		last.base, last.f, last.mem, last.whole = e, nil, nil, nil
	}
	e.f, e.whole, e.enc, e.base, e.known, e.mem = page, whole, nil, nil, 0, nil
	e.head = headOf(page)
	nc.frames = append(slices.Delete(slices.Clone(nc.frames), i, i+1), e)
	nc.read, nc.readF = nil, nil
}

// compact writes the kept frames but the newest as deltas of the next
// (keptFrames.go), the oldest first, and trims them. Frames of an earlier
// version of the newest's work that are steps of it too (steps appended
// since) become its own (rebase): the earlier versions go.
func (nc *navCache) compact() {
	nc.rebase()
	for i := 0; i+1 < len(nc.frames); i++ {
		e, next := nc.frames[i], nc.frames[i+1]
		if e.f == nil || next.f == nil {
			continue
		}
		if e.mem == nil {
			e.mem = memoryOf(e.f)
		}
		if next.mem == nil {
			next.mem = memoryOf(next.f)
		}
		e.enc, e.known = nc.tab.encodeBack(e.f, e.mem, next.f, next.mem)
		e.base, e.f, e.mem = next, nil, nil
	}
	nc.trim()
}

// rebase makes the kept frames' work the newest's: each tick makes a new
// version of the work, whose steps' array is a new one now and then, and
// a frame of each version would hold its own (megabytes at benchmark 5's
// scale). A frame of a step the newest version does not share goes: it
// is never shown again (find).
func (nc *navCache) rebase() {
	n := len(nc.frames)
	if n < 2 {
		return
	}
	doc := nc.frames[n-1].doc
	// alike is, for each other version of the work, how many first
	// steps it has alike with doc (-1: not even what precedes them).
	alike := map[*scenarios.Scenario]int{}
	for _, e := range nc.frames {
		if e.doc != doc {
			alike[e.doc] = max(alike[e.doc], e.head.step)
		}
	}
	for d, most := range alike {
		alike[d] = -1
		if samePrefix(d, doc, 0) {
			alike[d] = commonSteps(d, doc, most)
		}
	}
	out := nc.frames[:0:0]
	for _, e := range nc.frames {
		if e.doc != doc {
			if e.head.step > alike[e.doc] {
				continue
			}
			e.doc = doc
		}
		out = append(out, e)
	}
	nc.frames = out
}

// trim keeps the newest frames within navFrames and the bytes their
// deltas may take (limit): the frames kept whole count for nothing, being
// at most navRaw and the newest.
func (nc *navCache) trim() {
	total, from := 0, 0
	for i := len(nc.frames) - 1; i >= 0; i-- {
		k := nc.frames[i]
		if len(nc.frames)-i > navFrames || total+len(k.enc) > nc.limit {
			from = i + 1
			break
		}
		total += len(k.enc)
	}
	if from > 0 {
		nc.frames = slices.Clone(nc.frames[from:])
	}
	if nc.read != nil && !slices.Contains(nc.frames, nc.read) {
		nc.read, nc.readF = nil, nil
	}
}

// frame reads e's frame back (nil if it does not read).
func (nc *navCache) frame(e *kept) *store.Frame {
	switch {
	case e.f != nil:
		return e.f
	case e == nc.read:
		return nc.readF
	case e.base == nil || e.enc == nil:
		return nil
	}
	base := nc.frame(e.base)
	f := nc.tab.decodeBack(e.enc, e.known, base)
	if f != nil {
		nc.read, nc.readF = e, f
	}
	return f
}

// sameSelection reports whether a and b show the same lesson's steps with
// the same selection (queue, user and partition).
func sameSelection(a, b frameHead) bool {
	return a.lesson == b.lesson && a.sel == b.sel && a.selUser == b.selUser && a.part == b.part
}

// find returns the kept page's frame of step k of doc, the work the store
// holds (cur is its frame now), with the selection shown and cut for cut:
// one of doc itself, or of an earlier version of it whose first k steps,
// and all that precedes them, are doc's (steps appended since: a tick at
// the end), the work's length and revision then being doc's. Nil when
// none is kept; e is the kept frame.
func (nc *navCache) find(works int, doc *scenarios.Scenario, cur, shown *store.Frame, k int, cut pageCut) (f *store.Frame, e *kept) {
	for i := len(nc.frames) - 1; i >= 0; i-- {
		e := nc.frames[i]
		if e.works != works || e.head.step != k || e.cut != cut || !sameSelection(e.head, headOf(shown)) {
			continue
		}
		if e.doc == doc && e.head.revision == cur.Revision {
			if f := nc.frame(e); f != nil {
				return f, e
			}
			continue
		}
		if !samePrefix(e.doc, doc, k) || !slices.Equal(e.head.users, cur.Users) {
			continue
		}
		f := nc.frame(e)
		if f == nil {
			continue
		}
		g := *f
		g.Steps, g.Revision = cur.Steps, cur.Revision
		return &g, e
	}
	return nil, nil
}

// samePrefix reports whether scenarios a and b play alike up to step k:
// the same cluster, configuration and first k steps.
func samePrefix(a, b *scenarios.Scenario, k int) bool {
	if k > len(a.Steps) || k > len(b.Steps) {
		return false
	}
	ha, hb := *a, *b
	ha.Steps, hb.Steps = nil, nil
	if !reflect.DeepEqual(ha, hb) {
		return false
	}
	return commonSteps(a, b, k) == k
}

// commonSteps returns how many of the first n steps of a and b are alike
// (at most n, and at most either's steps): all when both hold the same
// array, else one by one.
func commonSteps(a, b *scenarios.Scenario, n int) int {
	n = min(n, len(a.Steps), len(b.Steps))
	if n == 0 || &a.Steps[0] == &b.Steps[0] {
		return n
	}
	for i := range n {
		if !reflect.DeepEqual(&a.Steps[i], &b.Steps[i]) {
			return i
		}
	}
	return n
}

// navTarget is the step c moves the page to from the frame shown, when c
// only moves among the work's steps (back, forward before the end, first,
// last, a jump); ok is false for any other command.
func navTarget(c Command, shown *store.Frame) (k int, ok bool) {
	if shown == nil {
		return 0, false
	}
	switch c.Op {
	case OpBack:
		return max(shown.Step-1, 0), true
	case OpForward:
		if shown.Step >= shown.Steps {
			return 0, false // at the end, forward plays a new step
		}
		return shown.Step + 1, true
	case OpFirst:
		return 0, true
	case OpLast:
		return shown.Steps, true
	case OpJump:
		return min(max(c.Step, 0), shown.Steps), true
	}
	return 0, false
}

// navigate answers c from the kept frames when it moves the page to a
// step one of them shows; ok is false when it does not (the command is
// then applied to the store as usual, after settle). f is the kept frame
// shown, nil when the store's is (it stands there, or moved there).
func (sv *Server) navigate(c Command) (f *store.Frame, ok bool) {
	k, ok := navTarget(c, sv.sent)
	if !ok {
		return nil, false
	}
	if k == sv.sent.Step && sv.sent.Err == "" {
		return nil, true // the page shows it already (← at the start)
	}
	s := sv.store
	f, e := sv.nav.find(s.Works(), s.Scenario(), s.Frame(), sv.sent, k, cutOf(sv.canvas))
	switch {
	case f == nil:
		// Moved by the store, from the step shown.
		sv.settleAt(k)
		return nil, true
	case e.whole != nil && e.whole == s.Frame() ||
		k == s.Step() && s.Frame().Err == "" && sameSelection(headOf(s.Frame()), headOf(sv.sent)):
		sv.nav.pending = -1 // the store stands there
		return nil, true
	}
	sv.nav.pending = k
	return f, true
}

// settle moves the store to the step the page shows, if it stands
// elsewhere. The page holds that step's frame already: the store publishes
// the same frame for the same step (its replay guarantee), which goes to
// the page again only if the command changes it (a page that got it again
// would take it for a new step of the same work).
func (sv *Server) settle() {
	if sv.nav.pending < 0 {
		return
	}
	shown := sv.sentPage
	sv.settleAt(sv.nav.pending)
	f := sv.store.Frame()
	if shown != nil && !shown.NodesBehind && f.Err == "" && f.Step == shown.Step && f.Revision == shown.Revision &&
		f.Steps == shown.Steps && sameSelection(headOf(f), headOf(shown)) {
		sv.sent, sv.sentPage = f, sv.pageFrame(f)
	}
}

// settleAt moves the store to step k, which the page is shown.
func (sv *Server) settleAt(k int) {
	sv.nav.pending = -1
	sv.store.Jump(k)
}

// Shown returns the frame the page was last sent (nil before the first):
// the store's frame, whole, or while the store stands elsewhere the page's
// frame kept of the step shown (navigate). SentToPage is that frame as
// the page got it (pageFrame).
func (sv *Server) Shown() *store.Frame { return sv.sent }

// Compact writes the frames kept whole as deltas (keptframes.go): the
// work of keeping a frame, which the worker does once its reply is
// posted. rw, if not nil, is the writer that wrote the replies, whose
// encodings of the frame it wrote last serve again.
func (sv *Server) Compact(rw *ReplyWriter) {
	if rw != nil {
		if f, m := rw.written(); f != nil {
			sv.nav.remember(f, m)
		}
	}
	sv.nav.compact()
}

// remember gives the newest kept frame what a writer remembers of it, m,
// when it is f, the frame m is of: the reply's writer has just encoded
// it, and compact need not encode it again.
func (nc *navCache) remember(f *store.Frame, m *frameMemory) {
	if n := len(nc.frames); n > 0 {
		if e := nc.frames[n-1]; e.f == f && e.mem == nil && m.isOf(f) {
			e.mem = m
		}
	}
}

// Painted returns the frame the node canvas shows (Shown, whole), nil
// while the page is shown a kept frame: its nodes' containers are the
// store's to rebuild.
func (sv *Server) Painted() *store.Frame {
	if sv.nav.pending >= 0 {
		return nil
	}
	return sv.sent
}

// Memory is OpMemory's answer: the bytes of one state of the scheduler
// and of the history the worker keeps to travel in time (the store's, and
// the frames kept here but the one shown), each byte counted once
// (memsize), and the frames kept.
type Memory struct {
	store.Memory
	// Frames is how many frames are kept, FrameBytes what those of them
	// not shown hold (in History too).
	Frames     int   `json:"frames"`
	FrameBytes int64 `json:"frameBytes"`
}

// memory measures the worker's memory (OpMemory).
func (sv *Server) memory() Memory {
	var c memsize.Counter
	m := Memory{Memory: sv.store.Measure(&c), Frames: len(sv.nav.frames)}
	c.Add(sv.sent)
	c.Add(sv.sentPage)
	for _, k := range sv.nav.frames {
		m.FrameBytes += c.Add(k)
	}
	m.FrameBytes += c.Add(sv.nav.readF) + c.Add(&sv.nav.tab)
	m.History += m.FrameBytes
	return m
}

// MemoryOf reads OpMemory's answer.
func MemoryOf(rep Reply) (Memory, error) {
	var m Memory
	err := read(rep, "a memory answer", &m)
	return m, err
}

// SentToPage returns the last frame sent as the page got it: the
// applications it shows, and the containers it draws (pageFrame).
func (sv *Server) SentToPage() *store.Frame { return sv.sentPage }
