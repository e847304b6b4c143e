package core

import (
	"cmp"
	"testing"

	"github.com/stretchr/testify/require"
)

// hadoopPriorityCompare is PriorityUtilizationQueueOrderingPolicy.compare
// (Hadoop 3.3), transcribed as the reference the packed keys must agree
// with.
func hadoopPriorityCompare(used1, used2 float64, p1, p2 int) int {
	if p1 == p2 {
		return cmp.Compare(used1, used2)
	}
	if (used1 < 1 && used2 < 1) || (used1 >= 1 && used2 >= 1) {
		return cmp.Compare(p2, p1)
	}
	return cmp.Compare(used1, used2)
}

// TestPriorityUtilizationOrder holds Hadoop's outcomes of
// PriorityUtilizationQueueOrderingPolicy.compare (negative: the first
// queue goes first) and checks that the slot keys order every pair of
// children of a priority-utilization parent the same way.
func TestPriorityUtilizationOrder(t *testing.T) {
	tests := []struct {
		name         string
		used1, used2 float32
		p1, p2       int
		want         int
	}{
		{"same priority: less used first", 0.5, 0.2, 0, 0, 1},
		{"both under: higher priority first", 0.9, 0.1, 2, 1, -1},
		{"both over: higher priority first", 3.0, 1.0, 2, 1, -1},
		{"at the guarantee counts as over", 1.0, 1.5, 2, 1, -1},
		{"one under, one over: under first", 1.0, 0.99, 5, 0, 1},
		{"one under, one over: under first, the other way", 0.2, 4, 0, 5, -1},
		{"same priority, same use: tie", 0.5, 0.5, 3, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, hadoopPriorityCompare(float64(tc.used1), float64(tc.used2), tc.p1, tc.p2))
			// kPrio ranks higher priorities first: rank = 10 - priority here.
			k1 := slotKey(0, int32(10-tc.p1), tc.used1, 0)
			k2 := slotKey(0, int32(10-tc.p2), tc.used2, 0)
			require.Equal(t, tc.want, cmp.Compare(k1, k2))
		})
	}
	// Every pair of a grid of uses and priorities.
	uses := []float32{0, 0.25, 0.999, 1, 1.0000001, 2, 50}
	for _, u1 := range uses {
		for _, u2 := range uses {
			for p1 := 0; p1 < 3; p1++ {
				for p2 := 0; p2 < 3; p2++ {
					want := hadoopPriorityCompare(float64(u1), float64(u2), p1, p2)
					got := cmp.Compare(slotKey(0, int32(2-p1), u1, 0), slotKey(0, int32(2-p2), u2, 0))
					require.Equal(t, want, got, "used %v p%d against used %v p%d", u1, p1, u2, p2)
				}
			}
		}
	}
}
