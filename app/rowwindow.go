package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// virtualRows is the number of rows past which a list of queues (QueueBars,
// QueueTree, the queue editor) draws only the rows on screen: a thousand
// rows of spans, inputs and their event handlers cost the browser tens of
// milliseconds a frame to update and lay out, and the page's Go heap
// megabytes that its garbage collector marks in one go.
// overscanRows are drawn above and below the screen, so that scrolling
// shows rows already drawn; initialRows are drawn before the list's place
// is known.
const (
	virtualRows  = 150
	overscanRows = 12
	initialRows  = 40
)

// rowWindow is the part of a long list that is drawn, rows first to
// last-1, and follows the page's scrolling and size to move it. A
// component keeps one and calls follow from OnMount, recheck from OnUpdate
// and stop from OnDismount; its scan function looks where the list stands
// and sets first and last.
type rowWindow struct {
	first, last int
	onScroll    app.Func
	rescan      bool
	again       int // looks again after a move, since the last event
	frame       int // the animation frame requested for the next look (0 none)
	scanned     int // the number of rows when the list was last looked at
}

// maxLooksAgain bounds the looks again after the window moved.
const maxLooksAgain = 3

// span is the rows to draw of n: the window, clamped to the n rows, or the
// first initialRows before the list was looked at.
func (w *rowWindow) span(n int) (first, last int) {
	first, last = w.first, w.last
	if last <= first {
		first, last = 0, initialRows
	}
	first = min(max(first, 0), n)
	return first, min(max(last, first), n)
}

// set moves the window and reports whether it moved.
func (w *rowWindow) set(first, last int) bool {
	if first == w.first && last == w.last {
		return false
	}
	w.first, w.last = first, last
	return true
}

// follow looks where the list is, in the browser, after it is drawn and
// then whenever the page scrolls or is resized, at most once a frame, on
// the UI goroutine; the component is drawn again when scan reports that
// the rows to draw changed. n is the number of rows.
func (w *rowWindow) follow(ctx app.Context, n int, scan func() bool) {
	if app.IsServer {
		return
	}
	w.onScroll = app.FuncOf(func(_ app.Value, args []app.Value) any {
		// Scroll events come every frame: one look a frame is enough.
		if w.rescan {
			return nil
		}
		w.rescan, w.frame = true, 0
		if len(args) > 0 && args[0].Type() == app.TypeObject {
			w.again = 0 // an event, not a look again
		}
		ctx.Dispatch(func(ctx app.Context) {
			w.rescan = false
			if !scan() {
				ctx.PreventUpdate()
				return
			}
			// The rows drawn at their real heights move the ones after
			// them (and the browser may scroll to keep what is on screen
			// in place): look again in the next frame, a few times.
			if w.again < maxLooksAgain {
				w.again++
				ctx.Defer(func(app.Context) {
					if w.onScroll != nil {
						w.frame = app.Window().Call("requestAnimationFrame", w.onScroll).Int()
					}
				})
			}
		})
		return nil
	})
	opts := map[string]any{"passive": true}
	app.Window().Call("addEventListener", "scroll", w.onScroll, opts)
	app.Window().Call("addEventListener", "resize", w.onScroll, opts)
	w.scanned = n
	lookLater(ctx, scan, windowLooks)
}

// recheck looks again where the list is when its number of rows changed
// (a new tree); scrolling and resizing look by themselves. Looking makes
// the browser lay the page out at once: not on every frame.
func (w *rowWindow) recheck(ctx app.Context, n int, scan func() bool) {
	if app.IsServer || n == w.scanned {
		return
	}
	w.scanned = n
	lookLater(ctx, scan, windowLooks)
}

// lookLater looks (scan) once the browser has drawn the component, and
// again, up to looks times, while a look finds rows to draw anew: rows
// drawn at their real heights move the ones after them. A look makes the
// browser lay the page out at once: looks right after the render held the
// frame of the page's opening back by a layout of the whole page and a
// render of the rows found. The frame shows the first initialRows
// meanwhile. A component gone meanwhile finds nothing (its scan checks).
func lookLater(ctx app.Context, scan func() bool, looks int) {
	if windowYielder == nil {
		windowYielder = NewYielder()
	}
	later(ctx, windowYielder, func(ctx app.Context) {
		if !scan() {
			ctx.PreventUpdate() // nothing to draw anew
			return
		}
		if looks > 1 {
			// The dispatch draws the rows found; then a look again.
			ctx.Defer(func(ctx app.Context) { lookLater(ctx, scan, looks-1) })
		}
	})
}

// windowLooks is how many times lookLater looks after a list is drawn
// or its number of rows changed.
const windowLooks = 2

// windowYielder is the row windows' (lookLater): one for the page's lifetime,
// whose callbacks a component's end cannot release under a look waiting.
var windowYielder *Yielder

// stop stops following the page.
func (w *rowWindow) stop() {
	if w.onScroll != nil {
		if w.frame != 0 {
			app.Window().Call("cancelAnimationFrame", w.frame)
		}
		app.Window().Call("removeEventListener", "scroll", w.onScroll)
		app.Window().Call("removeEventListener", "resize", w.onScroll)
		w.onScroll.Release()
		w.onScroll = nil
	}
}

// A slotted list keeps one element per row, at the row's place among the
// list's children: the rows in the window (and a few kept drawn, such as
// the one holding the keyboard focus) are drawn in full, the others are
// empty placeholders (slotPlaceholder) of a row's estimated height. go-app
// matches children by their place, so a row that stays drawn keeps its
// elements while the window moves (the field being typed in keeps the
// focus and the caret), and the browser's tab order and a screen reader's
// reading order are the rows' order.

// slotPlaceholder stands for a row not drawn: an empty list item, which
// the stylesheet makes as tall as the list's --slot-h and hides (from
// screen readers too: visibility: hidden). It has no attribute: a list
// of a thousand rows makes a thousand of them at every render (QueueBars
// at every tick), and each attribute costs allocations (5.2 ms, 9,534
// allocations a render of QueueBars at 1,111 queues, natively, with a
// class and aria-hidden on each).
func slotPlaceholder() app.UI { return app.Li() }

// slotScan is what a look at a slotted list found: the rows on screen with
// overscanRows around them, and the row holding the focus (-1 if none).
type slotScan struct {
	first, last int
	focus       int
}

// scanSlots looks where the n children of the slotted list stand in the
// window. ok is false when the list is not drawn with n children yet.
func scanSlots(list app.Value, n int) (s slotScan, ok bool) {
	if !list.Truthy() {
		return s, false
	}
	kids := list.Get("children")
	if kids.Get("length").Int() != n || n == 0 {
		return s, false
	}
	rect := func(i int) app.Value { return kids.Call("item", i).Call("getBoundingClientRect") }
	view := app.Window().Get("innerHeight").Float()
	// The first row whose bottom is below the window's top, and the first
	// whose top is below its bottom: children are in the rows' order, so
	// their places only grow.
	top := search(n, func(i int) bool { return rect(i).Get("bottom").Float() > 0 })
	end := top + search(n-top, func(i int) bool { return rect(top+i).Get("top").Float() >= view })
	s.first = max(top-overscanRows, 0)
	s.last = min(max(end+overscanRows, s.first+1), n)
	s.focus = -1
	if a := app.Window().Get("document").Get("activeElement"); a.Truthy() && list.Call("contains", a).Bool() {
		if li := a.Call("closest", "li"); li.Truthy() {
			s.focus = app.Window().Get("Array").Get("prototype").Get("indexOf").Call("call", kids, li).Int()
		}
	}
	return s, true
}

// measureSlots is the mean height of the drawn rows first to last-1 of a
// slotted list (0 when there are none).
func measureSlots(list app.Value, first, last int) float64 {
	kids := list.Get("children")
	if last <= first || kids.Get("length").Int() < last {
		return 0
	}
	a := kids.Call("item", first).Call("getBoundingClientRect").Get("top").Float()
	b := kids.Call("item", last-1).Call("getBoundingClientRect").Get("bottom").Float()
	return max(b-a, 0) / float64(last-first)
}

// search is the smallest i in [0, n) for which f is true, n if none (f
// false then true, as sort.Search).
func search(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// slotWindow is a slotted list's window: which rows to draw, and the
// placeholders' height.
type slotWindow struct {
	rowWindow
	// focused is the row that held the keyboard focus at the last look,
	// plus one (0: none): it stays drawn when scrolled away, so that
	// typing goes on.
	focused int
	// rowH is a drawn row's mean height, measured at the window's width;
	// 0 until then.
	rowH, width float64
	// full is set by the first look (scan): from then on the list holds a
	// child for each row (children).
	full bool
}

// children is how many children a list of n rows draws, the rows in the
// window and the placeholders: one per row, but for a long list's first
// renders in the browser, before its first look, which draw the rows of
// the window alone (the first initialRows): the placeholders of a
// thousand queues, mounted one by one, came in the frame of the page's
// opening, where they show nothing (the queue bars), or in the long task
// of a later stage right after it (the capacities table, the queue
// editor: stages.go).
func (w *slotWindow) children(n int) int {
	if w.full || !app.IsClient || n <= virtualRows {
		return n
	}
	_, last := w.span(n)
	return last
}

// scan looks at the list of n rows and reports whether what to draw
// changed.
func (w *slotWindow) scan(list app.Value, n int) bool {
	if n <= virtualRows {
		return false
	}
	if !w.full {
		w.full = true
		if list.Truthy() && list.Get("children").Get("length").Int() != n {
			// The first look draws the placeholders (children); the
			// look after it finds the rows on screen among them
			// (lookLater).
			return true
		}
	}
	s, ok := scanSlots(list, n)
	if !ok {
		return false
	}
	first, last := w.span(n)
	changed := false
	// The placeholders' height is measured once for a width of the
	// window: measured at every look, it would change with the rows
	// drawn, and move every row after the placeholders.
	if width := app.Window().Get("innerWidth").Float(); w.rowH == 0 || width != w.width {
		if h := measureSlots(list, first, last); h > 0 {
			w.rowH, w.width, changed = h, width, true
		}
	}
	if s.focus+1 != w.focused {
		w.focused, changed = s.focus+1, true
	}
	return w.set(s.first, s.last) || changed
}

// drawn reports whether row i is drawn in full: in the window, or kept.
func (w *slotWindow) drawn(i, first, last int, keep ...int) bool {
	if i >= first && i < last || i == w.focused-1 {
		return true
	}
	for _, k := range keep {
		if i == k {
			return true
		}
	}
	return false
}

// height is the placeholders' height, as the list's --slot-h.
func (w *slotWindow) height(defaultH string) string {
	if w.rowH > 0 {
		return cssPx(w.rowH)
	}
	return defaultH
}

func cssPx(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "px" }
