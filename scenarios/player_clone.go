package scenarios

import "yarnplay/core"

// Clone returns an independent copy of the player at the same step, for
// checkpoints. The scenario is shared and must not change while either is
// used.
func (p *Player) Clone() *Player {
	c := *p
	c.s = p.s.Clone()
	c.lastAllocs = append([]core.Event(nil), p.lastAllocs...)
	if p.totals != nil {
		c.totals = make(map[string]*[2]int, len(p.totals))
		for k, v := range p.totals {
			t := *v
			c.totals[k] = &t
		}
	}
	if p.pstate != nil {
		c.pstate = p.pstate.Clone()
	}
	// The snapshot and the last decision are replaced, never changed in
	// place, by later steps: sharing them is safe.
	return &c
}
