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

// navFrames bounds the frames kept by number, and navShare by the views
// they hold together (queues, nodes, containers and applications) against
// the views of the newest, the frame the store published last: at most
// navShare times its views, or navFloor views, together, itself
// included. A frame's views take about as much memory as the state they
// show (some 28 MB at benchmark 5's scale after its ticks, for a state of
// 47 MB), so that at that scale the frame shown alone is kept, and the
// history stays within twice one state (issue 32) with the checkpoints a
// step back leaves (store.Store.fit); a lesson's whole walk is kept, and
// some steps of a cluster of a few hundred nodes.
const (
	navFrames = 32
	navShare  = 1
	navFloor  = 10_000
)

// navCache is the frames kept, the newest last.
type navCache struct {
	frames []kept
	// pending is the step the page was last shown from a kept frame while
	// the store stands elsewhere, or -1.
	pending int
}

// kept is a frame, the work it belongs to (store.Store.Works) and the
// scenario it is a step of (the store's scenarios never change: an edit
// makes a new one).
type kept struct {
	works int
	doc   *scenarios.Scenario
	f     *store.Frame
}

// elements counts a frame's views.
func elements(f *store.Frame) int {
	return len(f.Queues) + len(f.Nodes) + len(f.Containers) + len(f.Apps)
}

// keep remembers f, a frame the store published for works and doc,
// unless it shows an error (a step moved to is shown without one),
// replacing a kept frame of the same step and selection.
func (nc *navCache) keep(works int, doc *scenarios.Scenario, f *store.Frame) {
	if f == nil || f.Err != "" {
		return
	}
	out := make([]kept, 0, min(len(nc.frames)+1, navFrames))
	total, limit := elements(f), navShare*max(elements(f), navFloor)
	for i := len(nc.frames) - 1; i >= 0; i-- {
		k := nc.frames[i]
		if k.works != works || sameSelection(k.f, f) && k.f.Step == f.Step {
			continue // another work's, never shown again; or f's place
		}
		if len(out) >= navFrames-1 || total+elements(k.f) > limit {
			continue
		}
		total += elements(k.f)
		out = append(out, k)
	}
	slices.Reverse(out) // oldest first again
	nc.frames = append(out, kept{works: works, doc: doc, f: f})
}

// sameSelection reports whether a and b show the same lesson's steps with
// the same selection (queue, user and partition).
func sameSelection(a, b *store.Frame) bool {
	return a.Lesson == b.Lesson && a.Selected == b.Selected && a.SelectedUser == b.SelectedUser &&
		a.Partition == b.Partition
}

// find returns the frame of step k of doc, the work the store holds (cur
// is its frame now), with the selection shown, from a kept frame: one of
// doc itself, or of an earlier version of it whose first k steps, and all
// that precedes them, are doc's (steps appended since: a tick at the end),
// the work's length and revision then being doc's. Nil when none is kept.
func (nc *navCache) find(works int, doc *scenarios.Scenario, cur, shown *store.Frame, k int) *store.Frame {
	for i := len(nc.frames) - 1; i >= 0; i-- {
		e := nc.frames[i]
		if e.works != works || e.f.Step != k || !sameSelection(e.f, shown) {
			continue
		}
		if e.doc == doc && e.f.Revision == cur.Revision {
			return e.f
		}
		if !samePrefix(e.doc, doc, k) || !slices.Equal(e.f.Users, cur.Users) {
			continue
		}
		f := *e.f
		f.Steps, f.Revision = cur.Steps, cur.Revision
		return &f
	}
	return nil
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
	return k == 0 || &a.Steps[0] == &b.Steps[0] || reflect.DeepEqual(a.Steps[:k], b.Steps[:k])
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
// then applied to the store as usual, after settle).
func (sv *Server) navigate(c Command) (f *store.Frame, ok bool) {
	k, ok := navTarget(c, sv.sent)
	if !ok {
		return nil, false
	}
	f = sv.nav.find(sv.store.Works(), sv.store.Scenario(), sv.store.Frame(), sv.sent, k)
	if f == nil {
		// Moved by the store, from the step shown.
		sv.settleAt(k)
		return nil, true
	}
	sv.nav.pending = k
	if sv.store.Frame() == f {
		sv.nav.pending = -1
	}
	return f, true
}

// settle moves the store to the step the page shows, if it stands
// elsewhere.
func (sv *Server) settle() {
	if sv.nav.pending >= 0 {
		sv.settleAt(sv.nav.pending)
	}
}

// settleAt moves the store to step k, which the page is shown.
func (sv *Server) settleAt(k int) {
	sv.nav.pending = -1
	sv.store.Jump(k)
}

// Shown returns the frame the page was last sent (nil before the first),
// whole: the store's, or one kept (navigate). SentToPage is that frame as
// the page got it (pageFrame).
func (sv *Server) Shown() *store.Frame { return sv.sent }

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
	for _, k := range sv.nav.frames {
		m.FrameBytes += c.Add(k.f) + c.Add(k.doc)
	}
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
