package app

import (
	"strings"

	"yarnplay/core"
	"yarnplay/scenarios"
)

// Walk step kinds: what a step of "walk this heartbeat" highlights.
const (
	WalkNode      = "node"       // the node that heartbeats (or looks again)
	WalkRoot      = "root"       // root is tried
	WalkQueue     = "queue"      // a parent queue is tried
	WalkLeaf      = "leaf"       // a leaf queue is tried
	WalkOrder     = "order"      // a parent's children in the order it tries them
	WalkQueueSkip = "queue-skip" // a queue is not tried or gives nothing (Reason)
	WalkApp       = "app"        // the leaf considers an app
	WalkAppSkip   = "app-skip"   // the app gets nothing on this node (Reason)
	WalkAlloc     = "alloc"      // a container, or a fulfilled reservation
	WalkReserve   = "reserve"    // a reservation is made or kept
	WalkFinished  = "finished"   // a container completes on the node
	WalkDone      = "done"       // the heartbeat ends (Reason)
)

// WalkStep is one highlight of "walk this heartbeat": what is lit on the
// page, the narration line of the decision, and a caption.
type WalkStep struct {
	Kind  string
	Node  string
	Queue string
	// Order is a parent's children in the order it tries them (WalkOrder).
	Order  []string
	App    string
	Reason string
	// Line is the decision's line in the step's narration (-1 if none).
	Line int
	// Beat counts the heartbeats of the step: 0 for the first node's, 1
	// for the next one's in a tick of all nodes, ...
	Beat int
}

// WalkSteps derives the highlights of a step's heartbeats from its
// decision record, in the order the scheduler made the decisions: the
// node, root, each parent's ordered children, the leaf, each app in FIFO
// order with why it was skipped, the allocation and the end. isLeaf says
// which queue paths are leaves. A step with several heartbeats (a tick of
// all nodes) gives them one after the other, Beat telling them apart;
// events outside a heartbeat are not walked but keep their narration lines
// counted, as scenarios.Narrate writes them (scenarios.NarrationLines).
func WalkSteps(events []core.Event, isLeaf func(string) bool) []WalkStep {
	var out []WalkStep
	lines := scenarios.NarrationLines(events)
	beat, in := -1, false
	for i, e := range events {
		at := lines[i]
		if e.Kind == core.EvHeartbeat {
			beat++
			in = true
		}
		if !in {
			continue
		}
		st := WalkStep{Node: e.Node, Queue: e.Queue, App: e.App, Reason: string(e.Reason), Line: at, Beat: beat}
		switch e.Kind {
		case core.EvHeartbeat:
			st.Kind = WalkNode
		case core.EvAssignPass:
			if at < 0 {
				continue
			}
			st.Kind = WalkNode
		case core.EvQueueVisit:
			switch {
			case e.Reason == core.ReasonNodeReserved:
				st.Kind = WalkReserve
			case e.Depth == 0 && !strings.Contains(e.Queue, "."):
				st.Kind = WalkRoot
			case isLeaf != nil && isLeaf(e.Queue):
				st.Kind = WalkLeaf
			default:
				st.Kind = WalkQueue
			}
		case core.EvChildOrder:
			st.Kind = WalkOrder
			st.Order = childPaths(e.Detail)
		case core.EvQueueSkipped:
			st.Kind = WalkQueueSkip
		case core.EvFairOrder:
			st.Kind = WalkLeaf
		case core.EvAppConsidered:
			st.Kind = WalkApp
		case core.EvAppSkipped:
			st.Kind = WalkAppSkip
		case core.EvAllocated, core.EvReservationFulfil:
			st.Kind = WalkAlloc
		case core.EvReserved, core.EvReReserved:
			st.Kind = WalkReserve
		case core.EvContainerFinished:
			st.Kind = WalkFinished
		case core.EvHeartbeatDone:
			st.Kind = WalkDone
			in = false
		default:
			continue
		}
		out = append(out, st)
	}
	return out
}

// childPaths reads the queue paths of a child_order event's Detail
// ("root.a=0.0000, root.b=0.1250@2").
func childPaths(d string) []string {
	if d == "" {
		return nil
	}
	parts := strings.Split(d, ", ")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		path, _, _ := strings.Cut(p, "=")
		out = append(out, path)
	}
	return out
}

// walkBeats counts the heartbeats of a walk.
func walkBeats(steps []WalkStep) int {
	if len(steps) == 0 {
		return 0
	}
	return steps[len(steps)-1].Beat + 1
}

// nextBeat is the first step of the heartbeat after step i's, or len(steps).
func nextBeat(steps []WalkStep, i int) int {
	if i < 0 || i >= len(steps) {
		return len(steps)
	}
	b := steps[i].Beat
	for j := i + 1; j < len(steps); j++ {
		if steps[j].Beat != b {
			return j
		}
	}
	return len(steps)
}

// walkCaption says a step in words, for the walk's panel.
func walkCaption(s WalkStep) string {
	switch s.Kind {
	case WalkNode:
		return s.Node + " heartbeats: the scheduler starts from root for it"
	case WalkRoot:
		return "root is tried"
	case WalkQueue:
		return s.Queue + " is tried"
	case WalkLeaf:
		return "leaf " + s.Queue + " is tried: its apps in FIFO order"
	case WalkOrder:
		names := make([]string, len(s.Order))
		for i, p := range s.Order {
			names[i] = itoa(i+1) + ". " + strings.TrimPrefix(p, s.Queue+".")
		}
		return s.Queue + " tries its children in this order: " + strings.Join(names, ", ")
	case WalkQueueSkip:
		return s.Queue + " is passed over: " + s.Reason
	case WalkApp:
		return s.Queue + " considers " + s.App
	case WalkAppSkip:
		return s.App + " gets nothing on " + s.Node + ": " + s.Reason
	case WalkAlloc:
		return s.App + " gets a container on " + s.Node
	case WalkReserve:
		return s.Node + " is reserved for " + s.App
	case WalkFinished:
		return "a container of " + s.App + " completes on " + s.Node
	case WalkDone:
		if s.Reason == "" {
			return s.Node + " is done"
		}
		return s.Node + " is done: " + s.Reason
	}
	return s.Kind
}
