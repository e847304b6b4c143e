package scenarios

// SetPause makes the player call pause every `every` node heartbeats
// within a step (heartbeat and tick steps), so that a caller can let other
// work run while a big step plays: the playground yields to the browser
// there. pause must not change the player or its scheduler; the step makes
// the same decisions as without it. A nil pause (or every < 1) turns
// pausing off.
func (p *Player) SetPause(every int, pause func()) {
	if every < 1 {
		pause = nil
	}
	p.pause, p.pauseEvery = pause, every
}

// tick plays one tick, in parts of pauseEvery heartbeats with a pause
// between them when pausing is on.
func (p *Player) tick() {
	if p.pause == nil {
		p.s.Tick()
		return
	}
	run := p.s.BeginTick()
	for !run.Step(p.pauseEvery) {
		p.pause()
	}
}
