package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/internal/noeq"
)

// The walk's highlights are attributes on the views' own elements, set
// and taken off here (the views do not know of the walk): data-walk says
// what an element is in the decision lit (node, root, queue, leaf, order,
// skip, app, app-skip, alloc, reserve, finished, done, line),
// data-walk-rank a child's place in its parent's order and
// data-walk-reason why it was passed over.

// walkAttrs are the attributes the walk sets.
var walkAttrs = []string{"data-walk", "data-walk-rank", "data-walk-reason"}

// Selectors of the views' elements.
func nodeSel(n string) string { return `[data-node="` + n + `"]` }
func queueSel(q string) string {
	return `.qb-row[data-queue="` + q + `"], li.queue[data-queue="` + q + `"], .lane[data-queue="` + q + `"]`
}
func appSel(a string) string { return `li.app-card[data-app="` + a + `"]` }

// clearWalkMarks takes every highlight of the walk off the page.
func clearWalkMarks() {
	if !app.IsClient {
		return
	}
	els := app.Window().Get("document").Call("querySelectorAll", "[data-walk]")
	for i := els.Get("length").Int() - 1; i >= 0; i-- {
		el := els.Call("item", i)
		for _, a := range walkAttrs {
			el.Call("removeAttribute", a)
		}
	}
}

// walkMark is one highlight: the elements selected get data-walk=Mark.
type walkMark struct {
	_                       noeq.T
	Sel, Mark, Rank, Reason string
	// Main is the element scrolled into view.
	Main bool
}

// walkMarks are the highlights of a step: the node stays lit through its
// heartbeat, the leaf through its apps, and the step's decision is lit
// last, with its narration line.
func walkMarks(s WalkStep) []walkMark {
	out := []walkMark{{Sel: nodeSel(s.Node), Mark: "node", Main: s.Kind == WalkNode}}
	switch s.Kind {
	case WalkRoot, WalkQueue, WalkLeaf:
		out = append(out, walkMark{Sel: queueSel(s.Queue), Mark: s.Kind, Main: true})
	case WalkOrder:
		out = append(out, walkMark{Sel: queueSel(s.Queue), Mark: "queue"})
		for i, c := range s.Order {
			out = append(out, walkMark{Sel: queueSel(c), Mark: "order", Rank: strconv.Itoa(i + 1), Main: i == 0})
		}
	case WalkQueueSkip:
		out = append(out, walkMark{Sel: queueSel(s.Queue), Mark: "skip", Reason: s.Reason, Main: true})
	case WalkApp, WalkAppSkip, WalkAlloc, WalkReserve, WalkFinished:
		if s.Queue != "" {
			out = append(out, walkMark{Sel: queueSel(s.Queue), Mark: "leaf"})
		}
		if s.App != "" {
			out = append(out, walkMark{Sel: appSel(s.App), Mark: s.Kind, Reason: s.Reason, Main: true})
		}
		if s.Kind != WalkApp && s.Kind != WalkAppSkip {
			out = append(out, walkMark{Sel: nodeSel(s.Node), Mark: s.Kind})
		}
	case WalkDone:
		out = append(out, walkMark{Sel: nodeSel(s.Node), Mark: "done", Reason: s.Reason, Main: true})
	}
	if s.Line >= 0 {
		out = append(out, walkMark{Sel: "#narration-lines > li:nth-child(" + strconv.Itoa(s.Line+1) + ")", Mark: "line"})
	}
	return out
}

// markWalk lights step s on the page.
func markWalk(s WalkStep) {
	if !app.IsClient {
		return
	}
	clearWalkMarks()
	doc := app.Window().Get("document")
	smooth := "smooth"
	if reducedMotion() {
		smooth = "auto"
	}
	var main app.Value
	for _, m := range walkMarks(s) {
		els := doc.Call("querySelectorAll", m.Sel)
		for i := 0; i < els.Get("length").Int(); i++ {
			el := els.Call("item", i)
			el.Call("setAttribute", "data-walk", m.Mark)
			if m.Rank != "" {
				el.Call("setAttribute", "data-walk-rank", m.Rank)
			}
			if m.Reason != "" {
				el.Call("setAttribute", "data-walk-reason", m.Reason)
			}
			if m.Mark == "line" {
				scrollWithin(el)
			}
			if m.Main && main == nil {
				main = el
			}
		}
	}
	if main != nil {
		main.Call("scrollIntoView", map[string]any{"block": "nearest", "inline": "nearest", "behavior": smooth})
	}
}

// scrollWithin brings a narration line into its list's view, scrolling
// the list alone (not the window, which keeps the lit views in sight).
func scrollWithin(li app.Value) {
	ol := li.Get("parentElement")
	if !ol.Truthy() {
		return
	}
	lr, or := li.Call("getBoundingClientRect"), ol.Call("getBoundingClientRect")
	top, bottom := lr.Get("top").Float()-or.Get("top").Float(), lr.Get("bottom").Float()-or.Get("top").Float()
	if h := ol.Get("clientHeight").Float(); top < 0 || bottom > h {
		ol.Set("scrollTop", ol.Get("scrollTop").Float()+top-h/3)
	}
}
