package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
	"yarnplay/protocol"
	"yarnplay/scenarios"
)

// AppEditor submits applications (as a user, to a leaf queue, with an AM
// size), makes their AMs ask for containers (size, count, locality,
// duration) and finishes or kills them. Each action is a step at the
// current position: standing before the end replaces the later steps.
type AppEditor struct {
	app.Compo

	// F is the frame shown; Ctl reaches the store.
	F   *store.Frame
	Ctl *Controller
	// Undo, if set, keeps the work before an action at an earlier step.
	Undo *Undo
	// Answers is the controller's count of replies (Controller.Answers):
	// a new one draws the editor again, for the why panel's answer.
	Answers int

	// why is the answer of "why is this application waiting?" (aeWhy).
	why whyAnswer
}

// maxAppRows bounds the applications the table lists (and the options of
// the list of running applications): past it, the table lists the
// selected queue's applications, or the first ones, and says how many
// there are; the ask form takes the application's id typed in. The
// frame's methods say which (store.Frame.TableApps, LiveApps,
// WhyChoices), the same on the page, which holds only those, as in the
// simulation, which holds them all.
const maxAppRows = store.MaxAppRows

// Render draws the editor. Its forms and table are components of plain
// values, so go-app draws them again only when what they show changed.
func (e *AppEditor) Render() app.UI {
	f := e.F
	if f == nil {
		return app.Section().Class("app-editor")
	}
	leaves := submitQueues(f.Queues)
	live, last := f.LiveApps()
	return app.Section().ID("app-editor").Class("panel app-editor").Aria("labelledby", "ae-title").Body(
		app.H2().ID("ae-title").Text("Applications"),
		slot(f.Step < f.Steps, func() app.UI {
			return app.P().Class("notice").Text("You stand before the end: an action here replaces the " +
				nOf(f.Steps-f.Step, "later step", "later steps") + ".")
		}),
		&aeSubmitForm{Ed: e, Leaves: leaves, Selected: f.Selected},
		slot(last != "", func() app.UI {
			return &aeAskForm{Ed: e, Live: live, Last: last}
		}),
		app.If(f.AppCount() > 0, func() app.UI {
			rows, note := appRows(f)
			return &aeTable{Ed: e, Rows: rows, Note: note}
		}),
		app.If(last != "", func() app.UI {
			return &aeWhy{Ed: e, Live: f.WhyChoices(), Step: f.Step, Rev: f.Revision, Dominant: f.Dominant, Answers: e.Answers}
		}),
	)
}

// appRow is one application in the table.
type appRow struct {
	_                      noeq.T
	ID, User, Queue, State string
	Live                   int
	Alive                  bool
	// The RM UI's columns: the application's priority (not a request's),
	// its start and finish ticks ("" while live), its live containers'
	// memory and vcores, its reservations, and % of Queue (over the
	// queue's guarantee) and % of Cluster.
	Priority             int
	Start, Finish        string
	AllocMB, AllocVCores int64
	Reserved             string
	PctQueue, PctCluster string
}

// appState is an app's state for the table, with its attempt's number
// once an attempt has failed, and why an accepted app does not run when
// max-parallel-apps holds it (CSMaxRunningAppsEnforcer).
func appState(a *core.AppView) string {
	s := string(a.State)
	if a.Attempt > 1 {
		s += " (attempt " + itoa(a.Attempt) + ")"
	}
	if a.NotRunnable {
		s += ", not runnable: max-parallel-apps reached; it starts when an app of its queue or user finishes"
	}
	return s
}

// appRows lists the frame's applications for the table: all of them up to
// maxAppRows; past it, those of the selected queue (and below), or the
// first ones, with a note saying so (store.Frame.TableApps).
func appRows(f *store.Frame) ([]appRow, string) {
	guar := make(map[string]resource.Resource, len(f.Queues))
	for i := range f.Queues {
		guar[f.Queues[i].Path] = f.Queues[i].EffectiveMin
	}
	rc := frameCalc(f)
	at, n, scope := f.TableApps()
	var rows []appRow
	for _, i := range at {
		a := &f.Apps[i]
		r := appRow{ID: a.ID, User: a.User, Queue: a.Queue, State: appState(a), Live: a.LiveContainers,
			Alive:    store.IsLive(a),
			Priority: a.Priority, Start: strconv.FormatInt(a.StartTick, 10),
			AllocMB: a.Consumption.MemoryMB, AllocVCores: a.Consumption.VCores, Reserved: "0",
			PctQueue:   pct1(usedPct(rc, f.Cluster, a.Consumption, guar[a.Queue])),
			PctCluster: pct1(usedPct(rc, f.Cluster, a.Consumption, f.Cluster)),
		}
		if a.FinishTick > 0 || !r.Alive {
			r.Finish = strconv.FormatInt(a.FinishTick, 10)
		}
		if a.ReservedContainers > 0 {
			r.Reserved = memText(a.Reserved.MemoryMB) + " (" + nOf(a.ReservedContainers, "container", "containers") + ")"
		}
		rows = append(rows, r)
	}
	note := ""
	switch {
	case n > len(rows):
		note = "The first " + itoa(len(rows)) + " of " + nOf(n, "application", "applications") + scope + "."
		if scope == "" {
			note += " Select a queue in the tree to list its own."
		}
	case scope != "":
		note = nOf(n, "application", "applications") + scope + ", of " + itoa(f.AppCount()) + "."
	}
	return rows, note
}

// aeSubmitForm submits an application.
type aeSubmitForm struct {
	app.Compo

	Ed       *AppEditor
	Leaves   []string
	Selected string
}

// Render draws the form.
func (c *aeSubmitForm) Render() app.UI {
	return app.Form().ID("ae-submit").Class("form-row").OnSubmit(c.Ed.submit).Body(
		textField("ae-user", "User", "text", "", "alice"),
		selectField("ae-queue", "Queue", c.Leaves, c.Selected),
		textField("ae-am-mb", "AM memory (MB; 0: no AM)", "number", "1024", ""),
		textField("ae-am-vcores", "AM vcores", "number", "1", ""),
		app.Button().Type("submit").ID("ae-submit-button").Text("Submit application"),
	)
}

// aeAskForm makes an application ask for containers: the application is
// chosen from Live, or typed in when there are too many to list (Live
// nil); Last is the one proposed.
type aeAskForm struct {
	app.Compo

	Ed   *AppEditor
	Live []string
	Last string
}

// Render draws the form.
func (c *aeAskForm) Render() app.UI {
	which := selectField("ae-app", "Application", c.Live, c.Last)
	if c.Live == nil {
		which = textField("ae-app", "Application (its id)", "text", c.Last, c.Last)
	}
	return app.Form().ID("ae-ask").Class("form-row").OnSubmit(c.Ed.ask).Body(
		which,
		textField("ae-priority", "Priority", "number", "1", ""),
		textField("ae-mb", "Memory (MB)", "number", "1024", ""),
		textField("ae-vcores", "Vcores", "number", "1", ""),
		textField("ae-count", "Count", "number", "1", ""),
		textField("ae-locality", "Locality (node, rack or *)", "text", "*", ""),
		textField("ae-duration", "Duration (ticks; 0: until finished)", "number", "0", ""),
		app.Button().Type("submit").ID("ae-ask-button").Text("Ask for containers"),
	)
}

// aeTable lists applications with their actions.
type aeTable struct {
	app.Compo

	Ed   *AppEditor
	Rows []appRow
	Note string
}

// Render draws the table.
func (c *aeTable) Render() app.UI {
	return app.Div().Class("ae-table").Body(
		app.If(c.Note != "", func() app.UI { return app.P().ID("ae-note").Class("muted").Text(c.Note) }),
		app.P().Class("why").Text("Application Priority orders applications in a leaf (higher first, then earlier submission); the narration's request priority orders one application's own asks. % of Queue is over the queue's guarantee, so it passes 100% when the queue borrows."),
		app.Div().Class("table-scroll").Body(app.Table().ID("ae-apps").Class("ae-apps").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("ID"), app.Th().Text("Actions"), app.Th().Text("User"), app.Th().Text("Queue"),
				app.Th().Text("Application Priority").Title("the application's priority (yarn's app priority), not a request's"),
				app.Th().Text("StartTime (tick)"), app.Th().Text("FinishTime (tick)"), app.Th().Text("State"),
				app.Th().Text("Running Containers"), app.Th().Text("Allocated Memory MB"), app.Th().Text("Allocated CPU VCores"),
				app.Th().Text("Reserved"), app.Th().Text("% of Queue"), app.Th().Text("% of Cluster"),
			)),
			app.TBody().Body(app.Range(c.Rows).Slice(func(i int) app.UI { return &aeRow{Ed: c.Ed, Row: &c.Rows[i]} })),
		)),
	)
}

// aeRow is one application of the table, a component of plain values
// (held by pointer, as laneCardRow's): go-app draws again only the rows
// whose values changed.
type aeRow struct {
	app.Compo

	Ed  *AppEditor
	Row *appRow
}

// Render draws the row.
func (r *aeRow) Render() app.UI { return r.Ed.appRow(*r.Row) }

func (e *AppEditor) appRow(a appRow) app.UI {
	return app.Tr().DataSet("app", a.ID).Body(
		app.Td().Text(a.ID),
		app.Td().Body(app.If(a.Alive, func() app.UI {
			return app.Span().Body(
				app.Button().Type("button").DataSet("app", a.ID).Aria("label", "Finish one container of "+a.ID).
					Text("finish a container").OnClick(e.finishContainer),
				app.Button().Type("button").DataSet("app", a.ID).Aria("label", "Finish "+a.ID).
					Text("finish").OnClick(e.finish),
				app.Button().Type("button").DataSet("app", a.ID).DataSet("user", a.User).
					Aria("label", "Kill "+a.ID+" as "+a.User).Text("kill").OnClick(e.kill),
			)
		})),
		app.Td().Text(a.User), app.Td().Text(a.Queue),
		app.Td().DataSet("field", "priority").Text(itoa(a.Priority)),
		app.Td().DataSet("field", "start").Text(a.Start), app.Td().DataSet("field", "finish").Text(a.Finish),
		app.Td().DataSet("field", "state").Text(a.State),
		app.Td().DataSet("field", "containers").Text(itoa(a.Live)),
		app.Td().DataSet("field", "allocated-mb").Text(strconv.FormatInt(a.AllocMB, 10)),
		app.Td().DataSet("field", "allocated-vcores").Text(strconv.FormatInt(a.AllocVCores, 10)),
		app.Td().DataSet("field", "reserved").Text(a.Reserved),
		app.Td().DataSet("field", "pct-queue").Text(a.PctQueue),
		app.Td().DataSet("field", "pct-cluster").Text(a.PctCluster),
	)
}

func (e *AppEditor) submit(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	sub := scenarios.Submit{User: inputValue("ae-user"), Queue: inputValue("ae-queue")}
	if mb := inputInt("ae-am-mb", 0); mb > 0 {
		sub.AM = &scenarios.Res{MemoryMB: mb, VCores: inputInt("ae-am-vcores", 1)}
	}
	doAt(e.Undo, e.Ctl, e.F, "submitted "+sub.App, protocol.Command{Op: protocol.OpSubmit, Submit: &sub}, nil)
}

func (e *AppEditor) ask(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	a := scenarios.Ask{
		App:      inputValue("ae-app"),
		Priority: int(inputInt("ae-priority", 1)),
		Resource: scenarios.Res{MemoryMB: inputInt("ae-mb", 1024), VCores: inputInt("ae-vcores", 1)},
		Count:    int(inputInt("ae-count", 1)),
		Locality: orText(inputValue("ae-locality"), core.AnyLocation),
		Duration: inputInt("ae-duration", 0),
	}
	doAt(e.Undo, e.Ctl, e.F, "made "+a.App+" ask for containers", protocol.Command{Op: protocol.OpRequest, Asks: []scenarios.Ask{a}}, nil)
}

func (e *AppEditor) finishContainer(ctx app.Context, _ app.Event) {
	id := data(ctx, "app")
	doAt(e.Undo, e.Ctl, e.F, "finished a container of "+id, protocol.Command{Op: protocol.OpFinishContainers, App: id, N: 1}, nil)
}

func (e *AppEditor) finish(ctx app.Context, _ app.Event) {
	id := data(ctx, "app")
	doAt(e.Undo, e.Ctl, e.F, "finished "+id, protocol.Command{Op: protocol.OpFinishApp, App: id}, nil)
}

func (e *AppEditor) kill(ctx app.Context, _ app.Event) {
	id, user := data(ctx, "app"), data(ctx, "user")
	doAt(e.Undo, e.Ctl, e.F, "killed "+id, protocol.Command{Op: protocol.OpKillApp, App: id, User: user}, nil)
}

// submitQueues are the queues the submit form offers: the leaves, and
// "default" when an auto-create enabled parent waits for the queue
// mappings to place applications (Hadoop places an application that names
// "default" by them, and creates its leaf).
func submitQueues(queues []core.QueueView) []string {
	var out []string
	managed := false
	for _, q := range queues {
		if q.Leaf {
			out = append(out, q.Path)
		}
		managed = managed || q.ManagedParent || q.FlexibleParent
	}
	if managed {
		out = append(out, "default")
	}
	return out
}
