package scenarios

import (
	"fmt"

	"yarnplay/core"
)

// PlayerCloner copies a player in steps, so that a large copy can be
// spread over several tasks of a page (Player.BeginClone): the scheduler's
// copy is made by a core.Cloner, whose Step budget it shares. The player
// must not change until the copy is done (no Next, Rebase, SetNarrate, and
// nothing that changes its scheduler); if it does, the next Step reports an
// error that wraps core.ErrCloneSourceChanged. Reading the player between
// steps is fine.
type PlayerCloner struct {
	src  *Player
	dst  *Player
	sc   *core.Cloner
	mark playerMark
	err  error
}

// playerMark is what changes when a player does, besides its scheduler.
type playerMark struct {
	sc      *Scenario
	pos     int
	narrate bool
}

func (p *Player) mark() playerMark { return playerMark{sc: p.sc, pos: p.pos, narrate: p.narrate} }

// BeginClone starts a copy of the player made in steps (PlayerCloner.Step).
// It copies the player's own state, which is small, at once; the
// scheduler's copy is made by the steps. Clone is BeginClone and one
// unbounded Step.
func (p *Player) BeginClone() *PlayerCloner {
	c := *p
	c.s = nil
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
	return &PlayerCloner{src: p, dst: &c, sc: p.s.BeginClone(), mark: p.mark()}
}

// Step copies about budget more objects of the scheduler (0 or less: all
// that remain; see core.Cloner.Step) and reports whether the copy has
// finished, successfully or not. It returns an error wrapping
// core.ErrCloneSourceChanged, now and at every later Step, if the player
// or its scheduler changed since BeginClone.
func (c *PlayerCloner) Step(budget int) (bool, error) {
	if c.err != nil {
		return true, c.err
	}
	if c.src != nil && c.src.mark() != c.mark {
		c.fail(fmt.Errorf("the player changed while it was being cloned: %w", core.ErrCloneSourceChanged))
		return true, c.err
	}
	done, err := c.sc.Step(budget)
	if err != nil {
		c.fail(fmt.Errorf("cloning the player: %w", err))
		return true, c.err
	}
	if done && c.src != nil {
		c.dst.s, err = c.sc.Scheduler()
		if err != nil { // cannot happen: the scheduler's copy is done
			c.fail(err)
			return true, c.err
		}
		c.src = nil
	}
	return done, nil
}

func (c *PlayerCloner) fail(err error) {
	c.err, c.src, c.dst = err, nil, nil
}

// Player returns the finished copy, core.ErrCloneUnfinished before the
// last Step, or the error Step reported.
func (c *PlayerCloner) Player() (*Player, error) {
	if c.err != nil {
		return nil, c.err
	}
	if c.src != nil {
		return nil, core.ErrCloneUnfinished
	}
	return c.dst, nil
}

// Copied is the number of the scheduler's objects copied so far.
func (c *PlayerCloner) Copied() int { return c.sc.Copied() }

// CloneInSteps clones the player with BeginClone and Steps of budget
// objects until done (Clone is CloneInSteps(0)): the same copy, made the
// way a caller that pauses between steps makes it.
func (p *Player) CloneInSteps(budget int) (*Player, error) {
	c := p.BeginClone()
	for {
		done, err := c.Step(budget)
		if err != nil {
			return nil, err
		}
		if done {
			return c.Player()
		}
	}
}
