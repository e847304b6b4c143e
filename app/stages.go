package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
)

// The page's panels reach a new frame of a big cluster in stages, in the
// browser: the render that follows an action updates the timeline, the
// queues, the nodes, the narration and the formulas; then, each in a task
// of its own with the browser's turn (painting a frame, taking input) in
// between, the leaf lanes, the usage chart and the editors. One render of
// every panel of a thousand queues and twenty thousand apps takes about a
// hundred milliseconds, in which the browser paints nothing; in stages, no
// piece takes much more than a frame's time. Each stage shows the newest
// frame when its turn comes (stages skip the frames they missed), and a
// panel whose frame did not change is not rendered again (go-app finds its
// fields unchanged). A key held down and a beat of play wait for the stages
// (whenDrawn), so that every panel keeps up with the steps however fast
// they come; a step's key pressed goes to the simulation at once (the
// page's own keys wait for the steps before them). The first frame of a big
// cluster comes the same way: the first render draws the timeline, the
// queues, the nodes and the formulas, and the later stages' panels (with
// the narration and the capacities table, the biggest with the editors:
// tens of thousands of elements at a thousand queues) come in their turns,
// so that the page opens in the time of its first render, not of every
// panel's. A small cluster's page renders every panel at once, but for the
// later stages' panels out of the window at a step (sight.go); natively
// (the pre-rendered pages, the tests), every panel at once.
const (
	stageLanes = iota + 1
	stageChart
	stageEditors
	stages
)

// stagedFrames are the frames the later stages' panels show.
type stagedFrames struct {
	// shown[k] is the frame of stage k's panels (shown[0] is unused: the
	// first stage shows the page's frame).
	shown [stages]*store.Frame
	// waiting is true while the next stage waits for its turn; last is
	// the stage that had the last turn. next is the stage whose turn it
	// is (0: none), to take nextFrame in the page's next render.
	waiting   bool
	last      int
	next      int
	nextFrame *store.Frame
	// yielder lets the browser run between the stages.
	yielder *Yielder
	// queued are the actions waiting for every stage to show the page's
	// frame (whenDrawn), oldest first.
	queued []func(app.Context)
}

// staged returns the frame the panels of stage k show while the page shows
// f, and has the next stage's turn come when they lag behind.
func (p *Page) staged(k int, f *store.Frame) *store.Frame {
	st := &p.stages
	if st.next == k {
		// The stage's turn: it takes the frame it was given, unless an
		// action has published another since (the render of that frame
		// comes first, alone).
		if st.nextFrame == f {
			st.shown[k] = f
		}
		st.next, st.nextFrame = 0, nil
	}
	sf := st.shown[k]
	if sf == f || !p.timers || !app.IsClient || !bigFrame(f) && !(stepped(sf, f) && p.sight.away(k)) {
		st.shown[k] = f
		return f
	}
	// sf is nil on the page's first frame of a big cluster: the stage's
	// panels are not drawn yet (the opening, see Page.playground), and
	// come in their turn. A small cluster's stage lags only while its
	// panels are out of the window (sight.go).
	p.nextStage()
	return sf
}

// stepped reports whether f is another step of the work that sf shows:
// the timeline moved and nothing was changed. A small cluster's later
// stage out of the window follows only such a frame after the frame that
// shows it (sight.go): an edit, a selection or another work is drawn at
// once in every panel, the editors it came from among them.
func stepped(sf, f *store.Frame) bool {
	return sf != nil && f.Step != sf.Step && f.Revision == sf.Revision && f.Steps == sf.Steps && f.Lesson == sf.Lesson
}

// nextStage has the next stage's turn come (advanceStage), in a task of
// its own, once the page's render under way is done and the browser has
// run.
func (p *Page) nextStage() {
	st := &p.stages
	if st.waiting {
		return
	}
	st.waiting = true
	if st.yielder == nil {
		st.yielder = NewYielder()
	}
	y := st.yielder
	p.ui.Defer(func(ctx app.Context) { later(ctx, y, p.advanceStage) })
}

// advanceStage gives the page's frame to the next stage, in turn, that lags
// behind it, for the page's next render (the dispatch asks for one), which
// calls the next stage's turn when more lag; when none lags, the page
// collects its garbage after a jump (pagegc.go), and the first action
// waiting for the stages runs.
func (p *Page) advanceStage(ctx app.Context) {
	st := &p.stages
	st.waiting = false
	if p.ctl == nil || !p.loaded {
		return
	}
	f := p.ctl.Frame()
	// In turn after the last stage served: frames coming faster than the
	// stages (play) cannot keep the later stages waiting.
	for i := 1; i < stages; i++ {
		k := (st.last+i-1)%(stages-1) + 1
		if st.shown[k] != f {
			st.next, st.nextFrame, st.last = k, f, k
			return
		}
	}
	// Every stage shows the frame: after a jump, the page collects its
	// garbage (pagegc.go).
	if p.gcJumped {
		p.gcJumped = false
		collectGarbage()
	}
	if len(st.queued) > 0 && !p.ctl.Busy() {
		// The simulation has answered every command: the first action
		// waiting runs (the next, once its frame is drawn in turn).
		fn := st.queued[0]
		st.queued = st.queued[1:]
		fn(ctx)
		return
	}
	ctx.PreventUpdate()
}

// whenDrawn runs fn, an action that repeats (a key held down, a beat of
// play), once every stage shows the page's frame: at once natively, for
// small clusters, or when no stage lags; else after the stages' turns,
// actions that waited running in the order they came. Repeats that came
// right after the render of each frame would otherwise leave the later
// stages showing an old frame for as long as they keep coming.
func (p *Page) whenDrawn(ctx app.Context, fn func(app.Context)) {
	st := &p.stages
	if !p.drawing() {
		fn(ctx)
		return
	}
	st.queued = append(st.queued, fn)
	// Nothing changed yet: no render for the dispatch that brought fn.
	ctx.PreventUpdate()
	p.nextStage()
}

// drawing reports whether the page is still drawing: an action waits for
// the stages (whenDrawn), a stage lags, or a command is under way in the
// browser (its frame is still to come).
func (p *Page) drawing() bool {
	return len(p.stages.queued) > 0 || p.lagging() || (p.timers && app.IsClient && p.ctl != nil && p.ctl.Busy())
}

// lagging reports whether a stage shows an older frame than the page's.
func (p *Page) lagging() bool {
	if p.ctl == nil || !p.loaded || !p.timers || !app.IsClient {
		return false
	}
	f := p.ctl.Frame()
	if f == nil || !bigFrame(f) {
		return false
	}
	for _, sf := range p.stages.shown[1:] {
		if sf != f {
			return true
		}
	}
	return false
}

// release frees the stages' yielder (the page is gone).
func (st *stagedFrames) release() {
	if st.yielder != nil {
		st.yielder.Release()
		st.yielder = nil
	}
}
