package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
)

func TestAJumpIsMoreThanAStep(t *testing.T) {
	at := func(step int) *store.Frame { return &store.Frame{Step: step} }
	for _, c := range []struct {
		name string
		was  *store.Frame
		f    *store.Frame
		jump bool
	}{
		{"the first frame", nil, at(0), true},
		{"the same step again", at(5), at(5), false},
		{"a step forward", at(5), at(6), false},
		{"a step back", at(5), at(4), false},
		{"two steps forward", at(5), at(7), true},
		{"two steps back", at(5), at(3), true},
		{"End", at(0), at(20000), true},
		{"Home", at(20000), at(0), true},
	} {
		require.Equal(t, c.jump, isJump(c.was, c.f), c.name)
	}
}

func TestCollectingIsWorthItOnceTheGarbageIsTheLiveHeap(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name          string
		live, objects float64
		worth         bool
	}{
		{"no garbage", 15 * mb, 15 * mb, false},
		{"less garbage than live", 15 * mb, 29 * mb, false},
		{"as much garbage as live", 15 * mb, 30 * mb, true},
		{"the heap after a jump", 7 * mb, 32 * mb, true},
		{"a small heap, under 4 MB of garbage", 1 * mb, 4 * mb, false},
		{"a small heap, 4 MB of garbage", 1 * mb, 5 * mb, true},
		{"nothing known of the last collection", 0, 33 * mb, true},
	} {
		require.Equal(t, c.worth, worthCollecting(c.live, c.objects), c.name)
	}
}
