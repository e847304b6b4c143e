package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// LeafLanes shows leaf queues as lanes of application cards in the exact
// order the scheduler walks them (the queue's active apps, then its
// pending ones, marked pending). A cursor stands on the app chosen in this
// step; apps skipped are dimmed with the reason in words. Under each lane,
// one bar per user shows its usage against the user limit and the
// user-limit-factor's ceiling.
type LeafLanes struct {
	app.Compo

	// Frame is the step to show.
	Frame store.Frame
	// Queue is the leaf to show; "" shows every leaf with applications or
	// visited in this step (a parent shows its leaves that way too).
	Queue string
}

// Render draws the lanes.
func (c *LeafLanes) Render() app.UI {
	lanes, more := buildLanes(&c.Frame, c.Queue)
	return app.Section().Class("lanes").Aria("label", "Applications by leaf queue").Attr("data-step", strconv.Itoa(c.Frame.Step)).Body(
		app.If(len(lanes) == 0, func() app.UI {
			return app.P().Class("muted").Text("No leaf queue has applications yet.")
		}),
		app.Range(lanes).Slice(func(i int) app.UI { return laneView(&lanes[i]) }),
		app.If(more > 0, func() app.UI {
			return app.P().Class("lanes-more muted").Text(nOf(more, "more leaf queue has", "more leaf queues have") +
				" applications: select a queue in the tree to see its lanes.")
		}),
	)
}

// Bounds on what the lanes show at once, so that a cluster of a thousand
// leaves and tens of thousands of apps stays readable and quick to draw:
// past them, the lanes say how many more there are.
const (
	// maxLanes is the most lanes shown when no one leaf is selected.
	maxLanes = store.MaxLanes
	// maxCards is the most app cards of a lane, and maxUserBars the most
	// user bars.
	maxCards    = store.MaxLaneCards
	maxUserBars = 40
)

// laneCard is one application in a lane.
type laneCard struct {
	_         noeq.T
	App, User string
	Queue     string
	Priority  int
	// Pending is true for an app still waiting for the AM limits.
	Pending bool
	// Outcome is what the scheduler did with the app in this step:
	// "allocated", "reserved", "skipped", "considered", "not reached"
	// (the walk stopped before it), or "" when the leaf was not visited.
	Outcome string
	// Times counts the containers allocated to it in this step.
	Times  int
	Reason string
	// Cursor marks the app the scheduler chose in this step.
	Cursor bool
	// Used and Asks say its consumption and its outstanding requests.
	Used, Asks string
}

// userBar is one user of a leaf against its limits, as fractions of the
// bar's scale.
type userBar struct {
	_                           noeq.T
	Name                        string
	Active                      bool
	Used, Reserved, Limit, ULF  float64
	UsedText, LimitText, ULFTxt string
	Weight                      float32
}

// laneModel is one leaf queue.
type laneModel struct {
	Queue   string
	Hue     int
	Visited bool
	Cards   []laneCard
	// MoreCards and MoreUsers count the apps and users past maxCards and
	// maxUserBars, not shown.
	MoreCards, MoreUsers int
	Users                []userBar
	Scale                string
	// MemoryOnly is true under the DefaultResourceCalculator: the user
	// limits' vcores are not enforced, and the lane says so.
	MemoryOnly bool
}

// leafLanes builds the lanes of a frame: one leaf, or every leaf with
// applications or visited in this step, up to maxLanes.
func leafLanes(f *store.Frame, queue string) []laneModel {
	lanes, _ := buildLanes(f, queue)
	return lanes
}

// buildLanes is leafLanes, and counts the leaves past maxLanes left out
// (store.Frame.LaneLeaves).
func buildLanes(f *store.Frame, queue string) (lanes []laneModel, more int) {
	shown, more := f.LaneLeaves(queue)
	// The views of the apps the lanes show, and of no other.
	apps := map[string]*core.AppView{}
	for _, q := range shown {
		for _, ids := range [][]string{q.ActiveApps, q.PendingApps} {
			for _, id := range ids {
				apps[id] = nil
			}
		}
	}
	for i := range f.Apps {
		if _, ok := apps[f.Apps[i].ID]; ok {
			apps[f.Apps[i].ID] = &f.Apps[i]
		}
	}
	colors := NewColors(f)
	for _, q := range shown {
		lanes = append(lanes, leafLane(f, q, apps, colors))
	}
	return lanes, more
}

// outcomeRank orders a step's outcomes for one app: a step may visit an
// app several times (one per assignment pass); the lane shows the most
// telling.
var outcomeRank = map[string]int{"considered": 1, "skipped": 2, "reserved": 3, "allocated": 4}

// leafLane builds one leaf's lane.
func leafLane(f *store.Frame, q *core.QueueView, apps map[string]*core.AppView, colors Colors) laneModel {
	l := laneModel{Queue: q.Path, Hue: colors.Hue(q.Path), MemoryOnly: !f.Dominant}
	visits := f.Walk[q.Path]
	l.Visited = len(visits) > 0
	type seen struct {
		outcome, reason string
		times           int
	}
	byApp := map[string]*seen{}
	chosen := ""
	for _, v := range visits {
		s := byApp[v.App]
		if s == nil {
			s = &seen{}
			byApp[v.App] = s
		}
		if v.Outcome == "allocated" {
			s.times++
		}
		if outcomeRank[v.Outcome] >= outcomeRank[s.outcome] {
			s.outcome, s.reason = v.Outcome, string(v.Reason)
		}
		if v.Outcome == "allocated" || v.Outcome == "reserved" {
			chosen = v.App
		}
	}
	card := func(id string, pending bool) laneCard {
		c := laneCard{App: id, Queue: q.Path, Pending: pending}
		if a := apps[id]; a != nil {
			c.User, c.Priority = a.User, a.Priority
			c.Used = resText(a.Consumption)
			c.Asks = asksText(a.Requests)
		}
		if s := byApp[id]; s != nil {
			c.Outcome, c.Reason, c.Times = s.outcome, s.reason, s.times
		} else if l.Visited && !pending {
			c.Outcome = "not reached"
		}
		if pending {
			c.Reason = pendingReason(f, id)
		}
		c.Cursor = id == chosen
		return c
	}
	active, pending, more := store.LaneCards(q)
	for _, id := range active {
		l.Cards = append(l.Cards, card(id, false))
	}
	for _, id := range pending {
		l.Cards = append(l.Cards, card(id, true))
	}
	l.MoreCards = more
	l.Users, l.Scale = userBars(f, q)
	if n := len(l.Users); n > maxUserBars {
		l.Users, l.MoreUsers = l.Users[:maxUserBars], n-maxUserBars
	}
	return l
}

// asksText sums an app's outstanding requests: "asks 3 × 2 GB".
func asksText(reqs []core.RequestView) string {
	s := ""
	for _, r := range reqs {
		if r.Outstanding <= 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += strconv.Itoa(r.Outstanding) + " × " + memText(r.Resource.MemoryMB)
	}
	if s == "" {
		return "asks nothing"
	}
	return "asks " + s
}

// pendingReason is why an app is still pending, from the step's events
// when they say, else the general rule.
func pendingReason(f *store.Frame, id string) string {
	for i := range f.Apps {
		if a := &f.Apps[i]; a.ID == id && a.NotRunnable {
			return "not runnable: max-parallel-apps reached; it starts when an app of its queue or user finishes"
		}
	}
	for i := len(f.Events) - 1; i >= 0; i-- {
		if e := f.Events[i]; e.Kind == core.EvAppPending && e.App == id {
			return "waiting: " + string(e.Reason)
		}
	}
	return "waiting for the AM resource limits"
}

// maxUserLimit is the user-limit-factor's ceiling on any user of the leaf:
// the selected leaf's formula says it; other leaves compute it the same way
// (queue capacity = max(guarantee, minimum allocation), times the factor).
func maxUserLimit(f *store.Frame, q *core.QueueView) resource.Resource {
	if f.Selected == q.Path && f.UserLimit != nil {
		return f.UserLimit.MaxUserLimit
	}
	qc := frameCalc(f).Max(f.Cluster, q.EffectiveMin, frameMinAlloc(f))
	return resource.MultiplyAndRoundDown(qc, float64(q.UserLimitFactor))
}

// userBars draws each user of a leaf (active, or holding resources): its
// usage, its user limit and the user-limit-factor's ceiling, on a scale a
// little past the largest of them (and never past the queue's maximum),
// so the lines stay apart however large the cluster.
func userBars(f *store.Frame, q *core.QueueView) ([]userBar, string) {
	mul := maxUserLimit(f, q)
	scale := mul.MemoryMB
	for _, u := range q.Users {
		scale = max(scale, u.Used.MemoryMB, u.UserLimit.MemoryMB)
	}
	scale = scale * 11 / 10
	if q.EffectiveMax.MemoryMB > 0 {
		scale = min(scale, max(q.EffectiveMax.MemoryMB, mul.MemoryMB))
	}
	scale = max(scale, 1)
	frac := func(r resource.Resource) float64 { return unit01(float64(r.MemoryMB) / float64(scale)) }
	var out []userBar
	for _, u := range q.Users {
		if !u.Active && !u.Used.AnyPositive() {
			continue
		}
		out = append(out, userBar{
			Name: u.Name, Active: u.Active, Weight: u.Weight,
			Used: frac(u.Used), Reserved: min(frac(u.Reserved), frac(u.Used)),
			Limit: frac(u.UserLimit), ULF: frac(mul),
			UsedText: resText(u.Used), LimitText: resText(u.UserLimit), ULFTxt: resText(mul),
		})
	}
	return out, memText(scale)
}

// laneView draws one lane.
func laneView(l *laneModel) app.UI {
	return app.Article().Class("lane").Attr("data-queue", l.Queue).Style("--h", strconv.Itoa(l.Hue)).Body(
		app.H3().Class("lane-title").Body(
			app.Text(l.Queue),
			app.If(l.Visited, func() app.UI { return app.Span().Class("badge b-visit").Text("visited this step") }),
		),
		app.Ol().Class("lane-cards").Aria("label", "Applications in the order the scheduler walks them").Body(
			app.Range(l.Cards).Slice(func(i int) app.UI { return &laneCardRow{Card: &l.Cards[i], Pos: i + 1} }),
		),
		app.If(l.MoreCards > 0, func() app.UI {
			return app.P().Class("lane-more muted").Text("… and " + nOf(l.MoreCards, "more application", "more applications") + " after these.")
		}),
		app.If(len(l.Users) > 0, func() app.UI {
			return app.Div().Class("lane-users").Body(
				app.Range(l.Users).Slice(func(i int) app.UI { return &userBarRow{Bar: &l.Users[i]} }),
				app.If(l.MoreUsers > 0, func() app.UI {
					return app.P().Class("lane-more muted").Text("… and " + nOf(l.MoreUsers, "more user", "more users") + ".")
				}),
				app.P().Class("lane-scale muted").Text("bars run to "+l.Scale),
				app.If(l.MemoryOnly, func() app.UI {
					return app.P().Class("why").Attr("data-field", "memory-only").
						Text("Memory only: the DefaultResourceCalculator compares memory, so a user may hold more vcores than its User Limit Resource says.")
				}),
			)
		}),
	)
}

// laneCardRow and userBarRow are a lane's app card and user bar as
// components of plain values, built afresh at each render: go-app draws
// again only the ones whose values changed (a step changes some of the
// hundreds the lanes show). They hold the values by pointer: go-app
// compares what pointers point at (reflect.DeepEqual), and copies a
// struct field into an interface three times to compare it.
type laneCardRow struct {
	app.Compo
	Card *laneCard
	Pos  int
}

// Render draws the card.
func (r *laneCardRow) Render() app.UI { return laneCardView(r.Card, r.Pos) }

type userBarRow struct {
	app.Compo
	Bar *userBar
}

// Render draws the user's bar.
func (r *userBarRow) Render() app.UI { return userBarView(r.Bar) }

// outcomeIcon repeats an outcome as a shape.
var outcomeIcon = map[string]string{
	"allocated": "✔", "reserved": "⌛", "skipped": "⤼", "considered": "·", "not reached": "…",
}

// laneCardView draws one app card; pos is its place in the walk.
func laneCardView(c *laneCard, pos int) app.UI {
	class := "app-card"
	if c.Cursor {
		class += " cursor"
	}
	if c.Outcome == "skipped" || c.Outcome == "not reached" {
		class += " dim"
	}
	if c.Pending {
		class += " pending"
	}
	outcome := c.Outcome
	if c.Times > 1 {
		outcome += " ×" + strconv.Itoa(c.Times)
	}
	return app.Li().Class(class).Attr("data-app", c.App).Attr("data-outcome", c.Outcome).Body(
		app.If(c.Cursor, func() app.UI {
			return app.Span().Class("ac-cursor").Body(app.Span().Aria("hidden", "true").Text("▼ "), app.Text("chosen"))
		}),
		app.Div().Class("ac-head").Body(
			app.Span().Class("ac-pos").Title("position in the walk").Text(strconv.Itoa(pos)),
			app.Strong().Class("ac-id").Text(c.App),
		),
		app.Div().Class("ac-meta").Text(c.User+" · app priority "+strconv.Itoa(c.Priority)),
		app.Div().Class("ac-used").Text(c.Used),
		app.Div().Class("ac-asks").Text(c.Asks),
		app.If(c.Pending, func() app.UI {
			return app.Div().Class("ac-outcome pending").Body(app.Span().Aria("hidden", "true").Text("⏸ "), app.Text("pending, "+c.Reason))
		}).ElseIf(outcome != "", func() app.UI {
			return app.Div().Class("ac-outcome").Attr("data-field", "outcome").Body(
				app.Span().Aria("hidden", "true").Text(outcomeIcon[c.Outcome]+" "),
				app.Text(outcome),
				app.If(c.Reason != "", func() app.UI { return app.Span().Class("ac-reason").Text(": " + c.Reason) }),
			)
		}),
	)
}

// userBarView draws one user against its limits.
func userBarView(u *userBar) app.UI {
	name := u.Name
	if !u.Active {
		name += " (no pending requests)"
	}
	if u.Weight != 1 && u.Weight != 0 {
		name += " · weight " + strconv.FormatFloat(float64(u.Weight), 'f', -1, 32)
	}
	return app.Div().Class("user-bar").Attr("data-user", u.Name).Body(
		app.Div().Class("ub-name").Text(name),
		app.Div().Class("ub-track").Aria("hidden", "true").Body(
			barSeg("ub-used", 0, u.Used),
			barSeg("ub-reserved", u.Used-u.Reserved, u.Reserved),
			app.Span().Class("ub-limit").Style("left", cssPct(u.Limit)),
			app.Span().Class("ub-ulf").Style("left", cssPct(u.ULF)),
		),
		app.Div().Class("ub-text").Body(
			app.Span().Attr("data-field", "used-resource").Text("Used Resource: "+u.UsedText),
			app.Span().Attr("data-field", "user-limit").Body(app.Span().Class("ub-key limit").Aria("hidden", "true"), app.Text("User Limit Resource: "+u.LimitText)),
			app.Span().Body(app.Span().Class("ub-key ulf").Aria("hidden", "true"), app.Text("user-limit-factor ceiling: "+u.ULFTxt)),
		),
	)
}
