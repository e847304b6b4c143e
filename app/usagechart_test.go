package app

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

// chartFrame is a parent p (50% max 100%) with children a (20%) and b
// (30%) over three steps; a borrows at step 2.
func chartFrame() store.Frame {
	gb := func(g int64) resource.Resource { return resource.New(g*1024, g) }
	return store.Frame{
		Cluster: gb(100),
		Queues: []core.QueueView{
			{Path: "root", Children: []string{"root.p"}, AbsCapacity: 1, AbsMaxCapacity: 1},
			{Path: "root.p", Name: "p", Parent: "root", Children: []string{"root.p.a", "root.p.b"}, AbsCapacity: 0.5, AbsMaxCapacity: 1},
			{Path: "root.p.a", Name: "a", Parent: "root.p", Leaf: true, AbsCapacity: 0.2, AbsMaxCapacity: 1, AbsUsedCapacity: 0.3},
			{Path: "root.p.b", Name: "b", Parent: "root.p", Leaf: true, AbsCapacity: 0.3, AbsMaxCapacity: 1},
		},
		History: []store.HistoryPoint{
			{Step: 0, Used: []resource.Resource{{}, {}, {}, {}}},
			{Step: 1, Used: []resource.Resource{gb(20), gb(20), gb(10), gb(10)}, Marks: []string{"submit"}},
			{Step: 2, Used: []resource.Resource{gb(40), gb(40), gb(30), gb(10)}, Marks: []string{"reserve", "preempt"}},
		},
	}
}

func TestUsageChartGeometry(t *testing.T) {
	f := chartFrame()
	d := usageChart(&f, "root.p")
	require.Equal(t, "root.p", d.Parent)
	require.Len(t, d.Series, 2)
	require.InDelta(t, 0.2, d.Series[0].Guar, 1e-6)
	require.InDelta(t, 1.0, d.YMax, 1e-9, "the parent's max capacity tops the axis")
	require.InDelta(t, chartTop+chartPlotH, d.Y0, 1e-9)
	require.InDelta(t, chartTop, d.YTop, 1e-9)
	require.Equal(t, []int{0, 2}, d.Steps)

	// a's guarantee line at step 0 sits at 20% of the plot height from
	// the bottom: y = top + h*(1-0.2). a uses 0, 10% and 30% at steps 0
	// to 2: its solid band rises to 10% and to its guarantee, 20%, and
	// the hatched one above it from there to 30%.
	y := func(v float64) string { return svgNum(chartTop + chartPlotH*(1-v)) }
	x := func(step float64) string { return svgNum(chartLeft + chartPlotW*step/3) }
	a := d.Series[0]
	require.True(t, strings.HasPrefix(a.Guarantee, "M"+x(0)+" "+y(0.2)+"L"), a.Guarantee)
	require.Equal(t, "M"+x(0)+" "+y(0)+"L"+x(1)+" "+y(0)+"L"+x(1)+" "+y(0.1)+"L"+x(2)+" "+y(0.1)+"L"+x(2)+" "+y(0.2)+
		"L"+x(3)+" "+y(0.2)+"L"+x(3)+" "+y(0)+"L"+x(0)+" "+y(0)+"Z", a.Band)
	require.Equal(t, "M"+x(0)+" "+y(0)+"L"+x(1)+" "+y(0)+"L"+x(1)+" "+y(0.1)+"L"+x(2)+" "+y(0.1)+"L"+x(2)+" "+y(0.3)+
		"L"+x(3)+" "+y(0.3)+"L"+x(3)+" "+y(0.2)+"L"+x(2)+" "+y(0.2)+"L"+x(2)+" "+y(0.1)+"L"+x(1)+" "+y(0.1)+
		"L"+x(1)+" "+y(0)+"L"+x(0)+" "+y(0)+"Z", a.Above)

	// Drawn: two bands, each solid and hatched, and a guarantee line
	// each, with a hatch per child in its hue.
	html := renderHTML(t, &UsageChart{Frame: f, Parent: "root.p"})
	require.Equal(t, 2, strings.Count(html, `class="uc-band"`))
	require.Equal(t, 2, strings.Count(html, `class="uc-above"`))
	require.Equal(t, 2, strings.Count(html, `class="uc-guar"`))
	require.Equal(t, 2, strings.Count(html, "<pattern "), "one hatch per child, in its hue")
	require.Contains(t, html, `fill="url(#uc-1-h0)"`)
	require.Contains(t, html, `d="`+a.Band+`"`)
	require.Contains(t, html, ">step 2</text>")

	require.Equal(t, []chartMarker{
		{Step: 1, X: (chartLeft + chartPlotW*1.5/3) / chartW, Glyphs: "+", Label: "Jump to step 1: submit"},
		{Step: 2, X: (chartLeft + chartPlotW*2.5/3) / chartW, Glyphs: "⌛✂", Label: "Jump to step 2: reserve, preempt"},
	}, d.Markers)

	require.Empty(t, usageChart(&f, "root.p.a").Parent, "a leaf has no chart")
	require.Equal(t, "root", usageChart(&f, "").Parent)
}

func TestStepLineAndBand(t *testing.T) {
	xs := []float64{0, 10, 20}
	id := func(v float64) float64 { return v }
	require.Equal(t, "M0 1L10 1L10 2L20 2", string(appendStepLine(nil, xs, []float64{1, 2}, id)))
	require.Equal(t, "M0 3L10 3L10 4L20 4L20 2L10 2L10 1L0 1Z", string(appendBandPath(nil, xs, []float64{1, 2}, []float64{3, 4}, id)))
	require.Equal(t, "12.35", svgNum(12.3456))
	require.Equal(t, "100", svgNum(100))
	require.Equal(t, "0", svgNum(-0.001))
}

// A run of equal values is one segment, and the outline is the one with a
// corner at every step (the chart's first version), less the corners in
// the middle of straight lines: the same picture.
func TestStepLinesDrawRunsAsOneSegment(t *testing.T) {
	xs := []float64{0, 10, 20, 30, 40, 50, 60}
	id := func(v float64) float64 { return v }
	require.Equal(t, "M0 1L30 1L30 2L50 2L50 3L60 3", string(appendStepLine(nil, xs, []float64{1, 1, 1, 2, 2, 3}, id)))

	// everyStep is the path with a corner at every step.
	everyStep := func(lower, upper []float64) string {
		var b []byte
		for k := range upper {
			cmd := byte('L')
			if k == 0 {
				cmd = 'M'
			}
			b = appendPoint(b, cmd, xs[k], upper[k])
			b = appendPoint(b, 'L', xs[k+1], upper[k])
		}
		for k := len(lower) - 1; k >= 0; k-- {
			b = appendPoint(b, 'L', xs[k+1], lower[k])
			b = appendPoint(b, 'L', xs[k], lower[k])
		}
		return string(append(b, 'Z'))
	}
	// corners are a path's points without repeats and without points in
	// the middle of a horizontal or vertical line.
	corners := func(path string) []string {
		var pts [][2]string
		for _, f := range strings.FieldsFunc(path, func(r rune) bool { return r == 'M' || r == 'L' || r == 'Z' }) {
			x, y, _ := strings.Cut(f, " ")
			p := [2]string{x, y}
			if n := len(pts); n > 0 && pts[n-1] == p {
				continue
			}
			if n := len(pts); n > 1 && (pts[n-2][0] == pts[n-1][0] && pts[n-1][0] == x || pts[n-2][1] == pts[n-1][1] && pts[n-1][1] == y) {
				pts[n-1] = p
				continue
			}
			pts = append(pts, p)
		}
		out := make([]string, len(pts))
		for i, p := range pts {
			out[i] = p[0] + " " + p[1]
		}
		return out
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		lower, upper := make([]float64, 6), make([]float64, 6)
		for k := range lower {
			lower[k] = float64(r.IntN(3))
			upper[k] = lower[k] + float64(1+r.IntN(2))
		}
		got := string(appendBandPath(nil, xs, lower, upper, id))
		require.Equal(t, corners(everyStep(lower, upper)), corners(got), "lower %v upper %v: %s", lower, upper, got)
		require.LessOrEqual(t, len(got), len(everyStep(lower, upper)))
	}
}

// appendNum formats numbers in place as svgNum's first version did with
// strings, after what b already holds.
func TestAppendNumIsTheStringFormat(t *testing.T) {
	want := func(v float64) string {
		s := strings.TrimRight(strings.TrimRight(strconv.FormatFloat(v, 'f', 2, 64), "0"), ".")
		if s == "-0" || s == "" {
			return "0"
		}
		return s
	}
	values := []float64{0, -0.001, -0.004, -0.005, 0.005, 0.1, 0.10, 1.005, 12.3456, 100, 99.999, -12.5, 640, 1e9, -1e-9,
		142.00000001, 0.125, 0.375, -0.625, 2.675, 1e13, -1e15, math.Inf(1), math.NaN()}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		k := r.Int64N(2000000) - 1000000
		// Ties and near ties at the third decimal, eighths, and any value.
		values = append(values, float64(k)/1000+0.0005, float64(k)/200, float64(k)/8, (r.Float64()-0.5)*2000, r.Float64()/100)
	}
	for _, v := range values {
		require.Equal(t, "x"+want(v), string(appendNum([]byte("x"), v)), "%v", v)
		require.Equal(t, want(v), svgNum(v), "%v", v)
	}
}

func TestSamplePoints(t *testing.T) {
	h := make([]store.HistoryPoint, 1000)
	for i := range h {
		h[i].Step = i
	}
	s := samplePoints(h, 400)
	require.Len(t, s, 400)
	require.Equal(t, 0, s[0].Step)
	require.Equal(t, 999, s[399].Step)
	for i := 1; i < len(s); i++ {
		require.Greater(t, s[i].Step, s[i-1].Step)
	}
	require.Len(t, samplePoints(h[:10], 400), 10)
}

func TestChartMarkersAreBucketed(t *testing.T) {
	h := make([]store.HistoryPoint, 5000)
	for i := range h {
		h[i].Step = i
		h[i].Marks = []string{"submit"}
	}
	m := chartMarkers(h, 0, 4999)
	require.LessOrEqual(t, len(m), chartMaxMarkers+1)
	require.Equal(t, 0, m[0].Step)
}

func TestUsageChartRenderAndJump(t *testing.T) {
	s := fixtureStore(t, 14, "", "")
	var jumped []int
	c := &UsageChart{Frame: *s.Frame(), Parent: "root", OnJump: NewCallback(func(step int) { jumped = append(jumped, step) })}
	html := renderHTML(t, c)
	has(t, html, `data-parent="root"`, "<svg", `class="uc-marker"`, "Jump to step 1: submit", "Jump to step 14: reserve",
		"eng: ", "fin: ", "guaranteed")
	d := usageChart(s.Frame(), "root")
	require.Len(t, d.Series, 2)
	last := d.Markers[len(d.Markers)-1]
	require.Equal(t, 14, last.Step)
	require.Empty(t, jumped)
}
