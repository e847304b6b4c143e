package app

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

func gbRes(gb, vc int64) resource.Resource { return resource.New(gb*1024, vc) }

func ctr(id int64, app string, gb int64, am bool) core.ContainerView {
	return core.ContainerView{ID: id, App: app, Queue: "root.a", User: "u", Size: gbRes(gb, 1), IsAM: am}
}

func TestNodeCells(t *testing.T) {
	one := gbRes(1, 1)
	type block struct{ start, len, over int }
	tests := []struct {
		name   string
		node   core.NodeView
		unit   int64
		cells  int
		cols   int
		blocks []block
		ghost  *block
		short  int64
	}{
		{"empty 8 GB node", core.NodeView{Capacity: gbRes(8, 8)}, 1024, 8, 4, nil, nil, 0},
		{"containers in order", core.NodeView{Capacity: gbRes(8, 8), Allocated: gbRes(3, 2),
			Containers: []core.ContainerView{ctr(1, "app_1", 1, true), ctr(2, "app_1", 2, false)}},
			1024, 8, 4, []block{{0, 1, 0}, {1, 2, 0}}, nil, 0},
		{"a reservation spills past the edge", core.NodeView{Capacity: gbRes(8, 8), Allocated: gbRes(6, 2),
			Containers:  []core.ContainerView{ctr(1, "app_1", 6, false)},
			Reservation: &core.ContainerView{ID: 9, App: "app_2", Size: gbRes(4, 1), Reserved: true}},
			1024, 8, 4, []block{{0, 6, 0}}, &block{6, 2, 2}, 2048},
		{"a reservation that fits is all inside", core.NodeView{Capacity: gbRes(8, 8), Allocated: gbRes(2, 2),
			Containers:  []core.ContainerView{ctr(1, "app_1", 2, false)},
			Reservation: &core.ContainerView{ID: 9, App: "app_2", Size: gbRes(4, 1), Reserved: true}},
			1024, 8, 4, []block{{0, 2, 0}}, &block{2, 4, 0}, 0},
		{"big nodes get bigger cells", core.NodeView{Capacity: gbRes(256, 64)}, 4096, 64, 12, nil, nil, 0},
		{"a container smaller than a cell takes one", core.NodeView{Capacity: gbRes(2, 2),
			Containers: []core.ContainerView{{ID: 1, Size: resource.New(512, 1)}}}, 1024, 2, 2, []block{{0, 1, 0}}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := nodeCells(&tt.node, one)
			require.Equal(t, tt.unit, l.Unit.MemoryMB)
			require.Equal(t, tt.cells, l.Cells)
			require.Equal(t, tt.cols, l.Cols)
			var got []block
			for _, b := range l.Blocks {
				got = append(got, block{b.Start, b.Len, b.Over})
			}
			require.Equal(t, tt.blocks, got)
			if tt.ghost == nil {
				require.Nil(t, l.Ghost)
				return
			}
			require.NotNil(t, l.Ghost)
			require.Equal(t, *tt.ghost, block{l.Ghost.Start, l.Ghost.Len, l.Ghost.Over})
			require.Equal(t, tt.short, l.Short.MemoryMB)
		})
	}
}

func TestNodeStrip(t *testing.T) {
	n := core.NodeView{Capacity: gbRes(8, 8), Allocated: gbRes(6, 2),
		Containers:  []core.ContainerView{ctr(1, "app_1", 2, true), ctr(2, "app_1", 4, false)},
		Reservation: &core.ContainerView{ID: 9, App: "app_2", Size: gbRes(4, 1), Reserved: true}}
	g := nodeStrip(&n, 16*1024)
	require.InDelta(t, 0.5, g.Scale, 1e-9, "half the largest node")
	require.InDelta(t, 0.75, g.Used, 1e-9)
	require.Len(t, g.Segs, 2)
	require.InDelta(t, 0.25, g.Segs[1].Left, 1e-9)
	require.InDelta(t, 0.5, g.Segs[1].Width, 1e-9)
	require.NotNil(t, g.Ghost)
	require.InDelta(t, 0.75, g.Ghost.Left, 1e-9)
	require.InDelta(t, 1.25, g.Ghost.Left+g.Ghost.Width, 1e-9, "the ghost ends past the node's edge by the shortfall")
}

func TestNodeModes(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, modeCards}, {4, modeCards}, {36, modeCards}, {37, modeStrips}, {200, modeStrips}, {201, modeCanvas}, {1000, modeCanvas}} {
		require.Equal(t, tt.want, nodeMode(tt.n), "%d nodes", tt.n)
	}
}

func TestCanvasLayoutHitsWhatItPlaces(t *testing.T) {
	for _, n := range []int{1, 7, 201, 1000} {
		for _, w := range []int{300, 960, 1280} {
			l := newCanvasLayout(n, w)
			require.LessOrEqual(t, l.Cols*l.Stride, w, "n=%d w=%d", n, w)
			require.GreaterOrEqual(t, l.ColW, canvasMinCol-1)
			require.Equal(t, (n+l.Cols-1)/l.Cols, l.Rows)
			for i := 0; i < n; i += max(1, n/50) {
				x, y := l.at(i)
				require.Equal(t, i, l.hit(x+l.ColW/2, y+canvasBarH/2), "n=%d w=%d strip %d", n, w, i)
			}
			require.Equal(t, -1, l.hit(1, 1), "the margin is no strip")
		}
	}
	l := newCanvasLayout(1000, 1280)
	require.Equal(t, 12, l.Cols)
	require.Equal(t, 84, l.Rows)
	require.Equal(t, 2*canvasPad+84*l.RowH, l.H)
}

func TestRasterNodes(t *testing.T) {
	nodes := make([]core.NodeView, 6)
	for i := range nodes {
		nodes[i] = core.NodeView{Name: "n" + strconv.Itoa(i), Capacity: gbRes(8, 8)}
	}
	nodes[1].Allocated = gbRes(4, 1)
	nodes[2].Reservation = &core.ContainerView{ID: 2, App: "app_1", Queue: "root.a", Size: gbRes(8, 1), Reserved: true}
	nodes[2].Allocated = gbRes(6, 1)
	// app_1's containers in brief: an AM of 4 GB on n1, 6 GB on n2.
	f := &store.Frame{
		Apps: []core.AppView{{ID: "app_0", Queue: "root.a"}, {ID: "app_1", Queue: "root.a"}},
		Containers: []core.ContainerBrief{
			{ID: 1, App: 1, Size: gbRes(4, 1), IsAM: true},
			{ID: 3, App: 1, Size: gbRes(6, 1)},
		},
		NodeAt: []int{0, 0, 1, 2, 2, 2, 2},
	}
	f.SetNodes(nodes)
	colors := Colors{hue: map[string]int{"root.a": 120}, shade: map[string]int{"app_1": 0}}
	nc := &nodeCtx{colors: colors, heartbeat: "n3", largest: 8 * 1024}
	l := newCanvasLayout(len(nodes), 400)
	p := paletteFor(false)
	pix := rasterNodes(nil, f, l, nc, p, 4)
	dirty := bytes.Repeat([]byte{9}, len(pix)+8)
	require.Equal(t, pix, rasterNodes(dirty, f, l, nc, p, 4), "a reused buffer draws the same")
	require.Len(t, pix, l.W*l.H*4)
	at := func(x, y int) rgbColor {
		i := (y*l.W + x) * 4
		require.Equal(t, byte(255), pix[i+3], "pixel (%d,%d) is painted", x, y)
		return rgbColor{pix[i], pix[i+1], pix[i+2]}
	}
	blank := func(x, y int) bool { return pix[(y*l.W+x)*4+3] == 0 }

	x0, y0 := l.at(0)
	require.Equal(t, p.track, at(x0+5, y0+3), "an empty node is all track")
	require.Equal(t, p.track, at(x0+l.ColW-1, y0+3), "as long as the largest node")

	x1, y1 := l.at(1)
	block := colors.blockRGB("root.a", "app_1", false)
	require.Equal(t, block, at(x1, y1+3), "the AM container starts the strip")
	require.Equal(t, p.amDot, at(x1+1, y1+1), "AM containers are dotted")
	require.Equal(t, p.track, at(x1+l.ColW*3/4, y1+3), "the free half")

	x2, y2 := l.at(2)
	used := x2 + int(0.75*float64(l.ColW)+0.5)
	require.Equal(t, p.ghost, at(used, y2), "the reservation's dashed outline starts after the used part")
	past := x2 + l.ColW + 4
	found := false
	for x := x2 + l.ColW; x < x2+l.Stride; x++ {
		if !blank(x, y2) && at(x, y2) == p.ghost {
			found = true
		}
	}
	require.True(t, found, "the shortfall is drawn past the node's edge (near x=%d)", past)

	x3, y3 := l.at(3)
	require.Equal(t, p.hb, at(x3-2, y3-2), "the heartbeating node is outlined")
	require.Equal(t, p.hb, at(x3+10, y3+canvasBarH+1))

	x4, y4 := l.at(4)
	require.Equal(t, p.focus, at(x4-2, y4-2), "the opened node is outlined")

	x5, y5 := l.at(5)
	require.True(t, blank(x5-2, y5-2), "a plain node has no outline")
}

func TestCardCellsMarkWrappedContainers(t *testing.T) {
	n := core.NodeView{Capacity: gbRes(8, 8), Allocated: gbRes(5, 2),
		Containers: []core.ContainerView{ctr(1, "app_1", 3, true), ctr(2, "app_1", 2, false)}}
	nc := &nodeCtx{colors: Colors{hue: map[string]int{}, shade: map[string]int{}}, minAlloc: gbRes(1, 1)}
	l := nodeCells(&n, nc.minAlloc)
	require.Equal(t, 4, l.Cols)
	html := ""
	for _, c := range cardCells(&l, nc, nil) {
		html += app.HTMLString(c)
	}
	// Cells 0-2 are the AM, 3-4 the second container: it wraps at cell 4.
	require.Equal(t, 1, strings.Count(html, ` cont"`), "one cell goes on from the row above")
	require.Equal(t, 8, strings.Count(html, `class="cell `))
	require.Equal(t, 3, strings.Count(html, `class="cell free"`))
}

// The canvas is painted part by part in the browser: any split of the
// nodes into parts paints rasterNodes' picture to the pixel, outlines that
// overlap the next row's strips included (dense layout, the heartbeat and
// the opened node outlined).
func TestNodePainterInPartsPaintsTheWholePicture(t *testing.T) {
	const n = denseNodes + 321
	nodes := make([]core.NodeView, n)
	apps := []core.AppView{{ID: "app_0", Queue: "root.a"}, {ID: "app_1", Queue: "root.b"}}
	var cs []core.ContainerBrief
	at := []int{0}
	for i := range nodes {
		nodes[i] = core.NodeView{Name: "n" + strconv.Itoa(i), Capacity: gbRes(8+int64(i%3)*4, 8)}
		for k := 0; k < i%4; k++ {
			cs = append(cs, core.ContainerBrief{ID: int64(len(cs)), App: int32(k % 2), Size: gbRes(1+int64(k), 1), IsAM: k == 0})
			nodes[i].Allocated = nodes[i].Allocated.Add(cs[len(cs)-1].Size)
		}
		if i%17 == 0 {
			nodes[i].Reservation = &core.ContainerView{App: "app_1", Queue: "root.b", Size: gbRes(9, 1), Reserved: true}
		}
		at = append(at, len(cs))
	}
	f := &store.Frame{Apps: apps, Containers: cs, NodeAt: at}
	f.SetNodes(nodes)
	colors := Colors{hue: map[string]int{"root.a": 120, "root.b": 240}, shade: map[string]int{"app_0": 0, "app_1": 1}}
	nc := &nodeCtx{colors: colors, heartbeat: "n1000", largest: 16 * 1024}
	l := newCanvasLayout(n, 530)
	require.Equal(t, denseBarH, l.BarH)
	for _, dark := range []bool{false, true} {
		p := paletteFor(dark)
		whole := rasterNodes(nil, f, l, nc, p, 1000+l.Cols)
		for _, part := range []int{1, 7, canvasPart, n - 1} {
			np := newNodePainter(bytes.Repeat([]byte{9}, len(whole)), f, l, nc, p, 1000+l.Cols)
			parts := 0
			for !np.done() {
				np.paint(part)
				parts++
			}
			require.Equal(t, (n+part-1)/part, parts)
			require.True(t, bytes.Equal(whole, np.r.pix), "parts of %d nodes paint another picture (dark %v)", part, dark)
		}
	}
}
