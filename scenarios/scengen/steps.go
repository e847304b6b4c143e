package scengen

import (
	"fmt"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// step writes the next step, aimed at the scheduler's state after the
// steps so far.
func (g *gen) step() scenarios.Step {
	live := 0
	for _, a := range g.p.Scheduler().Apps() {
		if a.State == core.AppAccepted || a.State == core.AppRunning {
			live++
		}
	}
	k := g.intn(100)
	if g.apps == 0 && (k < 26 || k >= 60 && k < 73) || live == 0 && k < 60 || live == 1 && k < 25 {
		return g.submit()
	}
	switch {
	case k < 11:
		return g.submit()
	case k < 26:
		return g.request()
	case k < 52:
		return g.heartbeat()
	case k < 60:
		n := 1 + g.intn(3)
		return scenarios.Step{Tick: &n}
	case k < 66:
		return g.finishContainer()
	case k < 70:
		return scenarios.Step{FinishApp: g.app(true)}
	case k < 73:
		return g.killApp()
	case k < 83:
		return g.refresh()
	case k < 87:
		return g.addNode()
	case k < 90:
		return g.removeNode()
	}
	return g.heartbeat()
}

// app returns a submitted application: most often (when live) one that is
// ACCEPTED or RUNNING, else any, finished and rejected ones included.
func (g *gen) app(live bool) string {
	if live && !g.chance(6) {
		var ids []string
		for _, a := range g.p.Scheduler().Apps() {
			if a.State == core.AppAccepted || a.State == core.AppRunning {
				ids = append(ids, a.ID)
			}
		}
		if len(ids) > 0 {
			return pick(g, ids...)
		}
	}
	return fmt.Sprintf("app%d", g.intn(g.apps))
}

func (g *gen) submit() scenarios.Step {
	id := fmt.Sprintf("app%d", g.apps)
	g.apps++
	var leaves, open, parents []core.QueueView
	for _, q := range g.p.Scheduler().Queues() {
		switch {
		case !q.Leaf:
			parents = append(parents, q)
		case q.State == config.Running && q.AbsCapacity > 0 && q.NumApps < q.MaxApps:
			open = append(open, q)
			fallthrough
		default:
			leaves = append(leaves, q)
		}
	}
	if len(open) > 0 && !g.chance(3) {
		leaves = open // most submissions go where they can be accepted
	}
	sub := &scenarios.Submit{App: id, User: pick(g, users...)}
	switch k := g.intn(20); {
	case k == 0:
		sub.Queue = pick(g, parents...).Path
	case k == 1:
		sub.Queue = "nosuch"
	case k < 11 && len(leaves) > 0:
		sub.Queue = pick(g, leaves...).Name
	case len(leaves) > 0:
		sub.Queue = pick(g, leaves...).Path
	default:
		sub.Queue = "root"
	}
	if g.chance(20) {
		sub.User = admin
	}
	if !g.chance(4) {
		sub.AM = &scenarios.Res{MemoryMB: pick[int64](g, 512, 1024, 2048), VCores: 1}
		if g.chance(10) {
			no := false
			sub.AMContainerRequest = &no
		}
	}
	if g.chance(8) {
		prio := g.intn(4)
		sub.Priority = &prio
	}
	return scenarios.Step{Submit: sub}
}

func (g *gen) request() scenarios.Step {
	app := g.app(true)
	var asks scenarios.Asks
	asks = append(asks, g.asks(app)...)
	if g.chance(5) {
		asks = append(asks, g.asks(app)...) // a second request priority (or the same, replaced)
	}
	return scenarios.Step{Request: asks}
}

// asks is one request priority's asks: off-switch only, or node, rack and
// "*" with counts that agree, or rack and "*".
func (g *gen) asks(app string) []scenarios.Ask {
	prio := 1 + g.intn(3)
	size := scenarios.Res{MemoryMB: pick[int64](g, 512, 1024, 1024, 1536, 2048, 3072, 4096, 6144), VCores: pick[int64](g, 0, 1, 1, 2, 3)}
	if g.chance(40) {
		size.MemoryMB = 20000 // above every maximum allocation: refused
	}
	count := 1 + g.intn(8)
	if g.chance(10) {
		count = 0 // withdraws the ask
	}
	var duration int64
	if g.chance(2) {
		duration = int64(1 + g.intn(8))
	}
	ask := func(loc string, n int, relax bool) scenarios.Ask {
		a := scenarios.Ask{App: app, Priority: prio, Resource: size, Count: n, Locality: loc, Duration: duration}
		if !relax {
			no := false
			a.RelaxLocality = &no
		}
		return a
	}
	nodes := g.p.Scheduler().Nodes()
	k := g.intn(10)
	if k < 6 || len(nodes) == 0 {
		return []scenarios.Ask{ask("", count, true)}
	}
	n := pick(g, nodes...)
	if k < 9 {
		return []scenarios.Ask{ask(n.Name, count, true), ask(n.Rack, count, !g.chance(6)), ask("*", count, !g.chance(6))}
	}
	return []scenarios.Ask{ask(n.Rack, count, true), ask("*", count, !g.chance(4))}
}

func (g *gen) heartbeat() scenarios.Step {
	nodes := g.p.Scheduler().Nodes()
	if len(nodes) == 0 {
		one := 1
		return scenarios.Step{Tick: &one}
	}
	var hs scenarios.Heartbeats
	for range 1 + g.intn(3) {
		h := scenarios.HeartbeatSpec{Node: pick(g, nodes...).Name}
		if g.chance(4) {
			h.Times = 2 + g.intn(3)
		}
		hs = append(hs, h)
	}
	return scenarios.Step{Heartbeat: hs}
}

// finishContainer finishes containers of an app that has some, on their
// node now and then; otherwise of any app (likely refused).
func (g *gen) finishContainer() scenarios.Step {
	type held struct {
		app   string
		nodes []string
	}
	var with []held
	for _, a := range g.p.Scheduler().Apps() {
		h := held{app: a.ID}
		for _, c := range a.Containers {
			if !c.IsAM && !c.Reserved {
				h.nodes = append(h.nodes, c.Node)
			}
		}
		if len(h.nodes) > 0 {
			with = append(with, h)
		}
	}
	fc := &scenarios.FinishContainer{Count: 1}
	if g.chance(4) {
		fc.Count = 2
	}
	switch {
	case len(with) == 0 && !g.chance(5):
		return g.heartbeat()
	case len(with) == 0 || g.chance(10):
		fc.App = g.app(true)
	default:
		h := pick(g, with...)
		fc.App = h.app
		if g.chance(3) {
			fc.Node = pick(g, h.nodes...)
		}
	}
	return scenarios.Step{FinishContainer: fc}
}

func (g *gen) killApp() scenarios.Step {
	app := g.app(true)
	by := pick(g, users...)
	for _, a := range g.p.Scheduler().Apps() {
		if a.ID == app && g.intn(10) < 6 {
			by = a.User
		}
	}
	if g.chance(8) {
		by = admin
	}
	return scenarios.Step{KillApp: &scenarios.KillApp{App: app, By: by}}
}

func (g *gen) addNode() scenarios.Step {
	if g.chance(5) {
		spec := g.nodeSpec()
		spec.Name, spec.Count = fmt.Sprintf("x%d-{i}", g.nodes), 2
		return scenarios.Step{AddNode: &spec}
	}
	spec := g.nodeSpec()
	return scenarios.Step{AddNode: &spec}
}

func (g *gen) removeNode() scenarios.Step {
	nodes := g.p.Scheduler().Nodes()
	if len(nodes) == 0 {
		return g.addNode()
	}
	return scenarios.Step{RemoveNode: &scenarios.RemoveNode{Name: pick(g, nodes...).Name}}
}
