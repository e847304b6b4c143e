package core

// warmAhead is how many nodes a tick reads ahead of their heartbeats
// (warm): 8, 16, 32 and 64 did alike at 10,000 and 50,000 nodes.
const warmAhead = 32

// warm reads what the completions of the nodes about to heartbeat will
// touch: each node, its lists of containers and of end ticks, the
// container it hints ends first (nextC), that container's application and
// the application's slot for it. It has no counterpart in Hadoop: it only
// reads memory early.
//
// At 10,000 nodes and more these are out of cache by a node's next
// heartbeat; read inside the heartbeat, one miss waits for the one before
// (the node, then the container, then its application, then the slot)
// while the heartbeat's work waits for them. Read here, warmAhead nodes at
// a time in loops whose turns do not depend on each other, the misses of
// many nodes are outstanding at once. It is the one memory trick the core
// keeps: measured tick by tick (bench/results/log.md, step 41), ticks of
// benchmark 1 took 13 to 16% less CPU time with it.
//
// It changes nothing but s.warmth, a sum of what it read that keeps the
// loads from being dropped as unused. The hints may be stale (the
// container completed early): they are only read.
func (s *Scheduler) warm(ns []*node) {
	now := s.now
	var sum int64
	var cs [warmAhead]*container
	k := 0
	for _, n := range ns {
		if n.nextEnd == 0 || n.nextEnd > now {
			continue
		}
		// A cache line holds 8 ends or 8 containers; the last element
		// reaches the line a list that starts mid-line ends in.
		ends := n.ends
		for i := 0; i < len(ends); i += 8 {
			sum += ends[i]
		}
		if len(ends) > 0 {
			sum += ends[len(ends)-1]
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
		// What completing reads of the application: its queue, its live
		// list and its consumption.
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
