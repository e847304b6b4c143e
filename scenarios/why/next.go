package why

import "yarnplay/core"

// Next plays rounds rounds of heartbeats (every node once per round, as a
// tick) on a copy of s, recording every decision, and returns the state
// before them and their events: Analyze's input. s is not changed. For a
// large cluster prefer Explain, which does not keep the events.
func Next(s *core.Scheduler, rounds int) (State, []core.Event) {
	st := StateOf(s)
	var events []core.Event
	play(s.Clone(), rounds, func(ev []core.Event) { events = append(events, ev...) })
	return st, events
}

// Explain is Analyze on the next rounds rounds of heartbeats of s, played
// on a copy; the events are read as they come, a few hundred nodes at a
// time, and not kept.
func Explain(s *core.Scheduler, rounds int) []Verdict {
	z := NewAnalyzer(StateOf(s))
	play(s.Clone(), rounds, z.Add)
	return z.Verdicts()
}

// play makes c heartbeat rounds rounds, recording in full, and hands the
// events to take as they come.
func play(c *core.Scheduler, rounds int, take func([]core.Event)) {
	c.SetRecord(core.RecordFull)
	c.TakeEvents()
	for range rounds {
		run := c.BeginTick()
		for !run.Step(256) {
			take(c.TakeEvents())
		}
		take(c.TakeEvents())
	}
}
