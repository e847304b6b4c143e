package app

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

func TestQueueBarGeometry(t *testing.T) {
	f := &store.Frame{Cluster: resource.New(100*1024, 100)}
	gb := func(g int64) resource.Resource { return resource.New(g*1024, g) }
	tests := []struct {
		name string
		q    core.QueueView
		want barGeom
	}{
		{"idle", core.QueueView{AbsCapacity: 0.2, AbsMaxCapacity: 0.6},
			barGeom{Max: 0.6, Guar: 0.2}},
		{"within the guarantee", core.QueueView{AbsCapacity: 0.2, AbsMaxCapacity: 0.6, AbsUsedCapacity: 0.1, Used: gb(10)},
			barGeom{Max: 0.6, Guar: 0.2, Used: 0.1, Within: 0.1, ResStart: 0.1}},
		{"borrowing, reserved and pending", core.QueueView{AbsCapacity: 0.2, AbsMaxCapacity: 0.6, AbsUsedCapacity: 0.35,
			Used: gb(35), Reserved: gb(5), Pending: gb(10)},
			barGeom{Max: 0.6, Guar: 0.2, Used: 0.35, Within: 0.2, Borrowed: 0.15, ResStart: 0.3, Reserved: 0.05, Pending: 0.1}},
		{"pending cut at max", core.QueueView{AbsCapacity: 0.2, AbsMaxCapacity: 0.6, AbsUsedCapacity: 0.5, Used: gb(50), Pending: gb(30)},
			barGeom{Max: 0.6, Guar: 0.2, Used: 0.5, Within: 0.2, Borrowed: 0.3, ResStart: 0.5, Pending: 0.1, PendingCut: true}},
		{"over 100% is clamped", core.QueueView{AbsCapacity: 1, AbsMaxCapacity: 1, AbsUsedCapacity: 1.2},
			barGeom{Max: 1, Guar: 1, Used: 1, Within: 1, ResStart: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := queueBarGeom(&tt.q, f)
			require.InDeltaMapValues(t, geomMap(tt.want), geomMap(got), 1e-6)
			require.Equal(t, tt.want.PendingCut, got.PendingCut)
		})
	}
}

func geomMap(g barGeom) map[string]float64 {
	return map[string]float64{"max": g.Max, "guar": g.Guar, "used": g.Used, "within": g.Within, "borrowed": g.Borrowed,
		"resStart": g.ResStart, "reserved": g.Reserved, "pending": g.Pending}
}

func TestQueueBarRowsSayCoresNumbers(t *testing.T) {
	f := fixtureFrame(t, 14, "root.fin", "")
	rows := queueBarRows(&f)
	require.Len(t, rows, len(f.Queues))
	for i, r := range rows {
		q := &f.Queues[i]
		require.Equal(t, q.Path, r.Path, "rows keep the frame's order")
		require.Equal(t, pctText(float64(q.AbsUsedCapacity))+" used / "+pctText(float64(q.AbsCapacity))+" guaranteed / "+
			pctText(float64(q.AbsMaxCapacity))+" max", r.Summary)
		require.Contains(t, r.Detail, "Used Resources: "+rmText(q.Used))
		require.Contains(t, r.Detail, "Effective Capacity: "+rmText(q.EffectiveMin))
	}
	byPath := map[string]queueBarRow{}
	for _, r := range rows {
		byPath[r.Path] = r
	}
	fin := byPath["root.fin"]
	require.True(t, fin.Selected)
	require.Equal(t, "40.0% guaranteed / 80.0% max", fin.Summary[strings.Index(fin.Summary, "/ ")+2:])
	require.Contains(t, fin.Detail, "of which reserved <memory:6144, vCores:1>")
	require.Positive(t, fin.Geom.Reserved, "fin holds a reservation")
	require.Positive(t, fin.Geom.Borrowed, "fin uses more than its guarantee")
	require.Equal(t, "1 active", fin.Apps)
	require.Equal(t, "STOPPED", byPath["root.eng.test"].State)
	dev := byPath["root.eng.dev"]
	require.Equal(t, "2 active, 1 pending", dev.Apps)
	require.Contains(t, dev.AMTitle, "Used Application Master Resources: <memory:2048, vCores:2>")
	require.False(t, byPath["root"].Selected)
}

func TestQueueBarsRender(t *testing.T) {
	f := fixtureFrame(t, 14, "root.eng.dev", "")
	f.Broken = map[string]string{"root.eng": "capacities of the children of root.eng sum to 90%, not 100%"}
	var picked []string
	c := &QueueBars{Frame: f, OnSelect: NewCallback(func(p string) { picked = append(picked, p) })}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	require.NoError(t, app.Match(app.Section().Class("qbars").Aria("label", "Queues"), c, 0))

	html := app.HTMLString(c)
	var order []string
	for _, m := range regexp.MustCompile(`data-queue="([^"]+)"`).FindAllStringSubmatch(html, -1) {
		order = append(order, m[1])
	}
	var want []string
	for _, q := range f.Queues {
		want = append(want, q.Path)
	}
	require.Equal(t, want, order, "one row per queue, in configuration order")
	// go-app writes a "true" attribute bare, without its value.
	require.Len(t, regexp.MustCompile(`aria-pressed[ >]`).FindAllString(html, -1), 1, "only the selected row is pressed")
	require.Equal(t, len(f.Queues)-1, strings.Count(html, `aria-pressed="false"`))
	for _, s := range []string{
		"37.5% used / 30.0% guaranteed / 100.0% max", // dev borrows
		"■ ", "STOPPED",
		"⚠ ", "sum to 90%, not 100%",
		"2 active, 1 pending",
		"Absolute Used Capacity: ",
		`class="qb-borrowed"`, `class="qb-reserved"`, `class="qb-guar"`, `class="qb-max"`,
	} {
		has(t, html, s)
	}
	require.Empty(t, picked, "rendering selects nothing")
}

func TestQueueBarsRerenderOnlyChangedRows(t *testing.T) {
	s := fixtureStore(t, 9, "", "")
	before := queueBarRows(s.Frame())
	s.Jump(10) // a heartbeat: dev's usage changes, test's does not (fin's rank in root's order does)
	after := queueBarRows(s.Frame())
	changed := map[string]bool{}
	for i := range before {
		require.Equal(t, before[i].Path, after[i].Path)
		changed[before[i].Path] = !reflect.DeepEqual(before[i], after[i])
	}
	// go-app re-renders a row component only when what its field points
	// at differs (reflect.DeepEqual).
	require.Equal(t, map[string]bool{"root": true, "root.eng": true, "root.eng.dev": true, "root.eng.test": false, "root.fin": true}, changed)
	require.Equal(t, before[4].Summary, after[4].Summary, "fin's numbers are the same")
	require.NotEqual(t, before[4].Rank, after[4].Rank, "fin's rank in root's order is new")

	// And the mounted bars follow the new frame.
	s.Jump(9)
	host := &frameHost{frame: *s.Frame(), render: func(f store.Frame) app.UI { return &QueueBars{Frame: f} }}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(host))
	e.ConsumeAll()
	s.Jump(10)
	host.show(*s.Frame())
	e.ConsumeAll()
	dev := queueOf(t, s.Frame(), "root.eng.dev")
	has(t, app.HTMLString(host), pctText(float64(dev.AbsUsedCapacity))+" used / 30.0% guaranteed")
}
