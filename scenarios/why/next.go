package why

import "yarnplay/core"

// Next plays rounds rounds of heartbeats (every node once per round, as a
// tick) on a copy of s, recording every decision, and returns the state
// before them and their events: Analyze's input. s is not changed.
func Next(s *core.Scheduler, rounds int) (State, []core.Event) {
	st := StateOf(s)
	c := s.Clone()
	c.SetRecord(core.RecordFull)
	c.TakeEvents()
	var events []core.Event
	for range rounds {
		c.Tick()
		events = append(events, c.TakeEvents()...)
	}
	return st, events
}

// Explain is Analyze on the next rounds rounds of heartbeats of s.
func Explain(s *core.Scheduler, rounds int) []Verdict {
	st, events := Next(s, rounds)
	return Analyze(st, events)
}
