package store

import "yarnplay/scenarios/why"

// WhyRounds is how many ticks (every node heartbeating once) the answer to
// "why is this application waiting?" plays ahead of the step shown.
const WhyRounds = 1

// Why says, for every application that waits at the step shown (pending,
// accepted without its AM, not runnable, or running with asks not met),
// the check that stops it in the next WhyRounds ticks, played on a copy of
// the scheduler: the scenario and the step are unchanged. It is
// yarnplay-why's answer (package why), in the order of the frame's Apps.
func (s *Store) Why() []why.Verdict {
	if s.cur == nil {
		return nil
	}
	return why.Explain(s.cur.Scheduler(), WhyRounds)
}
