package app

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/internal/noeq"
)

// UsageChart shows, for one parent queue, its children's usage over the
// frame's history as a stacked area chart (inline SVG, as elements that
// the next step updates in place): each child a band
// in its queue's hue, solid up to its guarantee and hatched above it
// (borrowed), a dashed line at each child's guarantee, and under the chart
// a marker for every step that submitted, finished, reserved or preempted
// something. A marker is a button: it calls OnJump with its step.
type UsageChart struct {
	app.Compo

	// Frame is the step to show; its History is drawn.
	Frame store.Frame
	// Parent is the parent queue's path; "" means root.
	Parent string
	// OnJump, if set, is called with a marker's step to move the timeline
	// there.
	OnJump *Callback[int]
}

// Chart geometry in SVG units; the SVG scales to its box's width.
const (
	chartW, chartH     = 640.0, 150.0
	chartLeft          = 44.0
	chartRight         = 8.0
	chartTop           = 8.0
	chartBottom        = 20.0
	chartMaxPoints     = 400
	chartMaxMarkers    = 48
	chartPlotW         = chartW - chartLeft - chartRight
	chartPlotH         = chartH - chartTop - chartBottom
	chartMarkerSymbols = "submit:+,finish:✓,reserve:⌛,preempt:✂"
)

// Render draws the chart.
func (c *UsageChart) Render() app.UI {
	d := usageChart(&c.Frame, c.Parent)
	if d.Parent == "" {
		return app.Section().Class("usage-chart").DataSet("frame-step", c.Frame.Step).Body(app.P().Class("muted").Text("No parent queue " + c.Parent + "."))
	}
	return app.Section().Class("usage-chart").DataSet("frame-step", c.Frame.Step).Attr("data-parent", d.Parent).Aria("label", "Usage over time of the children of "+d.Parent).Body(
		app.Div().Class("uc-plot").Body(
			chartSVG(&d),
			app.Div().Class("uc-markers").Body(
				app.Range(d.Markers).Slice(func(i int) app.UI {
					m := d.Markers[i]
					return app.Button().Type("button").Class("uc-marker").Attr("data-step", strconv.Itoa(m.Step)).
						Style("left", strconv.FormatFloat(m.X*100, 'f', 2, 64)+"%").
						Aria("label", m.Label).Title(m.Label).
						OnClick(c.jump).Text(m.Glyphs)
				}),
			),
		),
		app.Ul().Class("legend uc-legend").Body(
			app.Range(d.Series).Slice(func(i int) app.UI {
				s := d.Series[i]
				return app.Li().Body(
					app.Span().Class("lg-swatch uc-sw").Style("--h", strconv.Itoa(s.Hue)).Aria("hidden", "true"),
					app.Text(s.Name+": "+pctText(s.Now)+" now, "+pctText(s.Guar)+" guaranteed"),
				)
			}),
			app.Li().Body(app.Span().Class("lg-swatch lg-borrowed").Aria("hidden", "true"), app.Text("above guarantee")),
			app.Li().Body(app.Span().Class("lg-swatch lg-guar-line").Aria("hidden", "true"), app.Text("guarantee")),
		),
	)
}

// jump moves the timeline to the step of the marker clicked, which its
// data-step says when it is clicked (see the package's doc on handlers).
func (c *UsageChart) jump(ctx app.Context, _ app.Event) {
	if step, err := strconv.Atoi(data(ctx, "step")); err == nil {
		c.OnJump.Call(step)
	}
}

// chartSeries is one child of the chart.
type chartSeries struct {
	_          noeq.T
	Path, Name string
	Hue        int
	Guar, Now  float64
	// Band, Above and Guarantee are its paths' outlines (SVG path data):
	// the band within its guarantee, the band above it, and the dashed
	// line at it.
	Band, Above, Guarantee string
}

// chartMarker is one marker button: the steps of a bucket of the x axis
// that had notable events.
type chartMarker struct {
	_    noeq.T
	Step int
	// X is the marker's position as a fraction of the chart's width.
	X float64
	// Glyphs show its kinds (+ submit, ✓ finish, ⌛ reserve, ✂ preempt);
	// Label says them in words.
	Glyphs, Label string
}

// chartData is the chart of one parent, ready to draw.
type chartData struct {
	Parent string
	// ID is the prefix of the SVG's ids, made from the parent's index in
	// the frame (never from its name, which a link or a file chooses).
	ID      string
	Series  []chartSeries
	Markers []chartMarker
	// YMax is the top of the y axis, a fraction of the cluster; Y0 and
	// YTop are the y coordinates of 0 and of YMax.
	YMax, Y0, YTop float64
	// Steps are the first and the last step drawn; none when the history
	// is empty.
	Steps []int
}

// usageChart computes the chart of parent's children over f.History.
func usageChart(f *store.Frame, parent string) chartData {
	// A queue's index, by a scan from the index from on, round to it
	// again: the frame lists a parent's children in their order, so the
	// scans for them all make about one pass, with no map of every queue
	// built at every step.
	at := func(path string, from int) int {
		n := len(f.Queues)
		for k := range n {
			if i := (from + k) % n; f.Queues[i].Path == path {
				return i
			}
		}
		return -1
	}
	if parent == "" {
		parent = "root"
	}
	pi := at(parent, 0)
	if pi < 0 || f.Queues[pi].Leaf {
		return chartData{}
	}
	p := &f.Queues[pi]
	colors := NewColors(f)
	d := chartData{Parent: parent, ID: "uc-" + strconv.Itoa(pi)}
	var children []int
	guarSum := 0.0
	ci := pi
	for _, ch := range p.Children {
		if ci = at(ch, ci+1); ci < 0 {
			continue
		}
		q := &f.Queues[ci]
		children = append(children, ci)
		d.Series = append(d.Series, chartSeries{Path: q.Path, Name: q.Name, Hue: colors.Hue(q.Path),
			Guar: float64(q.AbsCapacity), Now: float64(q.AbsUsedCapacity)})
		guarSum += float64(q.AbsCapacity)
	}
	pts := samplePoints(f.History, chartMaxPoints)
	// used[k][j]: child j's share at point k, rows of one array.
	used := make([][]float64, len(pts))
	shares := make([]float64, len(pts)*len(children))
	top := max(float64(p.AbsMaxCapacity), guarSum)
	for k, hp := range pts {
		used[k] = shares[k*len(children) : (k+1)*len(children)]
		tot := 0.0
		for j, ci := range children {
			if ci < len(hp.Used) {
				used[k][j] = resShare(hp.Used[ci], f.Cluster, f.Dominant)
			}
			tot += used[k][j]
		}
		top = max(top, tot)
	}
	d.YMax = max(top, 0.01)
	first, last := 0, 1
	if len(pts) > 0 {
		first, last = pts[0].Step, pts[len(pts)-1].Step+1 // the last value holds for one step
	}
	xOf := func(step int) float64 { return chartLeft + chartPlotW*float64(step-first)/float64(last-first) }
	yOf := func(v float64) float64 { return chartTop + chartPlotH*(1-v/d.YMax) }
	d.Y0, d.YTop = yOf(0), yOf(d.YMax)
	if len(pts) > 0 {
		d.Steps = []int{pts[0].Step, pts[len(pts)-1].Step}
		chartPaths(d.Series, pts, used, xOf, yOf, last)
	}
	d.Markers = chartMarkers(f.History, first, last)
	return d
}

// samplePoints keeps at most n points of a history, evenly, always with
// the first and the last.
func samplePoints(h []store.HistoryPoint, n int) []store.HistoryPoint {
	if len(h) <= n {
		return h
	}
	out := make([]store.HistoryPoint, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, h[i*(len(h)-1)/(n-1)])
	}
	return out
}

// svgNS is the namespace of the chart's elements.
const svgNS = "http://www.w3.org/2000/svg"

// svgElem is an element of the chart's SVG with its attributes, given as
// name and value pairs. They are go-app's elements, not markup: a step
// sets the attributes that changed (the paths' outlines, the axis's
// labels) and the browser lays out no new elements.
func svgElem(tag string, attrs ...string) app.HTMLElem {
	e := app.Elem(tag).XMLNS(svgNS)
	for i := 0; i+1 < len(attrs); i += 2 {
		e = e.Attr(attrs[i], attrs[i+1])
	}
	return e
}

// chartSVG draws the chart d: the axes and, for each child, the band
// within its guarantee (solid), the band above it (hatched, a pattern in
// its hue) and a dashed line at its guarantee.
func chartSVG(d *chartData) app.UI {
	kids := make([]app.UI, 1, 7+3*len(d.Series))
	hatches := make([]app.UI, len(d.Series))
	left, right := svgNum(chartLeft), svgNum(chartW-chartRight)
	y0, yTop := svgNum(d.Y0), svgNum(d.YTop)
	kids = append(kids, svgElem("line", "class", "uc-axis", "x1", left, "y1", y0, "x2", right, "y2", y0),
		svgElem("line", "class", "uc-grid", "x1", left, "y1", yTop, "x2", right, "y2", yTop))
	// The axis's labels: text, anchor, x, y, baseline.
	labels := []string{"0%", "end", svgNum(chartLeft - 4), y0, "middle", pctText(d.YMax), "end", svgNum(chartLeft - 4), yTop, "hanging"}
	if len(d.Steps) == 2 {
		bottom := svgNum(chartH - 4)
		labels = append(labels, "step "+strconv.Itoa(d.Steps[0]), "start", left, bottom, "auto",
			"step "+strconv.Itoa(d.Steps[1]), "end", right, bottom, "auto")
	}
	for l := 0; l < len(labels); l += 5 {
		kids = append(kids, svgElem("text", "class", "uc-tick", "text-anchor", labels[l+1], "x", labels[l+2], "y", labels[l+3],
			"dominant-baseline", labels[l+4]).Body(app.Text(labels[l])))
	}
	for j, s := range d.Series {
		// Ids come from indexes, never from a queue's name.
		hatch := d.ID + "-h" + strconv.Itoa(j)
		hue := "--h:" + strconv.Itoa(s.Hue)
		hatches[j] = svgElem("pattern", "id", hatch, "class", "uc-hatch", "style", hue, "patternUnits", "userSpaceOnUse",
			"width", "6", "height", "6", "patternTransform", "rotate(45)").Body(
			svgElem("rect", "width", "6", "height", "6"),
			svgElem("line", "x1", "0", "y1", "0", "x2", "0", "y2", "6"),
		)
		if s.Band != "" {
			kids = append(kids, svgElem("path", "class", "uc-band", "style", hue, "d", s.Band),
				svgElem("path", "class", "uc-above", "fill", "url(#"+hatch+")", "d", s.Above),
				svgElem("path", "class", "uc-guar", "style", hue, "d", s.Guarantee))
		}
	}
	kids[0] = svgElem("defs").Body(hatches...)
	return svgElem("svg", "class", "uc-svg", "viewBox", "0 0 "+svgNum(chartW)+" "+svgNum(chartH), "role", "img",
		"aria-label", "Stacked usage of the children of "+d.Parent+" over time, as a share of the cluster").Body(kids...)
}

// chartPaths sets the outlines of the series' paths, drawn as steps: a
// value holds until the next point. used[k][j] is child j's share at
// point k.
func chartPaths(series []chartSeries, pts []store.HistoryPoint, used [][]float64, xOf func(int) float64, yOf func(float64) float64, last int) {
	// x edges of each point's step: it holds from its step to the next one.
	xs := make([]float64, len(pts)+1)
	for k, p := range pts {
		xs[k] = xOf(p.Step)
	}
	xs[len(pts)] = xOf(last)
	if xs[len(pts)] <= xs[len(pts)-1] {
		xs[len(pts)] = xs[len(pts)-1] + 2
	}
	// The bands' edges, one array for every series: base is where the
	// next band starts.
	edges := make([]float64, 5*len(pts))
	base, lo, mid, hi, g := edges[:len(pts)], edges[len(pts):2*len(pts)], edges[2*len(pts):3*len(pts)], edges[3*len(pts):4*len(pts)], edges[4*len(pts):]
	// One buffer grows as it goes: runs of equal values are one segment
	// (appendStepLine), so the outlines take a few kilobytes where a bound
	// from the points would be hundreds, allocated at every step.
	var path []byte
	for j := range series {
		s := &series[j]
		copy(lo, base)
		for k := range pts {
			u := used[k][j]
			mid[k] = lo[k] + min(u, s.Guar)
			hi[k] = lo[k] + u
			base[k] = hi[k]
		}
		for k := range pts {
			g[k] = lo[k] + s.Guar
		}
		path = appendBandPath(path[:0], xs, lo, mid, yOf)
		s.Band = string(path)
		path = appendBandPath(path[:0], xs, mid, hi, yOf)
		s.Above = string(path)
		path = appendStepLine(path[:0], xs, g, yOf)
		s.Guarantee = string(path)
	}
}

// appendBandPath appends the closed outline between two step lines,
// upper then lower, to b.
func appendBandPath(b []byte, xs, lower, upper []float64, yOf func(float64) float64) []byte {
	b = appendStepLine(b, xs, upper, yOf)
	n := len(lower)
	if n == 0 {
		return append(b, 'Z')
	}
	// Backwards, with the same corners as appendStepLine's.
	y := yOf(lower[n-1])
	b = appendPoint(b, 'L', xs[n], y)
	for k := n - 1; k > 0; k-- {
		if prev := yOf(lower[k-1]); prev != y {
			b = appendPoint(b, 'L', xs[k], y)
			b = appendPoint(b, 'L', xs[k], prev)
			y = prev
		}
	}
	b = appendPoint(b, 'L', xs[0], y)
	return append(b, 'Z')
}

// appendStepLine appends a path through values holding from xs[k] to
// xs[k+1] to b. A run of equal values is one segment: the line has a
// corner only where the value changes (a long history holds most values
// for many steps, and the chart draws every step again).
func appendStepLine(b []byte, xs, v []float64, yOf func(float64) float64) []byte {
	if len(v) == 0 {
		return b
	}
	y := yOf(v[0])
	b = appendPoint(b, 'M', xs[0], y)
	for k := 1; k < len(v); k++ {
		if next := yOf(v[k]); next != y {
			b = appendPoint(b, 'L', xs[k], y)
			b = appendPoint(b, 'L', xs[k], next)
			y = next
		}
	}
	return appendPoint(b, 'L', xs[len(v)], y)
}

// appendPoint appends a path command to the point (x, y): "L12.5 40".
func appendPoint(b []byte, cmd byte, x, y float64) []byte {
	b = appendNum(append(b, cmd), x)
	return appendNum(append(b, ' '), y)
}

// svgNum formats an SVG coordinate with at most two decimals.
func svgNum(v float64) string { return string(appendNum(nil, v)) }

// appendNum appends svgNum(v) to b. The chart writes tens of thousands of
// numbers every step: it formats them in place, in integer arithmetic when
// the rounding to hundredths is clear (v*100 is not within a hair of a
// half), else as strconv does.
func appendNum(b []byte, v float64) []byte {
	if x := v * 100; math.Abs(x) < 1e12 {
		if n := math.Round(x); math.Abs(math.Abs(x-n)-0.5) > 1e-3 {
			return appendHundredths(b, int64(n))
		}
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'f', 2, 64)
	for len(b) > start && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if len(b) > start && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	if n := b[start:]; len(n) == 0 || string(n) == "-0" {
		b = append(b[:start], '0')
	}
	return b
}

// appendHundredths appends n/100 with at most two decimals, as appendNum
// writes it: "-12.5", "3", "0.07".
func appendHundredths(b []byte, n int64) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/100, 10)
	switch f := n % 100; {
	case f == 0:
	case f%10 == 0:
		b = append(b, '.', byte('0'+f/10))
	default:
		b = append(b, '.', byte('0'+f/10), byte('0'+f%10))
	}
	return b
}

// chartMarkers buckets the history's notable steps along the x axis: at
// most chartMaxMarkers buttons, each jumping to the first step of its
// bucket and naming every kind it holds.
func chartMarkers(h []store.HistoryPoint, first, last int) []chartMarker {
	symbols := map[string]string{}
	for _, kv := range strings.Split(chartMarkerSymbols, ",") {
		k, v, _ := strings.Cut(kv, ":")
		symbols[k] = v
	}
	span := float64(last - first)
	var out []chartMarker
	bucket := -1
	var kinds []string
	flush := func() {
		if len(out) == 0 || len(kinds) == 0 {
			return
		}
		m := &out[len(out)-1]
		var g strings.Builder
		for _, k := range kinds {
			if s, ok := symbols[k]; ok {
				g.WriteString(s)
			} else {
				g.WriteString("•")
			}
		}
		m.Glyphs = g.String()
		m.Label = "Jump to step " + strconv.Itoa(m.Step) + ": " + strings.Join(kinds, ", ")
		kinds = nil
	}
	for _, p := range h {
		if len(p.Marks) == 0 {
			continue
		}
		x := (float64(p.Step-first) + 0.5) / span // the middle of the step
		bk := int(x * chartMaxMarkers)
		if bk != bucket {
			flush()
			bucket = bk
			out = append(out, chartMarker{Step: p.Step, X: (chartLeft + chartPlotW*x) / chartW})
		}
		for _, k := range p.Marks {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	flush()
	return out
}
