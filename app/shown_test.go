package app

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios"
)

// The store's rule of the nodes drawn whole is the node grid's.
func TestNodesDrawnWholeIsTheStripsBound(t *testing.T) {
	require.Equal(t, stripsMax, store.NodesDrawnWhole)
}

// asPage is f as the page reads it: cut to the applications it shows,
// with focus opened as a card and the canvas painted by the simulation,
// and crossed through the protocol.
func asPage(t *testing.T, f *store.Frame, focus string) *store.Frame {
	t.Helper()
	var rw protocol.ReplyWriter
	var rr protocol.ReplyReader
	_, rep, err := rr.Decode(rw.Encode(1, protocol.Reply{Frame: f.ForPage(focus, false)}))
	require.NoError(t, err)
	require.NotNil(t, rep.Frame.Shown)
	return rep.Frame
}

// samePageViews requires that the page's views of the whole frame and of
// the page's cut of it are the same: the table's rows and notes, the ask
// form and "why", the lanes, the colours, the node cards and the queue
// detail.
func samePageViews(t *testing.T, f *store.Frame, focus string) *store.Frame {
	t.Helper()
	p := asPage(t, f, focus)
	rf, nf := appRows(f)
	rp, np := appRows(p)
	require.Equal(t, rf, rp, "table rows")
	require.Equal(t, nf, np, "table note")
	lf, lastf := f.LiveApps()
	lp, lastp := p.LiveApps()
	require.Equal(t, lf, lp, "the ask form's list")
	require.Equal(t, lastf, lastp, "the ask form's application")
	require.Equal(t, f.WhyChoices(), p.WhyChoices(), "why's choices")
	require.Equal(t, f.AppCount(), p.AppCount())
	require.Equal(t, f.LiveCount(), p.LiveCount())
	lanesF, moreF := buildLanes(f, f.Selected)
	lanesP, moreP := buildLanes(p, p.Selected)
	require.Equal(t, lanesF, lanesP, "lanes")
	require.Equal(t, moreF, moreP)
	cf, cp := newColors(f), newColors(p)
	for _, a := range p.Apps {
		require.Equal(t, cf.Shade(a.ID), cp.Shade(a.ID), "the shade of %s", a.ID)
	}
	for _, q := range f.Queues {
		require.Equal(t, cf.Hue(q.Path), cp.Hue(q.Path))
	}
	whole := len(f.Nodes) <= store.NodesDrawnWhole
	for i := range f.Nodes {
		if whole || f.Nodes[i].Name == focus {
			require.Equal(t, f.Node(i), p.Node(i), "node %s", f.Nodes[i].Name)
			for _, c := range f.NodeBriefs(i) {
				id := f.App(int(c.App)).ID
				require.Equal(t, cf.Shade(id), cp.Shade(id), "the shade of %s on %s", id, f.Nodes[i].Name)
			}
		}
	}
	for _, e := range f.Events {
		if e.Node != "" && (whole || e.Node == focus) {
			require.Equal(t, cf.Shade(e.App), cp.Shade(e.App), "the shade of %s, done on %s", e.App, e.Node)
		}
	}
	if q := selectedQueue(f); q != nil {
		require.Equal(t, queueDetailOf(f, q), queueDetailOf(p, selectedQueue(p)), "queue detail")
	}
	html := func(f *store.Frame) string {
		return sortedAttrs(renderHTML(t, &AppEditor{F: f}) + renderHTML(t, &LeafLanes{Frame: *f, Queue: f.Selected}) +
			renderHTML(t, &NodeGrid{Frame: *f, expanded: focus}) + renderHTML(t, &QueueDetail{Frame: *f}) +
			renderHTML(t, &FormulaPanel{Frame: *f, Partition: f.Partition}) + renderHTML(t, &QueueBars{Frame: *f}))
	}
	require.Equal(t, html(f), html(p), "the page's HTML")
	return p
}

// sortedAttrs writes every tag's attributes in order (go-app writes them
// in no fixed order).
func sortedAttrs(html string) string {
	tag := regexp.MustCompile(`<([a-zA-Z0-9]+)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*(/?)>`)
	attr := regexp.MustCompile(`[^\s=>]+(?:="[^"]*")?`)
	return tag.ReplaceAllStringFunc(html, func(t string) string {
		m := tag.FindStringSubmatch(t)
		as := attr.FindAllString(m[2], -1)
		slices.Sort(as)
		return "<" + strings.Join(append([]string{m[1]}, as...), " ") + m[3] + ">"
	})
}

// The page's views are the same from the applications it holds as from
// them all: the fixture at several steps and selections, a table past
// maxAppRows, and a cluster drawn on the canvas with a node opened.
func TestThePageShowsTheSameFromTheAppsItHolds(t *testing.T) {
	for _, k := range []int{0, 4, 9, 14} {
		for _, sel := range []string{"", "root.eng", "root.eng.dev", "root.fin"} {
			t.Run(fmt.Sprintf("fixture step %d %q", k, sel), func(t *testing.T) {
				f := fixtureFrame(t, k, sel, "")
				p := samePageViews(t, &f, "")
				require.Len(t, p.Apps, len(f.Apps), "a few apps: the page holds them all")
			})
		}
	}
	for _, sel := range []string{"", "root.l0", "root.l3"} {
		t.Run("many apps "+sel, func(t *testing.T) {
			f := manyApps(t, maxAppRows+60)
			f.Selected = sel
			p := samePageViews(t, f, "")
			require.Less(t, len(p.Apps), len(f.Apps))
		})
	}
	t.Run("scale", func(t *testing.T) {
		s := scaleStore(t)
		f := s.Frame()
		require.Greater(t, len(f.Nodes), store.NodesDrawnWhole, "the canvas draws the nodes")
		busy := ""
		for i := range f.Nodes {
			if len(f.NodeBriefs(i)) > 1 {
				busy = f.Nodes[i].Name
				break
			}
		}
		require.NotEmpty(t, busy)
		for _, sel := range []string{"", "root.p1", "root.p1.l13"} {
			s.Select(sel)
			f := s.Frame()
			p := samePageViews(t, f, busy)
			require.Less(t, 5*len(p.Apps), len(f.Apps), "the page holds few of the apps")
			for i := range f.Apps {
				if a := p.App(i); a != nil {
					require.Equal(t, f.Apps[i], *a)
				}
			}
		}
	})
}

// scaleStore is a cluster like the benchmarks' in little: 300 nodes, 24
// leaves under 4 parents, 3,000 applications running containers.
func scaleStore(t *testing.T) *store.Store {
	t.Helper()
	conf := map[string]string{}
	var parents []string
	for p := range 4 {
		parents = append(parents, fmt.Sprint("p", p))
		conf[fmt.Sprintf("yarn.scheduler.capacity.root.p%d.capacity", p)] = "25"
		var leaves []string
		for l := range 6 {
			leaves = append(leaves, fmt.Sprintf("l%d%d", p, l))
			conf[fmt.Sprintf("yarn.scheduler.capacity.root.p%d.l%d%d.capacity", p, p, l)] = []string{"20", "20", "20", "20", "10", "10"}[l]
		}
		conf[fmt.Sprintf("yarn.scheduler.capacity.root.p%d.queues", p)] = strings.Join(leaves, ",")
	}
	conf["yarn.scheduler.capacity.root.queues"] = strings.Join(parents, ",")
	sc := &scenarios.Scenario{Version: 1, Name: "scale", Config: conf,
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 300, MemoryMB: 32768, VCores: 32}}}
	var asks scenarios.Asks
	for i := range 3000 {
		app := fmt.Sprint("app_", i)
		q := fmt.Sprintf("l%d%d", i%4, i/4%6)
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{App: app, User: fmt.Sprint("u", i%13), Queue: q}})
		asks = append(asks, scenarios.Ask{App: app, Priority: 1, Count: 2, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Duration: int64(1 + i%3)})
	}
	one := 1
	sc.Steps = append(sc.Steps, scenarios.Step{Request: asks}, scenarios.Step{Tick: &one}, scenarios.Step{Tick: &one})
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	require.Empty(t, s.Frame().StepError)
	return s
}
