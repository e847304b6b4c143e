package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// Speeds are the play speeds, in steps per second.
var Speeds = []float64{0.5, 1, 2, 4, 8, 16}

// DefaultSpeed is the index in Speeds play starts with (2 steps a second).
const DefaultSpeed = 2

// Timeline is the bar at the bottom: first, back, play/pause, forward one
// heartbeat, forward one tick, last; the speed; the step counter; a slider
// to jump; fork and reset. Every control is a labelled button reachable by
// keyboard.
type Timeline struct {
	app.Compo

	// F is the frame shown; Ctl reaches the store.
	F   *store.Frame
	Ctl *Controller
	// Undo, if set, keeps the work before a fork or a reset.
	Undo *Undo
	// Playing and Speed (an index in Speeds) are the page's play state.
	Playing bool
	Speed   int
	// OnPlay toggles play, OnSpeed sets the speed, OnHelp shows the keys.
	OnPlay  func()
	OnSpeed func(int)
	OnHelp  func()
}

// Counter is the step counter's text: "step 42 of 120 · heartbeat of n3".
func Counter(f *store.Frame) string {
	what := f.Label
	if _, after, ok := strings.Cut(f.Label, ": "); ok && f.Step > 0 {
		what = after
	}
	return "step " + strconv.Itoa(f.Step) + " of " + strconv.Itoa(f.Steps) + " · " + what
}

// Render draws the bar.
func (t *Timeline) Render() app.UI {
	f := t.F
	if f == nil {
		return app.Nav().Class("timeline")
	}
	atStart, atEnd := f.Step == 0, f.Step >= f.Steps
	playLabel, playText := "Play", "▶ Play"
	if t.Playing {
		playLabel, playText = "Pause", "❚❚ Pause"
	}
	fwd := "Forward one step: the scenario's next step, an action, a heartbeat, a tick or a check"
	fwdText := "Step ›"
	tick := "Forward to the next tick: the steps up to it run"
	if atEnd {
		fwdText = "Heartbeat ›"
		fwd = "Heartbeat of " + orText(f.NextNode, "the next node") + " (adds a step)"
		tick = "Tick: every node heartbeats once (adds a step)"
	}
	return app.Nav().ID("timeline").Class("timeline").Aria("label", "Timeline").Body(
		app.Div().Class("tl-buttons").Body(
			t.button("tl-first", "« First", "First step (Home)", atStart, protocol.OpFirst),
			t.button("tl-back", "‹ Back", "Back one step (←)", atStart, protocol.OpBack),
			app.Button().ID("tl-play").Class("tl-play").Type("button").
				Title(playLabel+" (Space)").Aria("label", playLabel).Aria("pressed", t.Playing).
				Text(playText).OnClick(func(app.Context, app.Event) {
				if t.OnPlay != nil {
					t.OnPlay()
				}
			}),
			t.button("tl-forward", fwdText, fwd+" (→)", false, protocol.OpForward),
			t.button("tl-tick", "Tick ››", tick+" (T)", false, protocol.OpForwardTick),
			t.button("tl-last", "Last »", "Last step (End)", atEnd, protocol.OpLast),
		),
		app.Label().Class("tl-speed").For("tl-speed").Body(
			app.Span().Text("Speed"),
			app.Select().ID("tl-speed").OnChange(func(ctx app.Context, e app.Event) {
				if i, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && t.OnSpeed != nil {
					t.OnSpeed(i)
				}
			}).Body(app.Range(Speeds).Slice(func(i int) app.UI {
				return app.Option().Value(strconv.Itoa(i)).Selected(i == t.Speed).Text(speedText(Speeds[i]))
			})),
		),
		app.Div().Class("tl-where").Body(
			app.Output().ID("tl-counter").Class("tl-counter").Attr("data-parity", stepParity(f.Step)).Aria("live", "polite").Text(Counter(f)),
			app.Input().ID("tl-slider").Class("tl-slider").Type("range").Min(0).Max(f.Steps).Value(f.Step).
				Aria("label", "Jump to step").Aria("valuetext", Counter(f)).
				OnInput(func(ctx app.Context, e app.Event) {
					if k, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
						t.Ctl.Do(protocol.Command{Op: protocol.OpJump, Step: k, Repeat: true})
					}
				}),
		),
		app.Div().Class("tl-more").Body(
			t.undoable("tl-fork", "Fork here", "Drop the steps after this one, to play another future from here (undo brings them back)", atEnd,
				func() string { return "forked here, dropping " + nOf(t.F.Steps-t.F.Step, "later step", "later steps") }, protocol.OpFork),
			t.undoable("tl-reset", "Reset", "Back to the scenario as loaded, at the start (R; undo brings your changes back)", false,
				func() string { return "reset the scenario to as it was loaded" }, protocol.OpReset),
			app.Button().ID("tl-help").Type("button").Class("tl-help").Title("Keyboard shortcuts (?)").
				Aria("label", "Keyboard shortcuts").Text("?").OnClick(func(app.Context, app.Event) {
				if t.OnHelp != nil {
					t.OnHelp()
				}
			}),
		),
	)
}

// undoable is one of the bar's buttons running a destroying store action,
// kept for undo; what says the action in the undo bar, at the click (the
// step shown then: see the package's doc on handlers).
func (t *Timeline) undoable(id, text, label string, disabled bool, what func() string, op protocol.Op) app.UI {
	return app.Button().ID(id).Type("button").Title(label).Aria("label", label).Disabled(disabled).
		Text(text).OnClick(func(app.Context, app.Event) {
		if t.Undo == nil {
			t.Ctl.Do(protocol.Command{Op: op})
			return
		}
		t.Undo.Do(t.Ctl, what(), protocol.Command{Op: op}, nil)
	})
}

// button is one of the bar's buttons sending a command.
func (t *Timeline) button(id, text, label string, disabled bool, op protocol.Op) app.UI {
	return app.Button().ID(id).Type("button").Title(label).Aria("label", label).Disabled(disabled).
		Text(text).OnClick(func(app.Context, app.Event) { t.Ctl.Do(protocol.Command{Op: op}) })
}

func speedText(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64) + " steps/s"
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
