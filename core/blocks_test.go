package core

import (
	"reflect"
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
	require.Zero(t, uintptr(unsafe.Pointer(a0))%64, "a block starts a cache line (layout_test.go)")
	require.Zero(t, uintptr(unsafe.Pointer(s.newContainer(a0, nil, resource.None, 0, ntNone)))%64, "so does a block of containers")
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

// TestNewContainerSetsEveryField reuses a container whose every field is
// set, and checks that newContainer leaves nothing of it.
func TestNewContainerSetsEveryField(t *testing.T) {
	s := oneLeaf(t)
	a, b := &app{}, &app{}
	n, m := &node{}, &node{}
	stale := &container{app: a, li: 7, size: resource.New(1, 2), node: n, id: 9, priority: 3, end: 11,
		isAM: true, reserved: true, locality: ntRackLocal, start: 5}
	v := reflect.ValueOf(stale).Elem()
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; name != "_" {
			require.False(t, v.Field(i).IsZero(), "the stale container sets %s", name)
		}
	}
	s.free = append(s.free, stale)
	s.nextID, s.now = 42, 17
	c := s.newContainer(b, m, resource.New(4096, 1), 2, ntNodeLocal)
	require.Same(t, stale, c, "the kept container is reused")
	require.Equal(t, container{app: b, size: resource.New(4096, 1), node: m, id: 42, priority: 2,
		locality: ntNodeLocal, start: 17}, *c)
}
