package app

import (
	"math"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// The geometry of nodes, as pure functions of core's NodeView: the cells
// of a node card and the segments of a node strip. NodeGrid draws them in
// the DOM or on a canvas.

// maxCardCells bounds the cells of a card: past it, a cell stands for
// several minimum allocations.
const maxCardCells = 64

// cellBlock is one container (or the reservation) laid on a card's cells.
type cellBlock struct {
	// Start and Len are in cells; Over counts the cells past the node's
	// edge (a reservation's shortfall).
	Start, Len, Over int
	C                core.ContainerView
}

// cellLayout lays a node's containers on a grid of cells, each cell Unit
// (a multiple of the minimum allocation) of memory.
type cellLayout struct {
	// Unit is the memory of one cell, a multiple of the minimum allocation.
	Unit resource.Resource
	// Cells is the node's capacity in cells; Cols the grid's width.
	Cells, Cols int
	// Blocks are the containers, in the node's order, one after another.
	Blocks []cellBlock
	// Ghost is the reservation, after the containers; nil when none.
	Ghost *cellBlock
	// Short is how much more the reservation needs than the node has free.
	Short resource.Resource
}

// ceilDivPos is ceil(a/b) for positive b; 0 for a <= 0.
func ceilDivPos(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// nodeCells lays out a node's card: the node's memory cut into cells of the
// minimum allocation (or a multiple, so that no card has more than
// maxCardCells), each container a run of cells rounded up, the reservation
// as a ghost run after them whose cells past the node's free space spill
// over the edge.
func nodeCells(n *core.NodeView, minAlloc resource.Resource) cellLayout {
	unit := max(minAlloc.MemoryMB, 1)
	raw := ceilDivPos(n.Capacity.MemoryMB, unit)
	if raw > maxCardCells {
		unit *= ceilDivPos(raw, maxCardCells)
	}
	l := cellLayout{Unit: resource.New(unit, minAlloc.VCores), Cells: int(ceilDivPos(n.Capacity.MemoryMB, unit))}
	l.Cols = max(1, int(math.Ceil(math.Sqrt(float64(l.Cells)*2))))
	l.Cols = min(l.Cols, max(l.Cells, 1))
	at := 0
	for _, c := range n.Containers {
		k := max(int(ceilDivPos(c.Size.MemoryMB, unit)), 1)
		k = min(k, max(l.Cells-at, 0))
		l.Blocks = append(l.Blocks, cellBlock{Start: at, Len: k, C: c})
		at += k
	}
	if r := n.Reservation; r != nil {
		free := n.Capacity.Sub(n.Allocated)
		l.Short = r.Size.SubNonNegative(free)
		total := max(int(ceilDivPos(r.Size.MemoryMB, unit)), 1)
		over := int(ceilDivPos(l.Short.MemoryMB, unit))
		over = max(over, total-(l.Cells-at))
		over = min(max(over, 0), total)
		l.Ghost = &cellBlock{Start: at, Len: total - over, Over: over, C: *r}
	}
	return l
}

// stripSeg is one container (or the reservation) on a node strip, as
// fractions of the node's memory.
type stripSeg struct {
	Left, Width float64
	C           core.ContainerView
}

// stripGeom is a node drawn as one horizontal strip.
type stripGeom struct {
	// Scale is the strip's length: the node's memory over the largest
	// node's, so nodes of different sizes compare.
	Scale float64
	// Used is the allocated fraction of the node.
	Used float64
	Segs []stripSeg
	// Ghost is the reservation after the containers; its end may pass 1
	// (the node's edge) by the shortfall. Nil when none.
	Ghost *stripSeg
}

// nodeStrip computes a node's strip; largest is the largest node's memory.
func nodeStrip(n *core.NodeView, largest int64) stripGeom {
	g := stripGeom{Scale: 1}
	capMB := float64(n.Capacity.MemoryMB)
	if largest > 0 {
		g.Scale = unit01(capMB / float64(largest))
	}
	if capMB <= 0 {
		return g
	}
	at := 0.0
	for _, c := range n.Containers {
		w := float64(c.Size.MemoryMB) / capMB
		g.Segs = append(g.Segs, stripSeg{Left: at, Width: w, C: c})
		at += w
	}
	g.Used = float64(n.Allocated.MemoryMB) / capMB
	if r := n.Reservation; r != nil {
		g.Ghost = &stripSeg{Left: g.Used, Width: float64(r.Size.MemoryMB) / capMB, C: *r}
	}
	return g
}

// largestNode is the largest memory of any node, the strips' full length.
func largestNode(nodes []core.NodeView) int64 {
	var m int64
	for i := range nodes {
		m = max(m, nodes[i].Capacity.MemoryMB)
	}
	return m
}
