package preemption

import (
	"maps"
	"slices"
)

// State is what the policy remembers between rounds: the containers it has
// asked applications to give back, with the time each was first selected
// (ProportionalCapacityPreemptionPolicy.preemptionCandidates). The zero value
// is not usable; call NewState.
type State struct {
	firstSelected map[ContainerID]int64
}

// NewState returns an empty State.
func NewState() *State { return &State{firstSelected: map[ContainerID]int64{}} }

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := NewState()
	for id, t := range s.firstSelected {
		c.firstSelected[id] = t
	}
	return c
}

// Candidate is one remembered preemption candidate.
type Candidate struct {
	// ID is the container.
	ID ContainerID
	// FirstSelectedMS is the time of the round that first marked it.
	FirstSelectedMS int64
}

// Candidates returns the remembered candidates ordered by container id.
func (s *State) Candidates() []Candidate {
	ids := slices.Sorted(maps.Keys(s.firstSelected))
	out := make([]Candidate, len(ids))
	for i, id := range ids {
		out[i] = Candidate{ID: id, FirstSelectedMS: s.firstSelected[id]}
	}
	return out
}

// FirstSelected returns when id was first selected, and whether it is
// remembered at all.
func (s *State) FirstSelected(id ContainerID) (int64, bool) {
	t, ok := s.firstSelected[id]
	return t, ok
}

// Forget drops a container from the state (for a caller whose container
// finished; Hadoop instead lets stale entries expire, see Round).
func (s *State) Forget(id ContainerID) { delete(s.firstSelected, id) }

// Len returns how many candidates are remembered.
func (s *State) Len() int { return len(s.firstSelected) }
