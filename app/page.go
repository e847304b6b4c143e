package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

// Page is the playground, on every route: the queue tree on the left, the
// nodes and leaf lanes in the centre, the lesson, narration and formulas
// on the right, the editors below and the timeline at the bottom. The
// pre-rendered HTML carries only the frame and a loading note (and the
// lesson's title on a lesson's page); the store is made in the browser,
// in OnMount, and the work is loaded in OnNav (page_load.go).
type Page struct {
	app.Compo

	ctl     *Controller
	storage bridge.Storage
	hash    bridge.Fragment
	stopKey func()
	loaded  bool
	slug    string // the lesson of the route ("" on /)

	// ui is the page's context for its timers (play, saving); timers is
	// false in native tests, where saves happen at once and play does not
	// run by itself.
	ui       app.Context
	timers   bool
	playing  bool
	speed    int
	playGen  int
	saveGen  int
	showKeys bool
}

// Render draws the page.
func (p *Page) Render() app.UI {
	var f *store.Frame
	if p.ctl != nil && p.loaded {
		f = p.ctl.Frame()
	}
	return app.Div().Class("page playground").Body(
		app.Header().Class("topbar").Body(
			app.Img().Class("logo").Src(IconPath).Alt("").Aria("hidden", "true").Width(32).Height(32),
			app.Div().Body(
				app.H1().Body(app.A().Href(PathHome).Text(Name)),
				app.P().Class("tagline").Text("The Apache Hadoop YARN Capacity Scheduler, in your browser."),
			),
			&LessonMenu{Current: p.currentLesson(f)},
		),
		app.If(f == nil, func() app.UI {
			title := ""
			if l, ok := lessons.Get(p.slug); ok {
				title = l.Title + ": "
			}
			return app.P().ID("status").Class("status").Aria("live", "polite").Text(title + "Starting the scheduler…")
		}).Else(func() app.UI { return p.playground(f) }),
	)
}

func (p *Page) currentLesson(f *store.Frame) string {
	if f != nil {
		return f.Lesson
	}
	return p.slug
}

// playground is the page once the store has a frame.
func (p *Page) playground(f *store.Frame) app.UI {
	return app.Div().Class("pg").Body(
		app.If(f.Err != "", func() app.UI {
			return app.Div().ID("error").Class("status error").Role("alert").Body(
				app.Span().ID("error-text").Text(f.Err),
				app.Button().Type("button").Class("dismiss").Aria("label", "Dismiss the message").Text("✕").
					OnClick(func(app.Context, app.Event) { p.ctl.Do(func(s *store.Store) error { s.ClearError(); return nil }) }),
			)
		}),
		app.Div().Class("pg-layout").Body(
			app.Aside().Class("pg-left").Aria("label", "Queues").Body(
				&QueueBars{Frame: *f, OnSelect: p.selectQueue},
			),
			app.Main().Class("pg-centre").Body(
				&NodeGrid{Frame: *f},
				&LeafLanes{Frame: *f, Queue: f.Selected},
				&UsageChart{Frame: *f, Parent: chartParent(f), OnJump: p.jump},
				capacities(f),
			),
			app.Aside().Class("pg-right").Aria("label", "Lesson and narration").Body(
				&LessonPanel{F: f},
				&Narration{F: f},
				&FormulaPanel{Frame: *f},
			),
		),
		app.Div().Class("pg-editors").Body(
			&AppEditor{F: f, Ctl: p.ctl},
			&QueueEditor{F: f, Ctl: p.ctl},
			&NodeEditor{F: f, Ctl: p.ctl},
			&UserEditor{F: f, Ctl: p.ctl},
			&SharePanel{F: f, Ctl: p.ctl, Base: pageBase()},
		),
		&Timeline{F: f, Ctl: p.ctl, Playing: p.playing, Speed: p.speed,
			OnPlay: p.togglePlay, OnSpeed: p.setSpeed, OnHelp: p.toggleKeys},
		app.If(p.showKeys, func() app.UI { return &KeysHelp{OnClose: p.toggleKeys} }),
	)
}

// chartParent is the parent whose children the usage chart stacks: the
// selected queue when it is a parent, else its parent, else root.
func chartParent(f *store.Frame) string {
	for _, q := range f.Queues {
		if q.Path == f.Selected {
			if q.Leaf {
				return q.Parent
			}
			return q.Path
		}
	}
	return config.RootQueue
}

// capacities is the configured capacities table (the old ResourceManager
// scheduler page's columns) of the configuration in force.
func capacities(f *store.Frame) app.UI {
	v, ok := frameView(f)
	if !ok {
		return app.Text("")
	}
	return app.Details().ID("capacities").Class("panel capacities").Open(true).Body(
		app.Summary().Text("Configured capacities"),
		&ClusterSummary{Scenario: v.Name, Cluster: v.Cluster},
		&QueueTree{Root: v.Root},
	)
}

func (p *Page) selectQueue(path string) {
	p.ctl.Do(func(s *store.Store) error {
		if s.Frame().Selected == path {
			path = ""
		}
		s.Select(path)
		return nil
	})
}

func (p *Page) jump(step int) {
	p.ctl.Do(func(s *store.Store) error { s.Jump(step); return nil })
}

// pageBase is the page's address without its fragment ("" natively).
func pageBase() string {
	if !app.IsClient {
		return ""
	}
	href := app.Window().Get("location").Get("href").String()
	base, _, _ := strings.Cut(href, "#")
	return base
}
