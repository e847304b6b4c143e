package app

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// manyApps is a frame of 20 leaves (root.l0 to root.l19) and apps apps,
// all submitted to root.l0 but one per other leaf, played by the store.
func manyApps(t *testing.T, apps int) *store.Frame {
	t.Helper()
	conf := map[string]string{}
	var leaves []string
	for i := range 20 {
		leaves = append(leaves, fmt.Sprint("l", i))
		conf[fmt.Sprintf("yarn.scheduler.capacity.root.l%d.capacity", i)] = "5"
	}
	conf["yarn.scheduler.capacity.root.queues"] = strings.Join(leaves, ",")
	sc := &scenarios.Scenario{Version: 1, Name: "many", Config: conf,
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 4, MemoryMB: 65536, VCores: 64}}}
	for i := range apps {
		q := "l0"
		if i < 20 {
			q = leaves[i]
		}
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{App: fmt.Sprint("app_", i), User: fmt.Sprint("u", i%7), Queue: q}})
	}
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	return s.Frame()
}

// The lanes show at most maxLanes leaves, maxCards apps a lane, and say
// how many more there are.
func TestLanesAreBounded(t *testing.T) {
	f := manyApps(t, 20+maxCards+7)
	lanes, more := buildLanes(f, "")
	require.Len(t, lanes, maxLanes)
	require.Equal(t, 20-maxLanes, more)
	require.Equal(t, "root.l0", lanes[0].Queue)
	require.Len(t, lanes[0].Cards, maxCards)
	require.Equal(t, 8, lanes[0].MoreCards, "l0 has its first app and the 47 past the others'")
	require.Equal(t, "app_0", lanes[0].Cards[0].App)

	html := render(t, nil, &LeafLanes{Frame: *f})
	require.Contains(t, html, fmt.Sprintf("%d more leaf queues have applications: select a queue in the tree to see its lanes.", 20-maxLanes))
	require.Contains(t, html, "… and 8 more applications after these.")
	require.Equal(t, maxCards+maxLanes-1, strings.Count(html, `class="app-card`), "cards: 40 in l0, one in each other lane shown")

	one, more := buildLanes(f, "root.l3")
	require.Len(t, one, 1)
	require.Zero(t, more)
}

// Past maxAppRows applications the table lists the first ones, or the
// selected queue's, and says so; the ask form takes the id typed in.
func TestAppTableIsBounded(t *testing.T) {
	f := manyApps(t, maxAppRows+30)
	rows, note := appRows(f)
	require.Len(t, rows, maxAppRows)
	require.Equal(t, fmt.Sprintf("The first %d of %d applications. Select a queue in the tree to list its own.", maxAppRows, maxAppRows+30), note)

	sel := *f
	sel.Selected = "root.l3"
	rows, note = appRows(&sel)
	require.Equal(t, []appRow{{ID: "app_3", User: "u3", Queue: "root.l3", State: rows[0].State, Alive: true,
		Start: "0", Reserved: "0", PctQueue: "0.0%", PctCluster: "0.0%"}}, rows)
	require.Equal(t, fmt.Sprintf("1 application in root.l3, of %d.", maxAppRows+30), note)

	html := render(t, nil, &AppEditor{F: f})
	require.Contains(t, html, `id="ae-note"`)
	require.Equal(t, maxAppRows+1, strings.Count(html, "<tr"), "a header and maxAppRows rows")
	// go-app writes attributes in no fixed order.
	input := regexp.MustCompile(`<input[^>]*id="ae-app"[^>]*>`).FindString(html)
	require.Contains(t, input, `type="text"`, "too many apps to list: the id is typed in")

	small := manyApps(t, 25)
	rows, note = appRows(small)
	require.Len(t, rows, 25)
	require.Empty(t, note)
	require.Contains(t, render(t, nil, &AppEditor{F: small}), `<select id="ae-app"`)
}

// Past denseNodes nodes the canvas draws smaller strips, and still finds
// the strip under the pointer.
func TestManyNodesMakeADenseCanvas(t *testing.T) {
	full := newCanvasLayout(denseNodes, 530)
	require.Equal(t, canvasBarH, full.BarH)
	dense := newCanvasLayout(10000, 530)
	require.Equal(t, denseBarH, dense.BarH)
	require.Less(t, dense.W*dense.H, 2*full.W*full.H, "ten thousand dense strips take about the room of 2,500 full ones")
	for i := 0; i < 10000; i += 97 {
		x, y := dense.at(i)
		require.Equal(t, i, dense.hit(x+dense.ColW/2, y+dense.BarH/2), "strip %d", i)
	}
}

// Every view of a frame shares its colours.
func TestColoursAreComputedOncePerFrame(t *testing.T) {
	f := manyApps(t, 30)
	a, b := NewColors(f), NewColors(f)
	require.Equal(t, a, b)
	require.Equal(t, newColors(f), a)
	g := manyApps(t, 31)
	require.Equal(t, newColors(g), NewColors(g))
}

// A frame that colours as the last one did (the same queues and apps: a
// tick) shares its colours; one with other apps or queues gets its own.
func TestColoursAreKeptWhileTheirInputsAreTheSame(t *testing.T) {
	sc := &scenarios.Scenario{Version: 1, Name: "colours",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 2, MemoryMB: 8192, VCores: 8}}}
	for i := range 3 {
		app := fmt.Sprint("app_", i)
		sc.Steps = append(sc.Steps,
			scenarios.Step{Submit: &scenarios.Submit{App: app, User: "u1", Queue: "a"}},
			scenarios.Step{Request: scenarios.Asks{{App: app, Priority: 1, Count: 2, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}}}})
	}
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	before := NewColors(s.Frame())
	require.NoError(t, s.Tick(1))
	f := s.Frame()
	after := NewColors(f)
	require.Equal(t, newColors(f), after)
	require.Equal(t, reflect.ValueOf(before.shade).Pointer(), reflect.ValueOf(after.shade).Pointer(), "a tick keeps the colours")

	require.NoError(t, s.Submit(scenarios.Submit{App: "late", User: "u1", Queue: "a"}))
	g := s.Frame()
	require.Equal(t, newColors(g), NewColors(g))
	require.Contains(t, NewColors(g).shade, "late")
	s.Jump(2)
	h := s.Frame()
	require.Equal(t, newColors(h), NewColors(h), "fewer apps, other colours")
	require.NotContains(t, NewColors(h).shade, "late")
}
