package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

// This file is the motion of the node views: a container grows into its
// cells when allocated (the stylesheet animates a cell that becomes a
// block, and a strip segment that appears), and one that completed in this
// step is drawn once more, in the free room after the node's containers,
// fading out, so the eye sees where it left. A reservation's ghost
// pulses. Under prefers-reduced-motion the stylesheet keeps them still.

// doneBlock is a container that completed in the step, on its node.
type doneBlock struct {
	Queue, App string
	Size       resource.Resource
}

// doneByNode groups the containers completed in a frame's step by node,
// from its events (core's record of the step).
func doneByNode(f *store.Frame) map[string][]doneBlock {
	var out map[string][]doneBlock
	for _, e := range f.Events {
		if e.Kind != core.EvContainerFinished || e.Node == "" {
			continue
		}
		if out == nil {
			out = map[string][]doneBlock{}
		}
		out[e.Node] = append(out[e.Node], doneBlock{Queue: e.Queue, App: e.App, Size: e.Resource})
	}
	return out
}

// doneCells are the fading cells of a node card's completed containers,
// at most free cells of them (they stand in the room they left).
func doneCells(done []doneBlock, unit resource.Resource, free int, nc *nodeCtx) []app.UI {
	var cells []app.UI
	for _, d := range done {
		n := int(ceilDivPos(d.Size.MemoryMB, max(unit.MemoryMB, 1)))
		for i := 0; i < n && len(cells) < free; i++ {
			cells = append(cells, app.Span().Class("cell done").Attr("style", nc.colors.blockStyle(d.Queue, d.App)).
				Title("container of "+d.App+" completed in this step"))
		}
	}
	return cells
}

// doneBlocks appends to blocks the fading blocks of a strip's completed
// containers, after its used part.
func doneBlocks(blocks []stripBlock, done []doneBlock, n *core.NodeView, used float64, nc *nodeCtx) []stripBlock {
	capMB := float64(n.Capacity.MemoryMB)
	if capMB <= 0 {
		return blocks
	}
	at := used
	for _, d := range done {
		w := min(float64(d.Size.MemoryMB)/capMB, max(1-at, 0))
		if w <= 0 {
			break
		}
		blocks = append(blocks, stripBlock{Class: "ns-blk done", Style: nc.colors.blockStyle(d.Queue, d.App) + ";left:" + cssPct(at) + ";width:" + cssPct(w)})
		at += w
	}
	return blocks
}

// stepParity alternates with the step: the stylesheet gives the two values
// animations of different names, so a view marked with it moves again on
// every step (a CSS animation restarts only when its name changes).
func stepParity(step int) string { return strconv.Itoa(step % 2) }
