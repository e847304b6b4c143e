package app

import (
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
}

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
			return app.Ol().ID("narration-lines").Class("narration-lines").DataSet("parity", stepParity(f.Step)).Body(
				app.Range(f.Narration).Slice(func(i int) app.UI { return app.Li().Text(f.Narration[i]) }),
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
