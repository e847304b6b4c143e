package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/wasm/bridge"
)

// Controller is how components reach the one store: they call Do from
// their event handlers (go-app runs those on the UI goroutine), the store
// changes and publishes a new frame, and the page re-renders from it.
// Components never change the store's frames.
//
// In the browser a big action (a tick of thousands of nodes, a jump that
// replays many steps) runs in slices: every SliceBudget of work the store
// pauses and the controller lets the browser paint and take input before
// it goes on (see Yielder); while the garbage collector marks, it waits
// at each pause until the mark is over (awaitMark). The UI goroutine
// waits meanwhile, so events that arrive queue up in go-app and run, in
// order, after the action: an action never interleaves with another. The
// page renders the frame the action publishes at its end, once.
type Controller struct {
	// Store owns the simulation.
	Store *store.Store
	// Clipboard, Downloads and Files reach the browser (in memory natively).
	Clipboard bridge.Clipboard
	Downloads bridge.Downloader
	Files     bridge.FileReader
	// Changed, if set, is called after every action (the page saves the
	// work, debounced).
	Changed func()
	// Replaced, if set, is called after an action that replaced the work
	// (Store.Works changed: another scenario, a reset): the page stops
	// play.
	Replaced func()

	// yield lets the browser run (nil natively: actions run whole); frame,
	// if set, lets it render a frame, and lastFrame is when the last it
	// waited for was rendered (or the action began).
	yield     func()
	frame     func()
	lastFrame time.Time
	// Now reads the clock, and Report receives the timing of each action
	// (in the browser, a performance measure; nil natively).
	now    func() time.Time
	report func(Timing)
	// t is the timing of the action under way; sliceStart when its current
	// slice began.
	t          Timing
	sliceStart time.Time
	running    bool
	// playStart is when the scheduler started playing (zero: it is not).
	playStart time.Time
	// marking reports whether the garbage collector is marking (gcMarking
	// in the browser).
	marking func() bool
}

// SliceBudget is the longest the store runs before the page lets the
// browser paint and take input, when an action is longer: a few slices fit
// a frame's 16.7 ms with the browser's own work.
const SliceBudget = 5 * time.Millisecond

// FrameWork is the longest an action lets the browser go without rendering
// a frame: past it, the action's next turn (between two slices, or while
// it waits for the collector's mark) waits for the browser to render one.
// A posted message alone lets the browser run its tasks, but it may run
// three or four slices, or ten of the collector's, before it renders, and
// the frame comes late.
const FrameWork = 10 * time.Millisecond

// Timing is what an action cost: its CPU time (the time the store ran,
// WebAssembly having one thread), the slices it ran in, the longest, and
// the step and kind of step it stood on at its end.
type Timing struct {
	// CPU is the whole action's; Play the scheduler's part (the steps
	// played), the rest being the store's records and views.
	CPU, Play, Longest time.Duration
	// Wall is from the action's start to its end, the browser's turns
	// between the slices included.
	Wall   time.Duration
	Slices int
	// MarkWaits is how many of the browser's turns the action waited for
	// the garbage collector to finish marking (awaitMark); Frames how many
	// of its turns waited for a frame (FrameWork).
	MarkWaits, Frames int
	Step              int
	Kind              string
}

// NewController returns a controller over s with the page's bridges; in
// the browser its actions run in slices and report their timing to the
// page's performance timeline (see Yielder).
func NewController(s *store.Store) *Controller {
	c := &Controller{
		Store:     s,
		Clipboard: bridge.SystemClipboard(),
		Downloads: bridge.Downloads(),
		Files:     bridge.Files(),
		now:       time.Now,
		marking:   gcMarking,
	}
	if app.IsClient {
		y := NewYielder()
		c.SetYield(y.Yield, measure)
		c.SetFrameYield(y.Frame)
	}
	return c
}

// SetFrameYield gives the controller frame, which returns once the browser
// has rendered a frame: FrameWork after the last, the controller waits for
// one instead of yielding.
func (c *Controller) SetFrameYield(frame func()) { c.frame = frame }

// SetYield makes the controller run big actions in slices of SliceBudget,
// calling yield between them, and give report each action's timing; nil
// yield runs actions whole.
func (c *Controller) SetYield(yield func(), report func(Timing)) {
	c.yield, c.report = yield, report
	if yield == nil {
		c.Store.SetPause(nil)
		c.Store.SetPlayWatch(nil)
		return
	}
	c.Store.SetPause(c.pause)
	c.Store.SetPlayWatch(c.watchPlay)
}

// watchPlay times the scheduler's part of the action.
func (c *Controller) watchPlay(playing bool) {
	if !c.running {
		return
	}
	if playing {
		if c.yield != nil && c.mayAwaitMark() {
			c.endSlice()
			c.awaitMark()
			c.sliceStart = c.now()
		}
		c.playStart = c.now()
		return
	}
	c.endPlay()
}

// markWaits bounds the browser's turns an action waits for marks to end
// in all (each turn gives the collector a slice of marking): a heap of
// 100 MB takes about 100 in Chromium.
const markWaits = 400

// mayAwaitMark reports whether the collector is marking and the action
// may still wait for it.
func (c *Controller) mayAwaitMark() bool {
	return c.t.MarkWaits < markWaits && c.marking()
}

// awaitMark lets the browser run until the garbage collector has marked
// the heap: each of the browser's turns lets the collector mark for a
// slice (build/site/gcslices.go). The action's work then runs without the
// collector's write barriers, and without its assists, which make an
// allocation mark in proportion to its size before it returns: in one go,
// tens of milliseconds for the views' arrays of a big cluster.
func (c *Controller) awaitMark() {
	for c.mayAwaitMark() {
		c.turn()
		c.t.MarkWaits++
	}
}

// turn lets the browser run: it waits for a frame if FrameWork has passed
// since the last, else it yields.
func (c *Controller) turn() {
	if c.frame == nil || c.now().Sub(c.lastFrame) < FrameWork {
		c.yield()
		return
	}
	c.frame()
	c.lastFrame = c.now()
	c.t.Frames++
}

func (c *Controller) endPlay() {
	if !c.playStart.IsZero() {
		c.t.Play += c.now().Sub(c.playStart)
		c.playStart = time.Time{}
	}
}

// Do runs an action on the store and reports its error (the store also
// shows it in the next frame's Err).
func (c *Controller) Do(action func(s *store.Store) error) error {
	err := c.Run(action)
	if c.Changed != nil {
		c.Changed()
	}
	return err
}

// Run runs an action on the store, in slices in the browser, and reports
// its timing.
func (c *Controller) Run(action func(s *store.Store) error) error {
	if c.running {
		// An action inside an action (a handler calling another): it is
		// part of the outer one.
		return action(c.Store)
	}
	c.running = true
	actionsBegun++
	c.t = Timing{}
	start := c.now()
	c.lastFrame = start
	c.sliceStart = start
	works := c.Store.Works()
	defer func() {
		c.endPlay()
		c.endSlice()
		c.t.Wall = c.now().Sub(start)
		c.running = false
		if c.Replaced != nil && c.Store.Works() != works {
			c.Replaced()
		}
		if c.report != nil {
			f := c.Store.Frame()
			c.t.Step, c.t.Kind = f.Step, f.Kind
			c.report(c.t)
		}
		if c.yield != nil && c.t.Slices > 1 {
			// An action that ran in slices ends with a slice of its own,
			// and the page's render of its frame starts a new task: right
			// after a frame, when the controller can wait for one. That
			// render takes about a frame's time at a big cluster's scale,
			// and begun late in a frame, after the action's last slices,
			// it made the next frame late (in benchmark 5's trace, Go ran
			// 5.5, 7.7 and then 18.6 ms, the render, between two frames).
			if c.frame != nil {
				c.frame()
			} else {
				c.yield()
			}
		}
	}()
	return action(c.Store)
}

// pause is the store's pause: past the slice's budget, or as soon as the
// garbage collector is marking, it lets the browser run (until the mark
// is over: awaitMark), then starts a new slice.
func (c *Controller) pause() {
	if c.yield == nil || !c.running {
		return
	}
	if !c.mayAwaitMark() && c.now().Sub(c.sliceStart) < SliceBudget {
		return
	}
	playing := !c.playStart.IsZero()
	c.endPlay()
	c.endSlice()
	c.turn()
	c.awaitMark()
	c.sliceStart = c.now()
	if playing {
		c.playStart = c.sliceStart
	}
}

func (c *Controller) endSlice() {
	d := c.now().Sub(c.sliceStart)
	c.t.CPU += d
	c.t.Longest = max(c.t.Longest, d)
	c.t.Slices++
}

// Frame returns the current frame.
func (c *Controller) Frame() *store.Frame { return c.Store.Frame() }
