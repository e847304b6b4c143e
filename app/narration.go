package app

import (
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
)

// Narration is the right-hand panel's story of the current step: the
// lesson's note for it, then one sentence per decision of the scheduler
// (scenarios.Narrate), the step's own error and the lesson's checks.
type Narration struct {
	app.Compo

	// F is the frame shown.
	F *store.Frame

	// of is the narration shown, drawn its first drawn lines. A long
	// narration (a tick of every node: a hundred heartbeats, hundreds of
	// lines in a box that shows a few dozen) is drawn narrationFirst lines
	// with the step, then narrationMore a frame: the step's frame comes
	// without waiting for the browser to make and lay out the lines below
	// the box's fold.
	of    []string
	drawn int
	// more says that the next lines' turn is asked for (drawRest).
	more    bool
	yielder *Yielder
}

// The narration's lines drawn with a step, and then a frame (Narration).
const (
	narrationFirst = 40
	narrationMore  = 120
)

// OnMount draws the rest of a long narration in the frames that follow.
func (n *Narration) OnMount(ctx app.Context) { n.drawRest(ctx) }

// OnUpdate draws the rest of a new long narration in the frames that
// follow.
func (n *Narration) OnUpdate(ctx app.Context) { n.drawRest(ctx) }

// OnDismount frees the yielder.
func (n *Narration) OnDismount() {
	if n.yielder != nil {
		n.yielder.Release()
		n.yielder = nil
	}
}

// lines returns the narration's lines to draw: every line natively (the
// pre-rendered pages, the tests), else those drawn so far of this
// narration, narrationFirst of a new one.
func (n *Narration) lines() []string {
	lines := n.F.Narration
	if !app.IsClient {
		return lines
	}
	if !sameLines(n.of, lines) {
		n.of, n.drawn = lines, min(len(lines), narrationFirst)
	}
	return lines[:n.drawn]
}

// drawRest has the next narrationMore lines drawn after the browser's next
// frame, until every line is.
func (n *Narration) drawRest(ctx app.Context) {
	if !app.IsClient || n.F == nil {
		return
	}
	if n.lines(); n.drawn >= len(n.of) || n.more {
		return
	}
	if n.yielder == nil {
		n.yielder = NewYielder()
	}
	n.more = true
	later(ctx, n.yielder, func(ctx app.Context) {
		n.more = false
		if n.drawn < len(n.of) {
			n.drawn = min(len(n.of), n.drawn+narrationMore)
		}
		n.drawRest(ctx)
	})
}

// sameLines reports whether a and b are the same narration: the same
// lines, as every frame of a step has them (each frame from the worker
// brings them anew: a new selection must not draw them again from the
// first, and move the list under the reader).
func sameLines(a, b []string) bool { return slices.Equal(a, b) }

// Render draws the panel.
func (n *Narration) Render() app.UI {
	f := n.F
	if f == nil {
		return app.Section().Class("narration")
	}
	return app.Section().ID("narration").Class("panel narration").Aria("labelledby", "narration-title").Body(
		app.H2().ID("narration-title").Text("What happened"),
		app.P().ID("step-label").Class("step-label").DataSet("parity", stepParity(f.Step)).Text(f.Label),
		&Walker{F: f},
		slot(f.Note != "", func() app.UI {
			return app.Aside().ID("lesson-note").Class("lesson-note").Aria("label", "Lesson note").Body(Markdown(f.Note))
		}),
		slot(f.StepError != "", func() app.UI {
			cls, lead := "step-error", "This step fails: "
			if f.Expected {
				cls, lead = "step-error expected", "This step fails, as the scenario says it must: "
			}
			return app.P().ID("step-error").Class(cls).Role("status").Body(app.Strong().Text(lead), app.Text(f.StepError))
		}),
		app.If(len(f.Narration) == 0, func() app.UI {
			return app.P().Class("muted").Text("No decision in this step.")
		}).Else(func() app.UI {
			lines := n.lines()
			return app.Ol().ID("narration-lines").Class("narration-lines").DataSet("parity", stepParity(f.Step)).
				Attr("aria-busy", len(lines) < len(f.Narration)).Body(
				app.Range(lines).Slice(func(i int) app.UI { return app.Li().Text(lines[i]) }),
			)
		}),
		app.If(len(f.Check) > 0, func() app.UI {
			return app.Details().Class("checks").Body(
				app.Summary().Text("Expectations that do not hold ("+nOf(len(f.Check), "mismatch", "mismatches")+")"),
				app.Ul().Body(app.Range(f.Check).Slice(func(i int) app.UI { return app.Li().Text(f.Check[i]) })),
			)
		}),
	)
}
