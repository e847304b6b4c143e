package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// The step's label says what kind of step it is: a scenario action, a
// heartbeat of one node, a tick of all nodes, or a check.
func TestLabelSaysTheKindOfStep(t *testing.T) {
	one, two := 1, 2
	for _, tc := range []struct {
		step scenarios.Step
		want string
	}{
		{scenarios.Step{Submit: &scenarios.Submit{App: "a1", User: "u", Queue: "q"}}, "scenario action: u submits a1 to q (no AM)"},
		{scenarios.Step{Heartbeat: []scenarios.HeartbeatSpec{{Node: "n7"}}}, "heartbeat of n7"},
		{scenarios.Step{Tick: &one}, "tick of all nodes: every node heartbeats once"},
		{scenarios.Step{Tick: &two}, "2 ticks of all nodes: every node heartbeats 2 times"},
		{scenarios.Step{Expect: &scenarios.Expect{}}, "check: the scenario's expectations"},
	} {
		require.Equal(t, tc.want, kindWords(&tc.step)+Describe(&tc.step))
	}
}
