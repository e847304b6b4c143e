package core

// RecordLevel says how much of the decision record the scheduler keeps.
// Scheduling does not depend on it: every level makes the same decisions
// (a test holds the visible state of random workloads to the same golden
// hashes at every level); only what TakeEvents returns differs.
type RecordLevel uint8

// Recording levels. The zero value, RecordFull, is the default.
const (
	// RecordFull keeps every event: the walk of each heartbeat (queue
	// visits and skips, child orders, apps considered and skipped) as well
	// as every change of state. The playground narrates it.
	RecordFull RecordLevel = iota
	// RecordDecisions keeps the changes of state (allocations,
	// reservations, completions, application and queue lifecycle, requests,
	// nodes, refreshes, preemption, ticks) and drops the walk: the events
	// of kinds EvHeartbeat, EvAssignPass, EvHeartbeatDone, EvQueueVisit,
	// EvQueueSkipped, EvChildOrder, EvAppConsidered and EvAppSkipped.
	RecordDecisions
	// RecordNone keeps nothing: TakeEvents returns nil. For large
	// simulations whose results are read from the views and Counters.
	RecordNone
)

// SetRecord sets how much of the decision record is kept from now on.
func (s *Scheduler) SetRecord(l RecordLevel) { s.rec = l }

// Record returns the recording level in force.
func (s *Scheduler) Record() RecordLevel { return s.rec }

// Counters are running totals of what the scheduler did since it was
// created, whatever the recording level.
type Counters struct {
	Heartbeats   int64 // node heartbeats processed
	Allocations  int64 // new containers, reservations fulfilled included
	Reservations int64 // new reservations
	Completed    int64 // containers that completed, were released, lost or preempted
}

// Counters returns the running totals.
func (s *Scheduler) Counters() Counters { return s.count }
