package core

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFairCompare holds FairOrderingPolicy's comparator (Hadoop 3.3):
// magnitude (used memory, over log2(1 + demand) with size-based weight),
// then start time, then demand before none, then application id.
func TestFairCompare(t *testing.T) {
	a := &app{id: "a", start: 1, seq: 1}
	b := &app{id: "b", start: 2, seq: 2}
	tests := []struct {
		name      string
		ka, kb    fairKey
		sizeBased bool
		want      int
	}{
		{"less used first", fairKey{used: 2048}, fairKey{used: 1024}, false, 1},
		{"equal use: earlier start first", fairKey{used: 1024}, fairKey{used: 1024}, false, -1},
		{"both unused: start", fairKey{}, fairKey{pending: 4096}, false, -1},
		// 4096 / log2(1 + 4096 + 12288) = 4096 / 14.0 = 292.6;
		// 2048 / log2(1 + 2048) = 2048 / 11.0 = 186.1: b first.
		{"size-based: a large demand weighs", fairKey{used: 4096, pending: 12288}, fairKey{used: 2048}, true, 1},
		// 8192 / log2(1 + 8192 + 1048576) = 8192 / 20.0 = 409.5;
		// 1024 / log2(1 + 1024) = 1024 / 10.0 = 102.3: b first still.
		{"size-based: demand does not outweigh 8x use", fairKey{used: 8192, pending: 1048576}, fairKey{used: 1024}, true, 1},
		// 0/0 is NaN: Math.signum(NaN) cast to int is 0, and start decides.
		{"size-based: NaN magnitude ties", fairKey{}, fairKey{used: 0, pending: 0}, true, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, fairCompare(a, tc.ka, b, tc.kb, tc.sizeBased))
		})
	}
	require.InDelta(t, 4096/(math.Log1p(16384)/math.Log(2)), fairMagnitude(fairKey{used: 4096, pending: 12288}, true), 1e-9)
	same := &app{id: "c", start: 1, seq: 3}
	require.Equal(t, 1, fairCompare(a, fairKey{}, same, fairKey{pending: 1}, false), "same start: demand first")
	require.Equal(t, -1, fairCompare(a, fairKey{pending: 1}, same, fairKey{pending: 1}, false), "then application id")
}
