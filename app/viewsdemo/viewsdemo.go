// Package viewsdemo is a test page for the views of package app: it plays
// a generated scenario (any number of nodes and queues) in a real store
// and renders QueueBars, UsageChart, NodeGrid, LeafLanes and FormulaPanel
// from its frames, with a button that makes the next node heartbeat.
//
// It is not part of the playground: its route is registered only by
// wasm/viewsdemo.go, in builds tagged viewsdemo, which the browser tests of
// build/browsertest make. The page reads ?nodes=N&queues=Q.
package viewsdemo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app"
	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// Path is the demo page's route.
const Path = "/views-demo"

// Register adds the demo page's route to go-app.
func Register() {
	goapp.Route(Path, func() goapp.Composer { return &Demo{} })
}

// ScenarioYAML is a scenario of about the given number of queues (root,
// then parents p0.. of ten-ish leaves each) on nodes of 8 GB and 8 vcores.
// Every leaf of the first few dozen gets an app of its own that asks for
// 2 GB containers, every fourth a second one asking for 6 GB ones (they
// reserve nodes once nodes fill); one tick lets every node heartbeat.
func ScenarioYAML(nodes, queues int) string {
	parents := max(1, int(math.Round(math.Sqrt(float64(queues))))-1)
	leaves := max(1, (queues-1-parents)/parents)
	var b strings.Builder
	b.WriteString("name: views demo\nconfig:\n")
	var pnames []string
	for p := 0; p < parents; p++ {
		pnames = append(pnames, "p"+strconv.Itoa(p))
	}
	fmt.Fprintf(&b, "  yarn.scheduler.capacity.root.queues: %s\n", strings.Join(pnames, ","))
	for p, caps := range split(parents) {
		fmt.Fprintf(&b, "  yarn.scheduler.capacity.root.p%d.capacity: \"%s\"\n", p, caps)
		var lnames []string
		for l := 0; l < leaves; l++ {
			lnames = append(lnames, "q"+strconv.Itoa(p)+"_"+strconv.Itoa(l))
		}
		fmt.Fprintf(&b, "  yarn.scheduler.capacity.root.p%d.queues: %s\n", p, strings.Join(lnames, ","))
		for l, lc := range split(leaves) {
			fmt.Fprintf(&b, "  yarn.scheduler.capacity.root.p%d.q%d_%d.capacity: \"%s\"\n", p, p, l, lc)
			fmt.Fprintf(&b, "  yarn.scheduler.capacity.root.p%d.q%d_%d.user-limit-factor: \"4\"\n", p, p, l)
		}
	}
	fmt.Fprintf(&b, "nodes:\n  - {name: \"n{i}\", count: %d, memory_mb: 8192, vcores: 8}\nsteps:\n", nodes)
	apps := min(parents*leaves, max(4, nodes/8), 60)
	id := 0
	for i := 0; i < apps; i++ {
		q := fmt.Sprintf("root.p%d.q%d_%d", i%parents, i%parents, (i/parents)%leaves)
		id++
		fmt.Fprintf(&b, "  - submit: {app: app_%d, user: u%d, queue: %s, am: {memory_mb: 1024, vcores: 1}}\n", id, i%3, q)
		fmt.Fprintf(&b, "  - request: {app: app_%d, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: %d}\n", id, 2+nodes/max(apps, 1)*2)
		if i%4 == 0 {
			id++
			fmt.Fprintf(&b, "  - submit: {app: app_%d, user: u%d, queue: %s, am: {memory_mb: 1024, vcores: 1}}\n", id, (i+1)%3, q)
			fmt.Fprintf(&b, "  - request: {app: app_%d, priority: 1, resource: {memory_mb: 6144, vcores: 2}, count: %d}\n", id, 1+nodes/max(apps, 1))
		}
	}
	b.WriteString("  - tick: 1\n")
	return b.String()
}

// split divides 100% among n children, as strings Hadoop parses; they sum
// to exactly 100.
func split(n int) []string {
	out := make([]string, n)
	base := 10000 / n // hundredths of a percent
	for i := range out {
		v := base
		if i == n-1 {
			v = 10000 - base*(n-1)
		}
		out[i] = strconv.FormatFloat(float64(v)/100, 'f', -1, 64)
	}
	return out
}

// NewStore plays the generated scenario to its end in a new store, with
// the first leaf that has an app selected.
func NewStore(nodes, queues int) (*store.Store, error) {
	sc, err := scenarios.Parse("views-demo.yaml", []byte(ScenarioYAML(nodes, queues)))
	if err != nil {
		return nil, err
	}
	s := store.New()
	if err := s.Load(sc, ""); err != nil {
		return nil, err
	}
	s.Last()
	if f := s.Frame(); f.Err != "" || f.StepError != "" {
		return nil, fmt.Errorf("the demo scenario fails: %s%s", f.Err, f.StepError)
	}
	if apps := s.Frame().Apps; len(apps) > 0 {
		s.Select(apps[0].Queue)
		s.SelectUser(apps[0].User)
	}
	return s, nil
}

// Demo is the test page.
type Demo struct {
	goapp.Compo

	st       *store.Store
	frame    store.Frame
	err      string
	actionMS float64
	ctx      goapp.Context
}

// OnMount builds the store from the page's query.
func (d *Demo) OnMount(ctx goapp.Context) {
	d.ctx = ctx
	q := ctx.Page().URL().Query()
	nodes, _ := strconv.Atoi(q.Get("nodes"))
	queues, _ := strconv.Atoi(q.Get("queues"))
	st, err := NewStore(max(nodes, 1), max(queues, 2))
	if err != nil {
		d.err = err.Error()
		return
	}
	d.st = st
	d.frame = *st.Frame()
}

// act runs a store action, timing it: the page shows the action's time in
// data-action-ms and, once go-app has rendered the new frame into the page,
// the whole update's (action included) in data-update-ms, so tests can
// tell the store's time from the views'.
func (d *Demo) act(ctx goapp.Context, action func() error) {
	start := time.Now()
	if err := action(); err != nil {
		d.err = err.Error()
	}
	d.actionMS = ms(time.Since(start))
	d.frame = *d.st.Frame()
	ctx.Defer(func(goapp.Context) {
		if el := goapp.Window().GetElementByID("views-demo"); el.Truthy() {
			el.Call("setAttribute", "data-update-ms", strconv.FormatFloat(ms(time.Since(start)), 'f', 1, 64))
		}
	})
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Render draws every view of the current frame.
func (d *Demo) Render() goapp.UI {
	if d.st == nil {
		return goapp.Div().ID("views-demo").Class("page").Body(
			goapp.P().ID("demo-status").Text("Building the demo… " + d.err),
		)
	}
	f := d.frame
	return goapp.Div().ID("views-demo").Class("page").DataSet("step", f.Step).DataSet("nodes", len(f.Nodes)).
		DataSet("action-ms", strconv.FormatFloat(d.actionMS, 'f', 1, 64)).Body(
		goapp.H1().Text("yarnplay views"),
		goapp.P().Body(
			goapp.Span().ID("demo-label").Text(f.Label+" "),
			goapp.Button().ID("demo-heartbeat").Type("button").
				OnClick(func(ctx goapp.Context, e goapp.Event) { d.act(ctx, func() error { return d.st.Heartbeat("") }) }).
				Text("Heartbeat "+f.NextNode),
			goapp.Button().ID("demo-back").Type("button").
				OnClick(func(ctx goapp.Context, e goapp.Event) { d.act(ctx, func() error { d.st.Back(); return nil }) }).Text("Back"),
			goapp.Span().ID("demo-error").Text(d.err),
		),
		goapp.H2().Text("Queues"),
		&app.QueueBars{Frame: f, OnSelect: app.NewCallback(func(p string) { d.act(d.ctx, func() error { d.st.Select(p); return nil }) })},
		goapp.H2().Text("Usage over time: root"),
		&app.UsageChart{Frame: f, Parent: "root", OnJump: app.NewCallback(func(step int) { d.act(d.ctx, func() error { d.st.Jump(step); return nil }) })},
		goapp.H2().Text("Nodes"),
		&app.NodeGrid{Frame: f},
		goapp.H2().Text("Leaf: "+f.Selected),
		&app.LeafLanes{Frame: f, Queue: f.Selected},
		goapp.H2().Text("Formulas"),
		&app.FormulaPanel{Frame: f},
	)
}
