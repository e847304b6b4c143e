package store

import "yarnplay/scenarios"

// Going to a step: from the nearest checkpoint, or the current player when
// it stands before the step, the steps are played up to it. Jump does it
// at once; JumpPart a part at a time (a checkpoint's clone, or one step),
// so that the simulation's worker can rebuild the state of a step the
// page was shown from a kept frame while it answers the page in between.
// Both go through seekPart, the one way there.

// going is a move to step k of doc under way: p plays toward it, and
// mark is where it leaves a checkpoint near (nearMark), -1 for none.
type going struct {
	k    int
	doc  *scenarios.Scenario
	p    *scenarios.Player
	mark int
}

// seek stands the store on step k (0 <= k <= len(steps)), replaying from
// the nearest checkpoint or the current player, and recording every step
// played for the first time.
func (s *Store) seek(k int) {
	for !s.seekPart(k, true) {
	}
}

// JumpPart does a part of Jump(k): a clone of the checkpoint it plays
// from, or one step played. The store stands where it stood, and its
// frame stays, until the last part, which stands it on k and publishes
// its frame as Jump does; it reports whether that was done. The parts go
// on from where the last left off while k and the work are the same,
// whatever else is asked of the store in between (another move finishes
// or drops them). It never plays the current player on: that one stays
// the state of the step the store stands on.
func (s *Store) JumpPart(k int) bool {
	k = min(max(k, 0), len(s.doc.Steps))
	if !s.seekPart(k, false) {
		return false
	}
	s.err = ""
	s.publish()
	return true
}

// seekPart does a part of seek(k) and reports whether the store stands on
// k. With reuse, the current player plays on to k when it stands before
// it (seek is then done in one go).
func (s *Store) seekPart(k int, reuse bool) bool {
	if s.cur != nil && s.step == k {
		s.going = nil
		return true
	}
	if k == 0 {
		p := s.clone(s.cps[0].p)
		p.Rebase(s.doc)
		p.SetNarrate(true)
		s.cur, s.res, s.step, s.going = p, p.Start(), 0, nil
		if len(s.recs) == 0 {
			s.record(p, s.res, false)
		}
		return true
	}
	g := s.going
	if g == nil || g.k != k || g.doc != s.doc {
		g = &going{k: k, doc: s.doc, mark: -1}
		i := len(s.cps) - 1
		for i > 0 && s.cps[i].step > k-1 {
			i--
		}
		cp := s.cps[i]
		if s.near != nil && s.near.step > cp.step && s.near.step <= k-1 {
			cp = *s.near
		}
		if reuse && s.cur != nil && s.cur.Pos() >= cp.step && s.cur.Pos() <= k-1 {
			g.p = s.cur
		} else {
			if s.cur != nil {
				g.mark = s.nearMark(cp.step, k-1, objects(s.cur.Scheduler(), s.recs[s.cur.Pos()]))
			}
			g.p = s.clone(cp.p)
			g.p.Rebase(s.doc)
		}
		s.going = g
		if g.p != s.cur {
			return false // the clone was the part
		}
	}
	p := g.p
	if p.Pos() < k-1 {
		if p.Pos() == g.mark {
			s.near = &checkpoint{step: g.mark, p: s.clone(p), objects: objects(p.Scheduler(), s.recs[g.mark]) + cloneFloor}
			s.fit(k)
		}
		s.play(p, false)
		return false
	}
	res := s.play(p, true)
	s.cur, s.res, s.step, s.going = p, res, k, nil
	return true
}
