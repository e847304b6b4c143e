package store

import (
	"slices"

	"yarnplay/core"
)

// The page holds only the applications it shows: at benchmark 5's scale
// (20,000 applications) holding them all made most of the page's heap, and
// reading them took time at every tick. The rules below say which it
// shows; the worker keeps the whole frame and cuts the page's frame by the
// same rules (ForPage), so that the page's views come out as they would
// from the whole frame.

// Bounds on what the page lists at once.
const (
	// MaxAppRows bounds the applications the table lists and the ask
	// form's and "why" offer: past it, the table lists the selected
	// queue's applications (and below), or the first ones.
	MaxAppRows = 100
	// MaxLanes is the most lanes shown when no one leaf is selected, and
	// MaxLaneCards the most application cards of a lane.
	MaxLanes     = 8
	MaxLaneCards = 40
	// NodesDrawnWhole is the most nodes the page draws with their
	// containers (cards or strips: app's stripsMax); past it the canvas
	// draws them (the simulation paints it, or the page: ForPage's
	// everyNode), and the node opened as a card shows its containers'
	// applications.
	NodesDrawnWhole = 200
)

// Shown says which of the state's applications a page's frame holds in
// Apps, and what the page shows of the others. A frame whose Shown is nil
// holds every application (the store's frames).
type Shown struct {
	// Index is, for each of Apps, its index among all the applications
	// (submission order, as ContainerBrief.App counts), increasing.
	Index []int32
	// Rank is, for each of Apps, its index among its queue's
	// applications, all of them: its colour's shade.
	Rank []int32
	// Total counts all the applications, Live the accepted or running
	// ones, InScope those of the table's scope (TableScope).
	Total, Live, InScope int
	// Containers is the selected queue's live containers, its own
	// applications' and its descendants' (queue detail's Num Containers).
	Containers int
}

// IsLive reports whether an application is live: accepted or running.
func IsLive(a *core.AppView) bool { return a.State == core.AppAccepted || a.State == core.AppRunning }

// InQueue reports whether queue is path or a queue below it.
func InQueue(path, queue string) bool {
	return queue == path || len(queue) > len(path) && queue[:len(path)] == path && queue[len(path)] == '.'
}

// AppCount is the number of all the applications, held or not.
func (f *Frame) AppCount() int {
	if f.Shown != nil {
		return f.Shown.Total
	}
	return len(f.Apps)
}

// LiveCount is the number of live applications, held or not.
func (f *Frame) LiveCount() int {
	if f.Shown != nil {
		return f.Shown.Live
	}
	n := 0
	for i := range f.Apps {
		if IsLive(&f.Apps[i]) {
			n++
		}
	}
	return n
}

// App is the application of index i among all of them (as
// ContainerBrief.App counts), nil when the frame does not hold it.
func (f *Frame) App(i int) *core.AppView {
	if f.Shown == nil {
		if i < 0 || i >= len(f.Apps) {
			return nil
		}
		return &f.Apps[i]
	}
	if k, ok := slices.BinarySearch(f.Shown.Index, int32(i)); ok && k < len(f.Apps) {
		return &f.Apps[k]
	}
	return nil
}

// AppRanks is, for each of Apps, its index among its queue's
// applications, all of them.
func (f *Frame) AppRanks() []int32 {
	if f.Shown != nil {
		return f.Shown.Rank
	}
	return ranks(f.Apps)
}

// ranks is each application's index among its queue's.
func ranks(apps []core.AppView) []int32 {
	out := make([]int32, len(apps))
	perQueue := map[string]int32{}
	for i := range apps {
		q := apps[i].Queue
		out[i] = perQueue[q]
		perQueue[q]++
	}
	return out
}

// TableScope is the applications the table lists from: all of them up to
// MaxAppRows; past it, with a queue selected, those of that queue and
// below, which scope names (" in root.a"; "" for all).
func (f *Frame) TableScope() (in func(*core.AppView) bool, scope string) {
	if f.AppCount() > MaxAppRows && f.Selected != "" {
		sel := f.Selected
		return func(a *core.AppView) bool { return InQueue(sel, a.Queue) }, " in " + sel
	}
	return func(*core.AppView) bool { return true }, ""
}

// TableApps are the applications the table lists, as indices into Apps:
// the first MaxAppRows of its scope (TableScope), which counts n
// applications.
func (f *Frame) TableApps() (rows []int, n int, scope string) {
	in, scope := f.TableScope()
	for i := range f.Apps {
		if !in(&f.Apps[i]) {
			continue
		}
		n++
		if len(rows) < MaxAppRows {
			rows = append(rows, i)
		}
	}
	if f.Shown != nil {
		n = f.Shown.InScope
	}
	return rows, n, scope
}

// LiveApps are the live applications the ask form lists, up to
// MaxAppRows of them (nil past it: the form takes an id typed in), and
// last the last one submitted ("" when none is live).
func (f *Frame) LiveApps() (list []string, last string) {
	for i := len(f.Apps) - 1; i >= 0; i-- {
		if IsLive(&f.Apps[i]) {
			last = f.Apps[i].ID
			break
		}
	}
	if f.LiveCount() > MaxAppRows {
		return nil, last
	}
	for i := range f.Apps {
		if IsLive(&f.Apps[i]) {
			list = append(list, f.Apps[i].ID)
		}
	}
	return list, last
}

// WhyChoices are the applications "why waiting" offers: the live ones,
// or past MaxAppRows the first MaxAppRows of the selected queue and below
// (of all with none selected).
func (f *Frame) WhyChoices() []string {
	var out []string
	many := f.LiveCount() > MaxAppRows
	for i := range f.Apps {
		a := &f.Apps[i]
		if !IsLive(a) || many && f.Selected != "" && !InQueue(f.Selected, a.Queue) {
			continue
		}
		if out = append(out, a.ID); many && len(out) == MaxAppRows {
			break
		}
	}
	return out
}

// LaneLeaves are the leaves the lanes show for queue (the selection): that
// leaf, or the leaves at or below it ("" all) with applications or visited
// in this step, at most MaxLanes; more counts those left out.
func (f *Frame) LaneLeaves(queue string) (shown []*core.QueueView, more int) {
	for i := range f.Queues {
		q := &f.Queues[i]
		if !q.Leaf {
			continue
		}
		switch {
		case queue == q.Path:
		case queue == "" || InQueue(queue, q.Path):
			if q.NumActiveApps+q.NumPendingApps == 0 && len(f.Walk[q.Path]) == 0 {
				continue
			}
		default:
			continue
		}
		if len(shown) == MaxLanes {
			more++
			continue
		}
		shown = append(shown, q)
	}
	return shown, more
}

// LaneCards are the applications a leaf's lane shows as cards, active
// then pending, at most MaxLaneCards; more counts those left out (of
// NumActiveApps and NumPendingApps, which count the whole lists: a page's
// frame holds their cards only, shownQueues).
func LaneCards(q *core.QueueView) (active, pending []string, more int) {
	na := min(len(q.ActiveApps), MaxLaneCards)
	np := min(len(q.PendingApps), MaxLaneCards-na)
	active, pending = q.ActiveApps[:na:na], q.PendingApps[:np:np]
	return active, pending, q.NumActiveApps + q.NumPendingApps - len(active) - len(pending)
}

// shownQueues returns f's queues as the page holds them: the lanes'
// leaves' lists of applications cut to their cards (LaneCards), the lists
// of the others and the applications over max-parallel-apps left out
// (the page counts them only: NumActiveApps and the like), and the users
// of the queues whose users it shows only (queuesShown; the others'
// it counts: ActiveUsers). At benchmark 5's scale the lists name all
// 20,000 applications, and the users are thousands: the page read them,
// and the worker wrote them, in full at every step. A queue cut of
// nothing is shared.
func (f *Frame) shownQueues() []core.QueueView {
	shown := f.queuesShown()
	var out []core.QueueView
	for i := range f.Queues {
		q := &f.Queues[i]
		var active, pending []string
		users := q.Users
		if shown[q.Path] {
			active, pending, _ = LaneCards(q)
		} else {
			users = nil
		}
		if len(active) == len(q.ActiveApps) && len(pending) == len(q.PendingApps) && q.NonRunnableApps == nil && len(users) == len(q.Users) {
			continue
		}
		if out == nil {
			out = slices.Clone(f.Queues)
		}
		c := &out[i]
		c.ActiveApps, c.PendingApps, c.NonRunnableApps, c.Users = active, pending, nil, users
	}
	if out == nil {
		return f.Queues
	}
	return out
}

// shownEvents are the events of f's step the page reads: all of them in
// a step with a heartbeat (the walk through it counts every decision's
// line of the narration), else those it shows (containers completing,
// children ordered, applications pending). A cluster's start is ten
// thousand nodes joining at benchmark 5's scale, which the page never
// reads. The events are shared when they are all kept.
func (f *Frame) shownEvents() []core.Event {
	read := func(e *core.Event) bool {
		switch e.Kind {
		case core.EvContainerFinished, core.EvChildOrder, core.EvAppPending:
			return true
		}
		return false
	}
	n := 0
	for i := range f.Events {
		switch e := &f.Events[i]; {
		case e.Kind == core.EvHeartbeat:
			return f.Events
		case read(e):
			n++
		}
	}
	if n == len(f.Events) {
		return f.Events
	}
	out := make([]core.Event, 0, n)
	for i := range f.Events {
		if read(&f.Events[i]) {
			out = append(out, f.Events[i])
		}
	}
	return out
}

// queuesShown are the queues whose users and lane the page may show: the
// selected queue (queue detail, formulas, its lane) and the lanes' leaves
// (their cards and user bars).
func (f *Frame) queuesShown() map[string]bool {
	out := map[string]bool{}
	if f.Selected != "" {
		out[f.Selected] = true
	}
	lanes, _ := f.LaneLeaves(f.Selected)
	for _, q := range lanes {
		out[q.Path] = true
	}
	return out
}

// QueueContainers counts the live containers of the applications in the
// queue path or below it (the RM UI's Num Containers). A page's frame
// knows it for the selected queue; for another, it counts the
// applications it holds.
func (f *Frame) QueueContainers(path string) int {
	if f.Shown != nil && path == f.Selected {
		return f.Shown.Containers
	}
	n := 0
	for i := range f.Apps {
		if a := &f.Apps[i]; InQueue(path, a.Queue) {
			n += a.LiveContainers
		}
	}
	return n
}

// ForPage returns the frame the page gets of f, a whole frame: the
// applications the page shows (shownApps) and what it shows of the
// others (Shown), the queues' lists of applications cut to the lanes'
// cards and the users of the queues it shows users of (shownQueues), and
// the events it reads (shownEvents). focus is the node the page shows as
// a card ("" none); everyNode says that the page draws every node's
// containers whatever their number (it paints its node canvas itself).
func (f *Frame) ForPage(focus string, everyNode bool) *Frame {
	if f.Shown != nil {
		return f
	}
	idx := f.shownApps(focus, everyNode)
	p := *f
	p.Queues = f.shownQueues()
	p.Events = f.shownEvents()
	p.Apps = make([]core.AppView, len(idx))
	sh := &Shown{Index: make([]int32, len(idx)), Rank: make([]int32, len(idx)), Total: len(f.Apps)}
	all := ranks(f.Apps)
	for k, i := range idx {
		p.Apps[k], sh.Index[k], sh.Rank[k] = f.Apps[i], int32(i), all[i]
	}
	sh.Live = f.LiveCount()
	_, sh.InScope, _ = f.TableApps()
	if f.Selected != "" {
		sh.Containers = f.QueueContainers(f.Selected)
	}
	p.Shown = sh
	return &p
}

// shownApps are the indices of the applications the page shows, in
// order: the table's rows, the ask form's and "why"'s live applications,
// the lanes' cards, and the applications of the containers drawn as
// blocks (every node's up to NodesDrawnWhole nodes, else the focused
// node's, or every node's when everyNode), those completed in this step
// included.
func (f *Frame) shownApps(focus string, everyNode bool) []int {
	set := map[int]bool{}
	rows, _, _ := f.TableApps()
	for _, i := range rows {
		set[i] = true
	}
	ids := map[string]bool{}
	list, last := f.LiveApps()
	for _, id := range append(append(list, last), f.WhyChoices()...) {
		ids[id] = true
	}
	lanes, _ := f.LaneLeaves(f.Selected)
	for _, q := range lanes {
		active, pending, _ := LaneCards(q)
		for _, id := range append(active, pending...) {
			ids[id] = true
		}
	}
	whole := everyNode || len(f.Nodes) <= NodesDrawnWhole
	for n := range f.Nodes {
		if whole || f.Nodes[n].Name == focus {
			for _, c := range f.NodeBriefs(n) {
				set[int(c.App)] = true
			}
		}
	}
	for _, e := range f.Events {
		if e.Kind == core.EvContainerFinished && e.Node != "" && (whole || e.Node == focus) {
			ids[e.App] = true
		}
	}
	delete(ids, "")
	if len(ids) > 0 {
		for i := range f.Apps {
			if ids[f.Apps[i].ID] {
				set[i] = true
			}
		}
	}
	out := make([]int, 0, len(set))
	for i := range set {
		if i >= 0 && i < len(f.Apps) {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}
