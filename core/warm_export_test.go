package core

// Warm reads ahead for every node, as ticks do (warm), and returns how
// much the reading summed and how many of the nodes it read hinted a
// container that is no longer among theirs (completed early).
func Warm(s *Scheduler) (sum int64, stale int) {
	before := s.warmth
	for i := 0; i < len(s.nodes); i += warmAhead {
		s.warm(s.nodes[i:min(i+warmAhead, len(s.nodes))])
	}
	for _, n := range s.nodes {
		if c := n.nextC; c != nil && n.nextEnd != 0 && n.nextEnd <= s.now && (c.node != n || c.app == nil || c.li >= len(c.app.live) || c.app.live[c.li] != c) {
			stale++
		}
	}
	return s.warmth - before, stale
}
