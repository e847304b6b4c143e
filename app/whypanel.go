package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/protocol"
	"yarnplay/scenarios/why"
)

// whyAnswer is the "why is this application waiting?" panel's answer: the
// application asked about, the step and revision it was answered at, and
// the verdict (nil when the application does not wait there).
type whyAnswer struct {
	App       string
	Step, Rev int
	V         *why.Verdict
	// Asking is true until the simulation's answer is in.
	Asking bool
	// Dominant is the frame's: with the default (memory-only) calculator
	// the numbers are memory alone, as the scheduler compares them.
	Dominant bool
}

// whyChecks are the checks the scheduler makes on an application that
// waits, in the order it makes them (why's precedence): max-parallel-apps
// and the AM limits before it runs, then on each heartbeat the queues'
// maximum capacities from the top, the user limit, locality, reservations
// and a node with room.
var whyChecks = []struct {
	rule  why.Rule
	check string
}{
	{why.MaxParallelApps, "max-parallel-apps: may it run? (CSMaxRunningAppsEnforcer)"},
	{why.AMLimit, "queue AM limit: may its AM start? (maximum-am-resource-percent)"},
	{why.UserAMLimit, "user AM limit: may its user start one more AM?"},
	{why.ParentMaxCapacity, "parent queues' maximum capacity"},
	{why.QueueMaxCapacity, "its queue's maximum capacity and headroom"},
	{why.UserLimit, "its user's limit (minimum-user-limit-percent, user-limit-factor)"},
	{why.LocalityDelay, "locality (node-locality-delay, relax locality)"},
	{why.Reserved, "reservations (its own, or others' holding the nodes)"},
	{why.NoNodeFits, "a node with room for the ask"},
}

// aeWhy asks why an application waits: a list of the live applications,
// a button, and the answer for the step shown, asked again when the step
// or the work changes.
type aeWhy struct {
	app.Compo

	Ed   *AppEditor
	Live []string
	// Step and Rev are the frame's: a new step or edit asks again.
	Step, Rev int
	Dominant  bool
	// Answers is the controller's count of replies: a new one draws the
	// answer that came.
	Answers int
}

// Render draws the question and its answer.
func (c *aeWhy) Render() app.UI {
	e := c.Ed
	if a := e.why; a.App != "" && (a.Step != c.Step || a.Rev != c.Rev) {
		e.askWhy(a.App, c.Step, c.Rev)
	}
	e.why.Dominant = c.Dominant
	return app.Div().ID("why-panel").Class("why-panel").Body(
		app.Form().ID("why-form").Class("why-form").OnSubmit(c.ask).Body(
			app.Label().For("why-app").Text("Why is this application waiting?"),
			app.Select().ID("why-app").Body(app.Range(c.Live).Slice(func(i int) app.UI {
				return app.Option().Value(c.Live[i]).Text(c.Live[i]).Selected(c.Live[i] == e.why.App)
			})),
			app.Button().Type("submit").ID("why-ask").Text("Why?"),
		),
		whyAnswerView(e.why),
	)
}

func (c *aeWhy) ask(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	id := app.Window().Get("document").Call("getElementById", "why-app").Get("value").String()
	c.Ed.askWhy(id, c.Step, c.Rev)
}

// askWhy asks the simulation why app waits at the step shown
// (protocol.OpWhy); the answer is drawn once it is in, unless another
// question was asked meanwhile.
func (e *AppEditor) askWhy(id string, step, rev int) {
	e.why = whyAnswer{App: id, Step: step, Rev: rev, Dominant: e.why.Dominant, Asking: true}
	e.Ctl.Send(protocol.Command{Op: protocol.OpWhy, App: id}, func(rep protocol.Reply) {
		if a := e.why; a.App != id || a.Step != step || a.Rev != rev {
			return
		}
		e.why.Asking = false
		e.Ctl.Redraw()
		if v, err := protocol.VerdictOf(rep); err == nil {
			e.why.V = v
		}
	})
}

// whyAnswerView draws an answer: the checks in order, passed up to the
// one that stops the application, which is named with its numbers.
func whyAnswerView(a whyAnswer) app.UI {
	out := app.Div().ID("why-answer").Class("why-answer").Aria("live", "polite")
	switch {
	case a.App == "":
		return out.Body(app.P().Class("muted").Text("Choose an application: the next tick of every node is played on a copy, and the check that stops it is named with its numbers, as yarnplay-why does for a real cluster."))
	case a.Asking:
		return out.Body(app.P().Class("muted").Text("Playing the next tick on a copy, to see what stops " + a.App + "…"))
	case a.V == nil:
		return out.Body(app.P().DataSet("rule", "none").Text(a.App + " does not wait at step " + itoa(a.Step) + ": it has no pending ask, or it has finished."))
	}
	v := a.V
	if v.Rule == why.None {
		return out.Body(app.P().DataSet("rule", "none").Text(v.Sentence + "."))
	}
	head := app.P().Class("why-verdict").DataSet("rule", string(v.Rule)).Body(
		app.Strong().Text(string(v.Rule)), app.Text(": "+v.Sentence+"."))
	if v.State == core.AppRejected {
		return out.Body(head)
	}
	stop := -1
	for i, c := range whyChecks {
		if c.rule == v.Rule {
			stop = i
		}
	}
	return out.Body(
		head,
		app.Ol().Class("why-chain").Aria("label", "The checks on "+v.App+", in the scheduler's order").Body(
			app.Range(whyChecks).Slice(func(i int) app.UI {
				c := whyChecks[i]
				li := app.Li().DataSet("rule", string(c.rule))
				switch {
				case i < stop:
					return li.Class("passed").Body(app.Span().Aria("hidden", "true").Text("✓ "), app.Text(c.check+": passed"))
				case i == stop:
					return li.Class("stopped").Body(app.Span().Aria("hidden", "true").Text("✗ "),
						app.Strong().Text(c.check+": stops it"), app.Text(whyNumbers(v, a.Dominant)))
				}
				return li.Class("not-reached").Text(c.check + ": not reached")
			}),
		),
		app.P().Class("why").Text("Checks above the one that stops it passed; those below it are not reached while it holds. As of step "+itoa(a.Step)+", from the next tick of every node played on a copy."),
	)
}

// whyNumbers are a verdict's numbers in words ("" when it has none): memory
// alone unless the dominant resource calculator compares vcores too.
func whyNumbers(v *why.Verdict, dominant bool) string {
	text := func(r resource.Resource) string {
		if dominant {
			return resText(r)
		}
		return memText(r.MemoryMB)
	}
	var s string
	if !v.Used.IsZero() || !v.Limit.IsZero() {
		s = " (" + text(v.Used) + " of " + text(v.Limit)
		if !v.Need.IsZero() {
			s += "; it asks for " + text(v.Need)
		}
		s += ")"
	} else if !v.Need.IsZero() {
		s = " (it asks for " + text(v.Need) + ")"
	}
	if v.Node != "" {
		s += " on " + v.Node
	}
	if v.Blocker != "" {
		s += ", behind " + v.Blocker + " in FIFO order"
	}
	if !dominant && s != "" {
		s += "; memory only: the default resource calculator does not compare vcores"
	}
	return s
}
