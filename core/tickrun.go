package core

// TickRun is a tick played in parts, so that the caller can do other work
// between the parts (the playground lets the browser paint): BeginTick,
// then Step until it reports the tick done. A tick played in parts makes
// exactly the decisions of Tick, which is one TickRun played at once.
// Nothing else may change the scheduler until the run is done.
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
	s.monitor()
	return true
}

// Remaining is the number of nodes still to heartbeat in this tick.
func (t *TickRun) Remaining() int { return len(t.nodes) - t.next }

// warmAhead is how many nodes a tick reads ahead of their heartbeats
// (warm): 8, 16, 32 and 64 did alike at 10,000 and 50,000 nodes.
const warmAhead = 32

// warm reads what the completions of the nodes about to heartbeat will
// touch: each node, its lists of containers and of end ticks, the
// container it hints ends first (nextC), that container's application and
// the application's slot for it. At 10,000 nodes and more these are out of
// cache by a node's next heartbeat; read inside the heartbeat, one miss
// waits for the one before (the node, then the container, then its
// application, then the slot) while the heartbeat's work waits for them.
// Read here, warmAhead nodes at a time in loops whose turns do not depend
// on each other, the misses of many nodes are outstanding at once, and the
// heartbeats find the lines in cache. The first loop reads the nodes (in
// order, which the processor prefetches) and their lists, the second the
// hinted containers, the third their applications and the slots, so that
// a turn waits for no load of its own but the application's.
//
// It changes nothing but s.warmth, a sum of what it read that keeps the
// loads from being dropped as unused. The hints may be stale (the
// container completed early, or was reused): they are only read.
func (s *Scheduler) warm(ns []*node) {
	now := s.now
	var sum int64
	var cs [warmAhead]*container
	k := 0
	for _, n := range ns {
		if n.nextEnd == 0 || n.nextEnd > now {
			continue
		}
		// A line of a list is 16 ends or 8 containers; the last element
		// reaches the line a list that starts mid-line ends in.
		ends := n.ends
		for i := 0; i < len(ends); i += 16 {
			sum += int64(ends[i])
		}
		if len(ends) > 0 {
			sum += int64(ends[len(ends)-1])
		}
		list := n.containers
		for i := 0; i < len(list); i += 8 {
			if list[i] != nil {
				sum++
			}
		}
		if len(list) > 0 && list[len(list)-1] != nil {
			sum++
		}
		if c := n.nextC; c != nil && k < len(cs) {
			cs[k] = c
			k++
		}
	}
	var as [warmAhead]*app
	for i, c := range cs[:k] {
		as[i] = c.app
	}
	for i, a := range as[:k] {
		if a == nil {
			continue
		}
		// Completing reads three of the application's four lines:
		// queue, live and consumption are one in each.
		sum += int64(a.nlive) + a.consumption.MemoryMB
		if a.queue != nil {
			sum++
		}
		if li := cs[i].li; uint(li) < uint(len(a.live)) && a.live[li] != nil {
			sum++
		}
	}
	s.warmth += sum
}
