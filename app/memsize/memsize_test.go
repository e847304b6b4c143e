package memsize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type node struct {
	name string
	next *node
	vals []int64
}

// Each byte is counted once, however many values reach it: a slice and
// its sub-slices, a pointer into a block, a cycle; what another value
// added before reaches is not counted again.
func TestCounterCountsEachByteOnce(t *testing.T) {
	block := make([]int64, 100)
	var c Counter
	require.Equal(t, int64(800), c.Add(block))
	require.Zero(t, c.Add(block[10:20]), "a sub-slice of a block counted")
	require.Zero(t, c.Add(&block[5]), "a pointer into it")

	var n Counter
	a := &node{name: "abcd", vals: make([]int64, 4, 8)}
	b := &node{name: "efgh", next: a}
	a.next = b // a cycle
	size := int64(2*sizeOfNode + 4 + 4 + 8*8)
	require.Equal(t, size, n.Add(a))
	require.Zero(t, n.Add(b), "reached already")
	require.Equal(t, size, n.Bytes())

	var m Counter
	got := m.Add(map[int64]int64{1: 1, 2: 2})
	require.Greater(t, got, int64(2*16), "a map's entries at least")
	require.Zero(t, m.Add(nil))
}

const sizeOfNode = 16 + 8 + 24

// A long chain of pointers is walked without recursion: under
// WebAssembly a recursive walk of benchmark 5's state overflowed the
// browser's stack.
func TestCounterWalksALongChain(t *testing.T) {
	var head *node
	for range 200_000 {
		head = &node{next: head}
	}
	var c Counter
	require.Equal(t, int64(200_000*sizeOfNode), c.Add(head))
}
