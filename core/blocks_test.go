package core

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// oneLeaf is a scheduler of one leaf, default, with the whole cluster.
func oneLeaf(t *testing.T) *Scheduler {
	t.Helper()
	s, err := New(config.FromMap(map[string]string{
		"yarn.scheduler.capacity.root.queues":           "default",
		"yarn.scheduler.capacity.root.default.capacity": "100",
	}), config.Hadoop3)
	require.NoError(t, err)
	return s
}

// TestObjectsAreCutFromBlocks holds what allocBlocks is for: applications
// submitted one after another lie side by side (one allocation for many),
// each block starting a cache line, and a clone cuts its own from blocks
// of its own, never the source's.
func TestObjectsAreCutFromBlocks(t *testing.T) {
	s := oneLeaf(t)
	submit := func(s *Scheduler, id string) *app {
		t.Helper()
		am := resource.New(1024, 1)
		require.NoError(t, s.Submit(Submission{App: id, User: "u", Queue: "default", AM: &am}))
		return s.apps[len(s.apps)-1]
	}
	a0, a1 := submit(s, "a0"), submit(s, "a1")
	require.Zero(t, uintptr(unsafe.Pointer(a0))%64, "a block starts a cache line")
	require.Equal(t, uintptr(unsafe.Pointer(a0))+unsafe.Sizeof(app{}), uintptr(unsafe.Pointer(a1)),
		"the second application is cut right after the first")

	c := s.Clone()
	from, to := uintptr(unsafe.Pointer(a0)), uintptr(unsafe.Pointer(a0))+appBlock*unsafe.Sizeof(app{})
	for i := range appBlock {
		id := "b" + strconv.Itoa(i)
		for _, sched := range []*Scheduler{s, c} {
			a := submit(sched, id)
			at := uintptr(unsafe.Pointer(a))
			if sched == c {
				require.False(t, at >= from && at < to, "the clone's application %s is cut from the source's block", id)
			}
		}
	}
}
