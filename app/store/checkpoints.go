package store

import (
	"yarnplay/core"
	"yarnplay/scenarios"
)

// Checkpoints: players kept at some steps, so that going to a step
// replays from the nearest rather than from the start (seek).

// checkpointSpan spaces the checkpoints by their cost. A checkpoint (a
// clone of the player) costs about a microsecond per object it copies:
// queues, nodes, applications and live containers; playing a step costs
// a few microseconds per node heartbeat, at the least, and the store's
// record and frame more. So a checkpoint is taken once the work played
// since the last one, in node heartbeats plus one per step, reaches the
// objects of the state over checkpointSpan, and going back replays at
// most that much work. At benchmark 5's scale after its ticks (some
// 300,000 objects) that is one every 15 ticks of its 10,000 nodes: a
// clone of about 180 ms natively against 1.5 to 2.5 s of the store's
// ticks, about a tenth. The checkpoints after the start hold at most two
// states' objects together (checkpointShare), so the newer replace the
// older: the newest is at most that much work behind the end, which is
// where a learner goes back from. The spacing depends on the steps
// alone, never on time, so checkpoints and replays are deterministic.
const checkpointSpan = 2

// span is the work between two checkpoints of a state of objs objects.
func span(objs int64) int64 { return objs / checkpointSpan }

// checkpoint is a player at a step; it is cloned before use, never played.
type checkpoint struct {
	step int
	p    *scenarios.Player
	// objects is about how many objects the player holds (see objects).
	objects int64
}

// checkpointShare bounds the checkpoints after the start, and near,
// together, by the objects of the furthest state played: at most
// checkpointShare times its objects (cloneFloor included), however many
// steps the work has. A checkpoint is a clone, more compact than the
// state played (at benchmark 5's scale after its ticks, 33 MB where the
// state is 48 MB), so that two of them, with the start (a state before
// any step: there the nodes and queues alone, 10 MB), the records and the
// frames a server keeps, hold less than twice one state (issue 32). Past
// it, checkpoints go (see fit): going back then replays further, but
// memory stays bounded however long the work (a variable so that tests
// can change it).
var checkpointShare int64 = 2

// thin drops every other checkpoint between the start and the newest
// until those after the start hold at most limit objects together, or the
// newest alone is left. It returns a new slice when it drops any (cps may
// be shared with a saved state).
func thin(cps []checkpoint, limit int64) []checkpoint {
	for len(cps) > 2 {
		var total int64
		for _, c := range cps[1:] {
			total += c.objects
		}
		if total <= limit {
			break
		}
		out := []checkpoint{cps[0]}
		for i := 2; i < len(cps)-1; i += 2 {
			out = append(out, cps[i])
		}
		cps = append(out, cps[len(cps)-1])
	}
	return cps
}

// nearMark returns where a replay from step from to step to, going back
// from a state of objs objects, leaves a checkpoint (near), or -1 for
// none. Checkpoints are spaced by the objects of the state (span), so at
// scale going back one step can replay a great deal (up to 15 ticks of
// benchmark 5's 10,000 nodes). When the replay is more than a quarter of
// the objects, the checkpoint goes at the latest step from which that
// much is left to replay: stepping back again, and again, replays at most
// that much until it passes the checkpoint, and then leaves another. It
// costs one clone, two or three ticks' worth there. Like the spacing, it
// depends on the steps alone.
func (s *Store) nearMark(from, to int, objs int64) int {
	d := objs / 4
	if to >= len(s.recs) || s.work(from, to) <= d {
		return -1
	}
	for m := to - 1; m > from; m-- {
		if s.work(m, to) >= d {
			return m
		}
	}
	return -1
}

// work is what playing steps i+1 to j costs, as checkpoints are spaced:
// their node heartbeats, plus one per step (both steps recorded).
func (s *Store) work(i, j int) int64 {
	return s.recs[j].heartbeats - s.recs[i].heartbeats + int64(j-i)
}

// clone copies a player (for a checkpoint, or to play on from one).
func (s *Store) clone(p *scenarios.Player) *scenarios.Player { return p.Clone() }

// DeferCheckpoints has the store take the checkpoint a step calls for
// (record) not at once but when asked (Settle), and at the latest before
// a player plays on: a checkpoint is a clone of the whole state, which at
// benchmark 5's scale takes longer than the step that calls for it, and
// the simulation's worker answers the page first. The checkpoints are the
// same, so going to any step plays what it played before.
func (s *Store) DeferCheckpoints() { s.lazyCP = true }

// Settle takes the checkpoint due (DeferCheckpoints), if any, and reports
// whether there was one.
func (s *Store) Settle() bool {
	due := s.due != nil
	s.takeDue()
	return due
}

// Due reports whether a checkpoint is due (Settle).
func (s *Store) Due() bool { return s.due != nil }

// takeDue clones the player of the checkpoint due, which stands on its
// step until it plays on (play takes it first), unless the checkpoints
// have moved past it since (commit cut them).
func (s *Store) takeDue() {
	d := s.due
	s.due = nil
	if d == nil || d.p.Pos() != d.step || d.step <= s.cps[len(s.cps)-1].step {
		return
	}
	d.p = s.clone(d.p)
	s.cps = append(s.cps, *d)
	s.fit(d.step)
}

// fit keeps the checkpoints after the start and near within
// checkpointShare times the objects of the furthest state. Going back,
// what serves is what lies before step at (the step the viewer goes to):
// first the newest checkpoints after at go, then the others are thinned
// (thin) leaving room for near, then near if a checkpoint newer than it
// is left. Else near and the newest are both kept, one clone beyond the
// share: near goes back a few steps at a time from the newest, which it
// would otherwise replay from the start to leave again (seconds at
// benchmark 5's scale). It never changes the checkpoints in place (they
// may be shared with a saved state).
func (s *Store) fit(at int) {
	limit := checkpointShare * s.furthest
	var nearObjects int64
	if s.near != nil {
		nearObjects = s.near.objects
	}
	total := func() int64 {
		n := nearObjects
		for _, c := range s.cps[1:] {
			n += c.objects
		}
		return n
	}
	for n := len(s.cps); n > 1 && s.cps[n-1].step > at && total() > limit; n-- {
		s.cps = s.cps[: n-1 : n-1] // an append copies: the array stays the saved state's
	}
	s.cps = thin(s.cps, limit-nearObjects)
	if s.near != nil && len(s.cps) > 1 && total() > limit && s.cps[len(s.cps)-1].step > s.near.step {
		s.near = nil
	}
}

// cloneFloor is about the objects a clone holds however small its
// scheduler: core's Clone copies requests, asks, containers and users
// into blocks of up to 8,192 each (some 2 MB natively), so that thousands
// of checkpoints of a small cluster, counted by their objects alone, held
// gigabytes (10,000 ticks of 10 nodes: 2.1 GB) before thin dropped any,
// and took one every few steps. Checkpoints are spaced and thinned by
// their objects and this floor (a variable so that tests of the spacing
// at small scale can drop it).
var cloneFloor int64 = 8192

// objects is about how many objects a clone of the player copies: queues,
// nodes, applications and live containers.
func objects(sched *core.Scheduler, rec record) int64 {
	c := sched.Counters()
	return int64(len(rec.paths)+sched.NumNodes()+rec.apps) + max(c.Allocations-c.Completed, 0)
}
