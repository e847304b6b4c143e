package store

import "yarnplay/app/memsize"

// Memory is what the store holds, in bytes, as memsize counts them (each
// byte once): State is one state of the scheduler, the player the viewer
// stands on (its scenario apart); History is what the store keeps to
// travel in time beyond that state, the scenario and the frame shown:
// checkpoints, the record of every step and the usage history's points.
type Memory struct {
	State   int64 `json:"state"`
	History int64 `json:"history"`
	// Going is a state being rebuilt part by part (JumpPart), which
	// replaces State once done: apart from both.
	Going int64 `json:"going,omitempty"`
}

// Measure counts the store's memory into c: the scenario, the current
// state and its frame first (what any store holds), then its history.
// Other things that belong to the history (the frames a server keeps) can
// then be added to c, and counted as history too. It walks the whole state
// (about a second natively at benchmark 5's scale): it is for benchmarks
// and tests, not for every step.
func (s *Store) Measure(c *memsize.Counter) Memory {
	c.Add(s.doc)
	c.Add(s.origin)
	var m Memory
	m.State = c.Add(s.cur)
	c.Add(s.frame)
	c.Add(s.views)
	c.Add(s.spare.cs)
	c.Add(s.spare.apps)
	m.History = c.Add(s.cps) + c.Add(s.near) + c.Add(s.recs) + c.Add(s.hist)
	m.Going = c.Add(s.going)
	return m
}

// Played counts the steps the store has played since it was made, replays
// included: what going to a step cost, in steps, the same on every
// machine (the benchmarks read it).
func (s *Store) Played() int { return s.played }
