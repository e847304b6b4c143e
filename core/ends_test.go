package core

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// Containers that end past tick 2,147,483,647 (the 32-bit range)
// complete on time, and so do the others beside them.
func TestContainersEndingPastTheEndsRangeCompleteOnTime(t *testing.T) {
	start := int64(math.MaxInt32 - 3)
	tests := []struct {
		name      string
		durations []int64 // of the containers on the one node, in that order
	}{
		{"one ending past the range", []int64{10}},
		{"one before, one past", []int64{2, 6}},
		{"one past, one before", []int64{6, 2}},
		{"one at the range's edge, one past", []int64{3, 4, 5}},
		{"one without an end", []int64{0, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(config.FromMap(map[string]string{"yarn.scheduler.capacity.root.queues": "default", "yarn.scheduler.capacity.root.default.capacity": "100"}), config.Hadoop3)
			require.NoError(t, err)
			require.NoError(t, s.AddNode(NodeSpec{Name: "n1", Capacity: resource.New(64*1024, 64)}))
			s.now = start
			for i, d := range tt.durations {
				app := string(rune('a' + i))
				require.NoError(t, s.Submit(Submission{App: app, User: "u", Queue: "default"}))
				require.NoError(t, s.Request([]Ask{{App: app, Priority: 1, Resource: resource.New(1024, 1), Count: 1, Locality: AnyLocation, Duration: d}}))
				s.Tick()
			}
			want := map[int64]int64{} // container id: its end
			v, ok := s.Node("n1")
			require.True(t, ok)
			require.Len(t, v.Containers, len(tt.durations))
			for _, c := range v.Containers {
				want[c.ID] = c.EndTick
			}
			for range 20 {
				s.Tick()
				require.NoError(t, s.CheckInvariants())
				v, _ := s.Node("n1")
				live := map[int64]bool{}
				for _, c := range v.Containers {
					live[c.ID] = true
				}
				for id, end := range want {
					// A container ending at tick e completes in the tick
					// that starts at e.
					require.Equalf(t, end == 0 || s.now <= end, live[id], "container %d ending at %d, now %d", id, end, s.now)
				}
			}
		})
	}
}
