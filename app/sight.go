package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/internal/noeq"
)

// A small cluster's step (the timeline moved, nothing changed: stepped)
// draws every panel in the render that follows its reply, but for the
// later stages' panels that are out of the window: the usage chart
// (stageChart), which stands below the nodes, and the editors
// (stageEditors), below the rest. Those are drawn in a task of their own
// after the frame that shows the step (staged), so that what the learner
// sees is drawn first. Mounting the application editor's rows at the
// lesson's first submission took a third of that step's render. A panel
// in the window, or partly, is drawn with the step. (The capacities
// table, of the chart's stage too, shows the page's frame once the stage
// has had its first turn: it changes with the configuration only.)

// stagedPanels are the later stages' panels whose place in the window
// panelSight watches, as a selector, and their stage.
var stagedPanels = [...]struct {
	selector string
	stage    int
}{
	{".pg .usage-chart", stageChart},
	{".pg .pg-editors", stageEditors},
}

// panelSight knows which of the later stages' panels are in the window:
// an IntersectionObserver reports their boxes coming in and going out, and
// each panel's element keeps the last report (awayKey; until the first, a
// panel counts as in the window). Browser only; nil natively, where every
// panel counts as in sight.
type panelSight struct {
	_        noeq.T
	observer app.Value
	onChange app.Func
}

// The properties of a panel's element: awayKey is true when the element
// was out of the window at the observer's last report, watchedKey once the
// observer watches it.
const (
	awayKey    = "yarnplayAway"
	watchedKey = "yarnplayWatched"
)

// newPanelSight returns a panelSight, or nil where the browser has no
// IntersectionObserver.
func newPanelSight() *panelSight {
	io := app.Window().Get("IntersectionObserver")
	if !app.IsClient || !io.Truthy() {
		return nil
	}
	s := &panelSight{}
	s.onChange = app.FuncOf(func(_ app.Value, args []app.Value) any {
		entries := args[0]
		for i := range entries.Length() {
			e := entries.Index(i)
			e.Get("target").Set(awayKey, !e.Get("isIntersecting").Bool())
		}
		return nil
	})
	s.observer = io.New(s.onChange)
	return s
}

// watch observes the panels the page shows now that it does not observe
// yet (the first render, or one that drew a panel anew): after each render
// of the page.
func (s *panelSight) watch() {
	if s == nil {
		return
	}
	doc := app.Window().Get("document")
	for _, p := range stagedPanels {
		if el := doc.Call("querySelector", p.selector); el.Truthy() && !el.Get(watchedKey).Truthy() {
			el.Set(watchedKey, true)
			s.observer.Call("observe", el)
		}
	}
}

// away reports whether stage k's panels are all out of the window, as the
// observer last reported (false before its first report, and for a stage
// whose panels the page does not show).
func (s *panelSight) away(k int) bool {
	if s == nil {
		return false
	}
	doc := app.Window().Get("document")
	watched := false
	for _, p := range stagedPanels {
		if p.stage != k {
			continue
		}
		if el := doc.Call("querySelector", p.selector); !el.Truthy() || !el.Get(awayKey).Truthy() {
			return false
		}
		watched = true
	}
	return watched
}

// release stops observing (the page is gone).
func (s *panelSight) release() {
	if s == nil {
		return
	}
	s.observer.Call("disconnect")
	s.onChange.Release()
}
