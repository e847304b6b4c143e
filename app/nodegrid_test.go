package app

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios/lessons"
)

// renderHTML mounts a component in a test engine and returns its HTML.
func renderHTML(t *testing.T, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	return app.HTMLString(c)
}

func TestNodeGridCardsShowCoresContainers(t *testing.T) {
	f := fixtureFrame(t, 14, "", "")
	require.Len(t, f.Nodes, 4)
	html := renderHTML(t, &NodeGrid{Frame: f})
	has(t, html, `data-mode="cards"`)
	require.Equal(t, 4, strings.Count(html, `class="node-card`))

	ams, cells := 0, 0
	for i := range f.Nodes {
		n := f.Node(i)
		has(t, html, `data-node="`+n.Name+`"`)
		has(t, html, nodeUsageText(&n))
		for _, c := range n.Containers {
			if c.IsAM {
				ams++
			}
		}
		cells += nodeCells(&n, f.MinAlloc).Cells
	}
	require.Equal(t, ams, strings.Count(html, ">A<"), "every AM is lettered")
	require.Equal(t, cells, strings.Count(html, `class="cell `)-overCells(f), "one cell per minimum allocation")

	// n2 heartbeats and holds app_3's reservation.
	require.Regexp(t, `class="node-card hb"[^>]*data-node="n2"|data-node="n2"[^>]*class="node-card hb"`, html)
	has(t, html, "reserved for app_3 (carol): 6 GB, 1 vcore, 2 GB short")
	has(t, html, "reserved since tick ")
	has(t, html, `class="nc-over"`) // the shortfall, past the node's edge
	has(t, html, "♥ ")
	has(t, html, "heartbeat of n2")
}

func overCells(f store.Frame) int {
	over := 0
	for i := range f.Nodes {
		node := f.Node(i)
		if g := nodeCells(&node, f.MinAlloc).Ghost; g != nil {
			over += g.Over
		}
	}
	return over
}

// has fails the test, briefly, when html lacks any of want.
func has(t *testing.T, html string, want ...string) {
	t.Helper()
	for _, w := range want {
		require.Truef(t, strings.Contains(html, w), "the HTML lacks %q", w)
	}
}

// lacks fails the test, briefly, when html holds any of bad.
func lacks(t *testing.T, html string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		require.Falsef(t, strings.Contains(html, b), "the HTML holds %q", b)
	}
}

// manyNodes is f with its nodes, and their containers, repeated to n nodes
// (names made unique).
func manyNodes(f store.Frame, n int) store.Frame {
	nodes := make([]core.NodeView, 0, n)
	used := make([]resource.Resource, 0, n)
	var reserved []store.NodeReservation
	var cs []core.ContainerBrief
	at := []int{0}
	for i := 0; i < n; i++ {
		nv := f.Nodes[i%len(f.Nodes)]
		nv.Name = "h" + strconv.Itoa(i)
		nodes = append(nodes, nv)
		used = append(used, f.NodeUsed[i%len(f.Nodes)])
		if r := f.NodeReservation(i % len(f.Nodes)); r != nil {
			reserved = append(reserved, store.NodeReservation{Node: i, Container: *r})
		}
		cs = append(cs, f.NodeBriefs(i%len(f.Nodes))...)
		at = append(at, len(cs))
	}
	f.Nodes, f.NodeUsed, f.Reserved, f.Containers, f.NodeAt = nodes, used, reserved, cs, at
	f.Metrics = f.CountMetrics()
	f.HeartbeatNode = "h2"
	return f
}

func TestNodeGridStrips(t *testing.T) {
	f := manyNodes(fixtureFrame(t, 14, "", ""), 120)
	c := &NodeGrid{Frame: f}
	html := renderHTML(t, c)
	has(t, html, `data-mode="strips"`)
	require.Equal(t, 119, strings.Count(html, `class="ng-strip"`))
	require.Equal(t, 1, strings.Count(html, `class="ng-strip hb"`))
	require.Equal(t, 30, strings.Count(html, `class="ns-ghost"`), "a reservation every fourth node")
	lacks(t, html, `class="node-card`) // no card until one is opened

	c.open("h6")
	html = app.HTMLString(c.Render())
	has(t, html, `class="ng-expanded"`)
	require.Regexp(t, `data-node="h6"`, html)
	require.Equal(t, 1, strings.Count(html, `class="node-card`))
}

func TestNodeGridCanvas(t *testing.T) {
	f := manyNodes(fixtureFrame(t, 14, "", ""), 1000)
	html := renderHTML(t, &NodeGrid{Frame: f})
	has(t, html, `data-mode="canvas"`)
	require.Equal(t, 1, strings.Count(html, "<canvas"))
	lacks(t, html, `class="ng-strip"`) // no element per node
	// Every container, not the nodes running some.
	has(t, html, "1000 nodes, 3000 running containers:")
	has(t, html, "250 reserved; heartbeat of h2")
	require.Regexp(t, regexp.MustCompile(`<canvas[^>]*width="\d+"`), html)
	has(t, html, "open h2") // the heartbeating node opens in one click
}

// A canvas behind the step shown (the simulation rebuilds its state, a
// step back shown from a kept frame) says so, in a status the screen
// reader reads, and is dimmed until the frame comes again without it.
func TestNodeGridCanvasSaysItIsBehind(t *testing.T) {
	f := manyNodes(fixtureFrame(t, 14, "", ""), 1000)
	html := renderHTML(t, &NodeGrid{Frame: f})
	lacks(t, html, "catching up", "ng-canvas-wrap behind")
	f.NodesBehind = true
	html = renderHTML(t, &NodeGrid{Frame: f})
	has(t, html, `class="ng-canvas-wrap behind"`, `role="status"`,
		"The picture of the nodes is catching up with step "+strconv.Itoa(f.Step)+"…")
}

// A strip's fields are its node's alone: between two steps, the strips of
// the nodes the step left alone are equal (so go-app leaves them be), and
// those of the nodes it changed are not.
func TestStripsOfNodesLeftAloneAreEqual(t *testing.T) {
	sc, err := lessons.Load(lessons.Default())
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, lessons.Default()))
	strips := func(k int) ([]strip, []core.NodeView) {
		s.Jump(k)
		f := s.Frame()
		c := &NodeGrid{Frame: *f}
		nc := c.ctx()
		var out []strip
		var nodes []core.NodeView
		for i := range f.Nodes {
			n := f.Node(i)
			out, nodes = append(out, stripOf(&n, nc, false)), append(nodes, n)
		}
		return out, nodes
	}
	same, changed := 0, 0
	for k := 1; k < len(sc.Steps); k++ {
		a, an := strips(k - 1)
		b, bn := strips(k)
		require.Len(t, b, len(a))
		require.Equal(t, modeStrips, nodeMode(len(a)), "the default lesson's nodes are strips")
		for i := range a {
			if reflect.DeepEqual(an[i], bn[i]) && a[i].Heartbeat == b[i].Heartbeat && len(a[i].Blocks) == len(an[i].Containers) && len(b[i].Blocks) == len(bn[i].Containers) {
				require.Equal(t, a[i], b[i], "step %d: node %s did not change", k, an[i].Name)
				same++
			} else if !reflect.DeepEqual(an[i].Containers, bn[i].Containers) {
				require.NotEqual(t, a[i], b[i], "step %d: node %s changed", k, an[i].Name)
				changed++
			}
		}
	}
	require.Positive(t, same)
	require.Positive(t, changed)
}
