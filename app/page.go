package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Page is the playground's start page: the default scenario's cluster and
// queue tree. The pre-rendered HTML carries only the frame and a loading
// note; the tree is computed by core when the page mounts in the browser.
type Page struct {
	app.Compo

	loaded bool
	view   ScenarioView
	err    error
}

// OnMount runs in the browser only: it parses the default scenario with
// core and shows the result.
func (p *Page) OnMount(ctx app.Context) {
	p.load(DefaultScenario())
}

// load builds the view of s. It is the whole of OnMount, kept apart so that
// native tests can run it.
func (p *Page) load(s Scenario) {
	p.view, p.err = BuildView(s)
	p.loaded = true
}

// Render draws the page.
func (p *Page) Render() app.UI {
	return app.Div().Class("page").Body(
		app.Header().Class("topbar").Body(
			app.Img().Class("logo").Src(IconPath).Alt(Name+" logo").Aria("hidden", "true").Width(32).Height(32),
			app.Div().Body(
				app.H1().Text(Name),
				app.P().Class("tagline").Text("The Apache Hadoop YARN Capacity Scheduler, in your browser."),
			),
		),
		app.Main().Class("content").Body(
			app.If(!p.loaded, func() app.UI {
				return app.P().ID("status").Class("status").Aria("live", "polite").
					Text("Starting the scheduler…")
			}).ElseIf(p.err != nil, func() app.UI {
				return app.P().ID("status").Class("status error").Role("alert").
					Text("The default scenario does not load: " + p.errText())
			}).Else(func() app.UI {
				return app.Div().Body(
					&ClusterSummary{Scenario: p.view.Name, Cluster: p.view.Cluster},
					&QueueTree{Root: p.view.Root},
				)
			}),
		),
		app.Footer().Class("footer").Body(
			app.Text("Capacities are computed by yarnplay's scheduler core, compiled to WebAssembly and running in this page."),
		),
	)
}

func (p *Page) errText() string {
	if p.err == nil {
		return ""
	}
	return p.err.Error()
}
