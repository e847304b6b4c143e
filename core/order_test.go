package core

import (
	"cmp"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
)

// TestSlotKeysOrderAsTheirParts checks that comparing packed keys is
// comparing group, then used capacity, then tie rank, over every pair of
// a set of keys with the used capacities a queue can have (0, tiny, equal,
// over its guarantee, infinite for a queue without one).
func TestSlotKeysOrderAsTheirParts(t *testing.T) {
	type parts struct {
		group uint8
		used  float32
		tie   int32
	}
	var all []parts
	for _, g := range []uint8{0, 1} {
		for _, u := range []float32{0, math.SmallestNonzeroFloat32, 0.1, 0.1000001, 1, 1.5, 1e30, float32(math.Inf(1))} {
			for _, tie := range []int32{0, 1, 9, config.MaxQueues} {
				all = append(all, parts{g, u, tie})
			}
		}
	}
	for _, a := range all {
		for _, b := range all {
			want := cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.used, b.used), cmp.Compare(a.tie, b.tie))
			got := cmp.Compare(slotKey(a.group, 0, a.used, a.tie), slotKey(b.group, 0, b.used, b.tie))
			require.Equal(t, want, got, "%+v against %+v", a, b)
		}
	}
	require.Equal(t, slotKey(0, 0, 0, 3), slotKey(0, 0, float32(math.Copysign(0, -1)), 3), "-0 is 0")
}
