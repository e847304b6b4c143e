package app

import (
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/protocol"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

// Page is the playground, on every route: the queue tree on the left, the
// nodes and leaf lanes in the centre, the lesson, narration and formulas
// on the right, the editors below and the timeline at the bottom.
//
// The static pages are pre-rendered with the route's lesson at its start,
// computed natively by the same store and views, inert until the
// WebAssembly takes over; in the browser the work is loaded before the
// first render, which replaces the pre-rendered page in one step
// (page_load.go).
type Page struct {
	app.Compo

	ctl     *Controller
	storage bridge.Storage
	hash    bridge.Fragment
	stopKey func()
	loaded  bool
	route   string // the path the page answers (set by Routes)
	slug    string // the lesson of the route ("" on /)
	frag    string // the fragment the page opened with (Load has handled it)

	// prerendered is true in the static page's rendering (the route's
	// lesson at its start, not yet interactive); live once the page is
	// mounted in the browser.
	prerendered bool
	live        bool

	// ui is the page's context for its timers (play, saving); timers is
	// false in native tests, where saves happen at once and play does not
	// run by itself.
	ui       app.Context
	timers   bool
	playing  bool
	speed    int
	playGen  int
	saveGen  int
	saveCost time.Duration // how long the last save took
	showKeys bool
	// capView is the capacities table's view, kept while it is the same.
	capView viewCache
	// calls are the callbacks the page gives its panels (callbacks).
	calls *pageCallbacks
	// stages are the frames the panels of the later stages show, and the
	// actions waiting for them (stages.go).
	stages stagedFrames
	// gcJumped is true from a jump's frame to the collection once every
	// stage shows the page's frame (advanceStage: the page's renders ask
	// for it while gcJumped is set); gcFrames counts the frames, and
	// gcWaiting is true while the collection waits for them to stop
	// (pagegc.go).
	gcJumped  bool
	gcFrames  int
	gcWaiting bool
	// undo keeps the work before the last destroying action (undo.go).
	undo Undo
	// saving is what the page knows of the work kept aside (savedwork.go).
	saving savedState
	// early are the replies that came before the mount (onUI).
	early []func()
	// drawn, in the browser, tells the simulation that the page has
	// drawn the last reply's frame (onUI).
	drawn func()
	// sight knows which later stages' panels are out of the window
	// (sight.go; nil natively).
	sight *panelSight
}

// Render draws the page.
func (p *Page) Render() app.UI {
	var f *store.Frame
	if p.ctl != nil && p.loaded {
		f = p.ctl.Frame()
	}
	root := app.Div().Class("page playground")
	if p.prerendered {
		root = root.Class("prerendered")
	} else if p.live {
		root = root.DataSet("app", "live")
	}
	working := p.ctl != nil && p.ctl.IsWorking()
	if working {
		root = root.Class("working").Aria("busy", "true")
	}
	return root.Body(
		app.Header().Class("topbar").Body(
			app.Img().Class("logo").Src(IconPath).Alt("").Aria("hidden", "true").Width(32).Height(32),
			app.Div().Body(
				app.H1().Body(app.A().Href(href(PathHome)).Text(Name)),
				app.P().Class("tagline").Text("The Apache Hadoop YARN Capacity Scheduler, in your browser."),
			),
			&LessonMenu{Current: p.currentLesson(f)},
		),
		app.If(p.prerendered, prerenderStatus),
		p.savedWorkBar(),
		// Always drawn, hidden when idle, so that the playground after it
		// keeps its place among the page's children.
		app.P().ID("working").Class("status working").Role("status").Hidden(!working).Text("Working…"),
		app.If(f == nil, func() app.UI {
			title := ""
			if l, ok := lessons.Get(p.slug); ok {
				title = l.Title + ": "
			}
			return app.P().ID("status").Class("status").Aria("live", "polite").Text(title + "Starting the scheduler…")
		}).ElseIf(p.prerendered, func() app.UI {
			return p.playground(f).Attr("inert", true)
		}).Else(func() app.UI { return p.playground(f) }),
	)
}

// prerenderStatus says, in the pre-rendered page, what the page is until
// the WebAssembly takes over. The stylesheet shows the sentence that
// applies: none while the scheduler loads (go-app's loader shows the
// progress; screen readers hear the first), the second when the page will
// open the visitor's own work instead (the head's script marks the
// document), the third without JavaScript.
func prerenderStatus() app.UI {
	return app.P().ID("status").Class("status prerender-status").Aria("live", "polite").Body(
		app.Span().Class("when-loading").Text("Starting the scheduler… This is the lesson's start; its controls work once the scheduler has loaded."),
		app.Span().Class("when-own-work").Text("Opening your work…"),
		app.Span().Class("when-noscript").Text("The scheduler runs in your browser and needs JavaScript and WebAssembly: this is the lesson's start, read-only."),
	)
}

func (p *Page) currentLesson(f *store.Frame) string {
	if f != nil {
		return f.Lesson
	}
	return p.slug
}

// playground is the page once the store has a frame.
func (p *Page) playground(f *store.Frame) app.HTMLDiv {
	pg := app.Div().Class("pg")
	if bigFrame(f) {
		pg = pg.Class("big")
	}
	lanes, chart, eds := p.staged(stageLanes, f), p.staged(stageChart, f), p.staged(stageEditors, f)
	pf := partitionFrame(f)
	if p.sight != nil && !bigFrame(f) {
		// The panels drawn, for a small cluster's next step (staged).
		p.ui.Defer(func(app.Context) { p.sight.watch() })
	}
	if len(p.stages.queued) > 0 || (p.gcJumped && p.loaded) {
		// advanceStage runs the action waiting, or collects after a jump,
		// once every stage shows f.
		p.nextStage()
	}
	// A stage's frame is nil while the page opens a big cluster (staged):
	// its panels come in its turn; the narration with the lanes' and the
	// capacities table with the chart's, then they show the page's frame.
	narr, capf := f, f
	if lanes == nil {
		narr = nil
	}
	if chart == nil {
		capf = nil
	}
	return pg.Body(
		// Always drawn, hidden when there is nothing to say: a message that
		// comes and goes would move the panels after it to other places
		// among the page's children, and go-app would draw them anew (the
		// editors losing their state and focus).
		app.Div().ID("error").Class("status error").Role("alert").Hidden(f.Err == "").Body(
			app.Span().ID("error-text").Text(withPercents(f.Err)),
			app.Button().Type("button").Class("dismiss").Aria("label", "Dismiss the message").Text("✕").
				OnClick(func(app.Context, app.Event) { p.ctl.Do(protocol.Command{Op: protocol.OpClearError}) }),
		),
		&ClusterMetrics{M: clusterMetricsOf(f)},
		undoBar(&p.undo, p.undoLast, p.keepChange),
		app.Div().Class("pg-layout").Body(
			app.Aside().Class("pg-left").Aria("label", "Queues").Body(
				&PartitionPicker{Partitions: f.Partitions, Cluster: rmText(f.Cluster), Selected: f.Partition, OnPick: p.callbacks().pickPartition},
				&QueueBars{Frame: pf, OnSelect: p.callbacks().selectQueue},
				&QueueDetail{Frame: *f},
			),
			app.Main().Class("pg-centre").Body(
				app.If(lanes != nil, func() app.UI { return &LeafLanes{Frame: *lanes, Queue: lanes.Selected} }).
					Else(stagePlaceholder),
				&FormulaPanel{Frame: pf, Partition: f.Partition},
				&NodeGrid{Frame: *f},
				app.If(chart != nil, func() app.UI {
					return &UsageChart{Frame: *chart, Parent: chartParent(chart), OnJump: p.callbacks().jump}
				}).Else(stagePlaceholder),
				capacities(&p.capView, capf),
			),
			app.Aside().Class("pg-right").Aria("label", "Lesson and narration").Body(
				lessonPanel(f),
				&Narration{F: narr},
			),
		),
		app.Div().Class("pg-editors").DataSet("frame-step", frameStep(eds)).Body(p.editors(eds)...),
		&Timeline{F: f, Ctl: p.ctl, Undo: &p.undo, Playing: p.playing, Speed: p.speed,
			OnPlay: p.togglePlay, OnSpeed: p.setSpeed, OnHelp: p.toggleKeys},
		app.If(p.showKeys, func() app.UI { return &KeysHelp{OnClose: p.toggleKeys} }),
	)
}

// editors are the editors' panels, showing eds (none before the editors'
// stage has its first turn).
func (p *Page) editors(eds *store.Frame) []app.UI {
	if eds == nil {
		return nil
	}
	return []app.UI{
		&AppEditor{F: eds, Ctl: p.ctl, Undo: &p.undo, Answers: p.ctl.Answers()},
		&QueueEditor{F: eds, Ctl: p.ctl, Storage: p.storage, Answers: p.ctl.Answers()},
		nodeEditor(eds, p.ctl, &p.undo),
		userEditor(eds, p.ctl),
		sharePanel(eds, p.ctl, &p.undo),
	}
}

// frameStep is the step of f, as the later stages' panels say it in their
// data-frame-step attribute (-1: none yet), which the browser tests read.
func frameStep(f *store.Frame) int {
	if f == nil {
		return -1
	}
	return f.Step
}

// stagePlaceholder stands, while a big cluster's page opens, for a panel
// whose stage has not had its turn yet (its place among the page's
// children kept).
func stagePlaceholder() app.UI { return app.Div().Class("stage-pending") }

// bigFrame reports whether a frame is of a big cluster (past the counts at
// which the queue list and the node canvas change how they draw): the
// stylesheet then lets the browser skip laying out the panels off screen.
func bigFrame(f *store.Frame) bool {
	return len(f.Queues) > virtualRows || len(f.Nodes) > denseNodes || f.AppCount() > maxAppRows
}

// chartParent is the parent whose children the usage chart stacks: the
// selected queue when it is a parent, else its parent, else root.
func chartParent(f *store.Frame) string {
	for i := range f.Queues {
		if q := &f.Queues[i]; q.Path == f.Selected {
			if q.Leaf {
				return q.Parent
			}
			return q.Path
		}
	}
	return config.RootQueue
}

// capacities is the configured capacities table (the old ResourceManager
// scheduler page's columns) of the configuration in force; cache keeps its
// view while it is the same.
func capacities(cache *viewCache, f *store.Frame) app.UI {
	if f == nil {
		return app.Text("") // the capacities' stage is to come
	}
	v, ok := cache.view(f)
	if !ok {
		return app.Text("")
	}
	return app.Details().ID("capacities").Class("panel capacities").Open(true).Body(
		app.Summary().Text("Configured capacities"),
		&ClusterSummary{Scenario: v.Name, Cluster: v.Cluster},
		&QueueTree{Root: v.Root},
	)
}

// pageCallbacks are the page's callbacks, made once: a panel given the
// same ones does not render again when its frame is the same.
type pageCallbacks struct {
	selectQueue   *Callback[string]
	jump          *Callback[int]
	pickPartition *Callback[string]
}

func (p *Page) callbacks() *pageCallbacks {
	if p.calls == nil {
		p.calls = &pageCallbacks{selectQueue: NewCallback(p.selectQueue), jump: NewCallback(p.jump), pickPartition: NewCallback(p.pickPartition)}
	}
	return p.calls
}

func (p *Page) selectQueue(path string) {
	p.ctl.Do(protocol.Command{Op: protocol.OpSelect, Queue: path, Toggle: true})
}

// undoLast brings back the work before the last destroying action.
func (p *Page) undoLast() { p.undo.Restore(p.ctl, nil) }

// keepChange forgets the undo point.
func (p *Page) keepChange() {
	p.undo.Dismiss()
	if p.ctl.Changed != nil {
		p.ctl.Changed()
	}
}

func (p *Page) jump(step int) {
	p.ctl.Do(protocol.Command{Op: protocol.OpJump, Step: step})
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
