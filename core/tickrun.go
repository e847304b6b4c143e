package core

// TickRun is a tick played in parts, so that the caller can do other work
// between the parts ("why is this app waiting?", scenarios/why, reads each
// part's events and lets them go instead of holding a whole tick's at
// 10,000 nodes): BeginTick, then Step until it reports the tick done. A
// tick played in parts makes exactly the decisions of Tick, which is one
// TickRun played at once. Nothing else may change the scheduler until the
// run is done.
type TickRun struct {
	s     *Scheduler
	nodes []*node
	next  int
	done  bool
}

// BeginTick starts a tick: every node registered now heartbeats once, in
// registration order, then simulated time advances one tick.
func (s *Scheduler) BeginTick() *TickRun {
	return &TickRun{s: s, nodes: append([]*node(nil), s.nodes...)}
}

// Step makes up to n more nodes heartbeat, in order; once every node has,
// it ends the tick (time advances one tick and the preemption monitor runs
// when its interval has passed) and reports true. Steps after that do
// nothing.
func (t *TickRun) Step(n int) bool {
	if t.done {
		return true
	}
	for ; n > 0 && t.next < len(t.nodes); n-- {
		if t.next%warmAhead == 0 {
			t.s.warm(t.nodes[t.next:min(t.next+warmAhead, len(t.nodes))])
		}
		t.s.heartbeat(t.nodes[t.next])
		t.next++
	}
	if t.next < len(t.nodes) {
		return false
	}
	t.done = true
	s := t.s
	s.now++
	s.emit(Event{Kind: EvTick, Seq: int(s.now)})
	s.manageAutoCreatedLeaves()
	s.deleteExpiredQueues()
	s.monitor()
	return true
}

// Remaining is the number of nodes still to heartbeat in this tick.
func (t *TickRun) Remaining() int { return len(t.nodes) - t.next }
