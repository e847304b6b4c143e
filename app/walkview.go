package app

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// walkSpeeds are the walk's speeds, as a factor of walkPace.
var walkSpeeds = []struct {
	Label  string
	Factor float64
}{{"½×", 0.5}, {"1×", 1}, {"2×", 2}, {"4×", 4}}

// walkPace is how long a highlight stays at 1×: slow enough to read the
// caption and the narration line.
const walkPace = 1600 * time.Millisecond

// activeWalker is the page's walk, for its keys (W starts or pauses it,
// Escape ends it); nil when none is mounted.
var activeWalker *Walker

// Walker is "walk this heartbeat": it replays the decision record of the
// step shown, one decision at a time, lighting on the page the node, root,
// each parent's children in the order it tries them, the leaf, each app
// of the leaf's lane with why it was skipped, and the allocation, with
// the narration line of the decision. A tick of all nodes is walked
// heartbeat by heartbeat. Highlights are data-walk attributes on the
// existing views (the stylesheet draws them); under prefers-reduced-motion
// the walk starts paused and nothing animates, but stepping works.
type Walker struct {
	app.Compo

	// F is the frame shown: a new step or edit ends the walk.
	F *store.Frame

	ctx     app.Context
	mounted bool
	steps   []WalkStep
	at      int // the step lit (of steps: none when not walking)
	playing bool
	speed   int // walkSpeeds[speed+1]: 0 is 1×
	gen     int
	step    int
	rev     int
}

// OnMount makes the walk the page's, for its keys.
func (w *Walker) OnMount(ctx app.Context) {
	w.ctx, w.mounted = ctx, true
	activeWalker = w
}

// OnDismount ends the walk.
func (w *Walker) OnDismount() {
	w.end()
	w.mounted = false
	if activeWalker == w {
		activeWalker = nil
	}
}

func (w *Walker) walking() bool { return w.at >= 0 && w.at < len(w.steps) }

// Render draws the walk's controls and caption.
func (w *Walker) Render() app.UI {
	f := w.F
	if f == nil {
		return app.Div().ID("walk").Class("walk")
	}
	if w.walking() && (f.Step != w.step || f.Revision != w.rev) {
		w.end()
	}
	if !w.walking() {
		if !hasHeartbeat(f) {
			return app.Div().ID("walk").Class("walk").DataSet("state", "none")
		}
		label := "Walk this heartbeat"
		if f.Kind == "tick" {
			label = "Walk these heartbeats one by one"
		}
		return app.Div().ID("walk").Class("walk").DataSet("state", "off").Body(
			app.Button().Type("button").ID("walk-start").Class("walk-start").
				Title("Replay this step's decisions slowly, lighting each on the page (key W)").
				Text(label + " ▸").OnClick(func(ctx app.Context, _ app.Event) { w.start(ctx) }),
		)
	}
	st := w.steps[w.at]
	state := "paused"
	switch {
	case w.playing:
		state = "playing"
	case w.at == len(w.steps)-1:
		state = "done"
	}
	beats := walkBeats(w.steps)
	where := "decision " + itoa(w.at+1) + " of " + itoa(len(w.steps))
	if beats > 1 {
		where = "heartbeat " + itoa(st.Beat+1) + " of " + itoa(beats) + " (" + st.Node + "), " + where
	}
	pause := "Play ▸"
	if w.playing {
		pause = "Pause ❚❚"
	}
	return app.Div().ID("walk").Class("walk").DataSet("state", state).DataSet("kind", st.Kind).Body(
		app.P().ID("walk-caption").Class("walk-caption").Aria("live", "polite").Body(
			app.Span().Class("walk-where").Text(where+": "),
			app.Strong().Text(walkCaption(st)),
		),
		app.Div().Class("walk-controls").Role("group").Aria("label", "Walk controls").Body(
			app.Button().Type("button").ID("walk-pause").Text(pause).Disabled(state == "done").
				OnClick(func(ctx app.Context, _ app.Event) { w.toggle(ctx) }),
			app.Button().Type("button").ID("walk-step").Text("Step ›").Disabled(state == "done").
				OnClick(func(ctx app.Context, _ app.Event) { w.pause(); w.advance(ctx) }),
			app.If(beats > 1, func() app.UI {
				return app.Button().Type("button").ID("walk-next-beat").Text("Next heartbeat »").
					Disabled(st.Beat == beats-1).
					OnClick(func(ctx app.Context, _ app.Event) { w.pause(); w.show(nextBeat(w.steps, w.at)) })
			}),
			app.Button().Type("button").ID("walk-stop").Text("Stop (Esc)").
				OnClick(func(app.Context, app.Event) { w.end() }),
			app.Label().For("walk-speed").Text("Speed"),
			app.Select().ID("walk-speed").OnChange(w.setSpeed).Body(
				app.Range(walkSpeeds).Slice(func(i int) app.UI {
					return app.Option().Value(itoa(i)).Text(walkSpeeds[i].Label).Selected(i == w.speed+1)
				}),
			),
		),
	)
}

// hasHeartbeat reports whether the step holds a heartbeat to walk.
func hasHeartbeat(f *store.Frame) bool {
	for i := range f.Events {
		if f.Events[i].Kind == "heartbeat" {
			return true
		}
	}
	return false
}

// sameNarration reports whether the frame's narration is one line per
// decision, as WalkSteps counts them (and the step's failure after them).
func sameNarration(f *store.Frame) bool {
	n := len(scenarios.Narrate(f.Events))
	return n == len(f.Narration) || (f.StepError != "" && n+1 == len(f.Narration))
}

// start walks the step shown from its first decision; it plays unless
// the reader prefers reduced motion.
func (w *Walker) start(ctx app.Context) {
	f := w.F
	if f == nil {
		return
	}
	leaf := make(map[string]bool, len(f.Queues))
	for i := range f.Queues {
		leaf[f.Queues[i].Path] = f.Queues[i].Leaf
	}
	w.steps = WalkSteps(f.Events, func(p string) bool { return leaf[p] })
	if len(w.steps) == 0 {
		return
	}
	if !sameNarration(f) {
		// A step summed up (too many heartbeats) or narrated otherwise:
		// its lines are not one per decision, so none is lit.
		for i := range w.steps {
			w.steps[i].Line = -1
		}
	}
	w.step, w.rev = f.Step, f.Revision
	w.playing = !reducedMotion()
	w.show(0)
	w.schedule(ctx)
}

// toggle pauses or plays the walk (and starts it when none is under way).
func (w *Walker) toggle(ctx app.Context) {
	switch {
	case !w.walking():
		w.start(ctx)
	case w.playing:
		w.pause()
	case w.at < len(w.steps)-1:
		w.playing = true
		w.advance(ctx)
	}
}

func (w *Walker) pause() {
	w.playing = false
	w.gen++
}

// advance lights the next decision and, while playing, sets the timer of
// the one after.
func (w *Walker) advance(ctx app.Context) {
	if !w.walking() || w.at >= len(w.steps)-1 {
		w.playing = false
		return
	}
	w.show(w.at + 1)
	if w.at == len(w.steps)-1 {
		w.playing = false
	}
	w.schedule(ctx)
}

func (w *Walker) schedule(ctx app.Context) {
	if !w.playing {
		return
	}
	w.gen++
	g := w.gen
	d := time.Duration(float64(walkPace) / walkSpeeds[w.speed+1].Factor)
	ctx.After(d, func(ctx app.Context) {
		if g == w.gen && w.playing {
			w.advance(ctx)
		}
	})
}

func (w *Walker) setSpeed(ctx app.Context, e app.Event) {
	if i, err := strconv.Atoi(e.Get("target").Get("value").String()); err == nil && i >= 0 && i < len(walkSpeeds) {
		w.speed = i - 1
		w.schedule(ctx)
	}
}

// end stops the walk and takes its highlights off the page.
func (w *Walker) end() {
	w.gen++
	w.at, w.playing, w.steps = -1, false, nil
	clearWalkMarks()
}

// show lights step i.
func (w *Walker) show(i int) {
	if i < 0 || i >= len(w.steps) {
		return
	}
	w.at = i
	markWalk(w.steps[i])
}

// walkKey runs the walk's keys: "walk" starts, pauses or plays it, "close"
// ends it. It reports whether a walk took the key.
func walkKey(key string) bool {
	w := activeWalker
	if w == nil || !w.mounted || !app.IsClient {
		return false
	}
	switch key {
	case "walk":
		w.ctx.Dispatch(func(ctx app.Context) { w.toggle(ctx) })
		return true
	case "close":
		if !w.walking() {
			return false
		}
		w.ctx.Dispatch(func(app.Context) { w.end() })
		return true
	}
	return false
}

// reducedMotion reports whether the reader asks for reduced motion.
func reducedMotion() bool {
	if !app.IsClient {
		return true
	}
	m := app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)")
	return m.Truthy() && m.Get("matches").Bool()
}
