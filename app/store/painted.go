package store

import "slices"

// ForPaintedNodes returns f as the page gets it while the simulation
// paints the node canvas itself: a copy that shares everything with f but
// the nodes' containers, of which it keeps only those of the node named
// focus ("" none), the node the page opens as a card. At benchmark 5's
// scale the containers are hundreds of thousands: the page would read and
// keep them at every step only to paint them.
func (f *Frame) ForPaintedNodes(focus string) *Frame {
	g := *f
	g.NodesPainted, g.FocusNode = true, focus
	g.Containers = nil
	g.NodeAt = make([]int, len(f.Nodes)+1)
	for i := range f.Nodes {
		if f.Nodes[i].Name != focus || len(f.NodeAt) <= i+1 {
			continue
		}
		g.Containers = slices.Clone(f.NodeBriefs(i)) // its own (Store.ReuseViews)
		for j := i + 1; j < len(g.NodeAt); j++ {
			g.NodeAt[j] = len(g.Containers)
		}
		break
	}
	return &g
}

// OwnContainers gives f a copy of its nodes' containers: a frame of a
// store that reuses its lists (Store.ReuseViews) that is kept past the
// store's next steps (a page's frame) keeps them so.
func (f *Frame) OwnContainers() { f.Containers = slices.Clone(f.Containers) }
