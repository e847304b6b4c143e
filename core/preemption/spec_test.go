package preemption

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

func leafSpec(capPct float64, used, pending, size int64, apps int) QueueSpec {
	return QueueSpec{
		Capacity: Percent(capPct), MaximumCapacity: Percent(100),
		Used: resource.New(used, used), Pending: resource.New(pending, pending),
		ContainerSize: resource.New(size, size), Apps: apps,
	}
}

func TestFromSpecBuildsTheMockShape(t *testing.T) {
	spec := SnapshotSpec{Cluster: resource.New(100, 100), Queues: map[string]QueueSpec{
		"root.b":   leafSpec(60, 0, 5, 1, 0),
		"root.a.x": leafSpec(50, 7, 0, 1, 3),
		"root.a.y": leafSpec(50, 4, 2, 2, 1),
		"root.a":   {Capacity: Percent(40), MaximumCapacity: Percent(80)},
	}}
	snap, err := FromSpec(spec)
	require.NoError(t, err)
	require.NoError(t, Validate(snap))
	root := snap.Root
	require.Equal(t, "root", root.Path)
	require.Equal(t, resource.New(100, 100), root.Guaranteed)
	require.Len(t, root.Children, 2)
	a, b := root.Children[0], root.Children[1]
	require.Equal(t, "root.a", a.Path)
	require.Equal(t, "root.b", b.Path)
	require.Equal(t, resource.New(40, 40), a.Guaranteed)
	require.Equal(t, resource.New(80, 80), a.Max)
	require.Equal(t, resource.New(11, 11), a.Used, "a parent's used is its children's")
	x := a.Children[0]
	require.Equal(t, resource.New(20, 20), x.Guaranteed)
	require.Equal(t, resource.New(80, 80), x.Max)
	// 7 containers over 3 apps: ceil(7/3) = 3, 3, 1 (the mock's dealing).
	require.Len(t, x.Apps, 3)
	require.Equal(t, []int{3, 3, 1}, []int{len(x.Apps[0].Containers), len(x.Apps[1].Containers), len(x.Apps[2].Containers)})
	require.Equal(t, "app_1", x.Apps[0].ID)
	require.Equal(t, ContainerID(1), x.Apps[0].Containers[0].ID)
	y := a.Children[1]
	require.Equal(t, "app_4", y.Apps[0].ID)
	require.Len(t, y.Apps[0].Containers, 2)
	require.Equal(t, ContainerID(8), y.Apps[0].Containers[0].ID)
	require.Empty(t, b.Apps)
}

func TestFromSpecFloatCapacities(t *testing.T) {
	// CS arithmetic: 70% of 20480 is (long)(20480 x 0.7f) = 14335.
	spec := SnapshotSpec{Cluster: resource.New(20480, 20), Queues: map[string]QueueSpec{
		"root.a": {Capacity: Percent(70)},
		"root.b": {Capacity: Percent(30)},
	}}
	snap, err := FromSpec(spec)
	require.NoError(t, err)
	require.Equal(t, resource.New(14335, 13), snap.Root.Children[0].Guaranteed)
	require.Equal(t, resource.New(20480, 20), snap.Root.Children[0].Max)
}

func TestFromSpecDisablePreemptionInherits(t *testing.T) {
	yes, no := true, false
	spec := SnapshotSpec{Cluster: resource.New(100, 100), Queues: map[string]QueueSpec{
		"root.p":   {DisablePreemption: &yes},
		"root.p.x": {Capacity: Percent(50)},
		"root.p.y": {Capacity: Percent(50), DisablePreemption: &no},
	}}
	snap, err := FromSpec(spec)
	require.NoError(t, err)
	p := snap.Root.Children[0]
	require.True(t, p.DisablePreemption)
	require.True(t, p.Children[0].DisablePreemption)
	require.False(t, p.Children[1].DisablePreemption)
}

func TestFromSpecErrors(t *testing.T) {
	ok := func() SnapshotSpec {
		return SnapshotSpec{Cluster: resource.New(100, 100), Queues: map[string]QueueSpec{
			"root.a": leafSpec(50, 10, 0, 1, 1),
			"root.b": leafSpec(50, 0, 0, 1, 0),
		}}
	}
	cases := []struct {
		name string
		edit func(*SnapshotSpec)
		want string
	}{
		{"cluster", func(s *SnapshotSpec) { s.Cluster = resource.New(0, 10) }, "cluster"},
		{"calculator", func(s *SnapshotSpec) { s.ResourceCalculator = "fair" }, "resource_calculator"},
		{"not under root", func(s *SnapshotSpec) { s.Queues["a"] = leafSpec(1, 0, 0, 1, 0) }, `queue "a": path must start with root`},
		{"empty name", func(s *SnapshotSpec) { s.Queues["root..c"] = leafSpec(1, 0, 0, 1, 0) }, "empty queue name"},
		{"capacity required", func(s *SnapshotSpec) { q := s.Queues["root.a"]; q.Capacity = nil; s.Queues["root.a"] = q }, "queue root.a: capacity is required"},
		{"capacity range", func(s *SnapshotSpec) { q := s.Queues["root.a"]; q.Capacity = Percent(120); s.Queues["root.a"] = q }, "queue root.a: capacity 120"},
		{"negative capacity", func(s *SnapshotSpec) { q := s.Queues["root.b"]; q.Capacity = Percent(-1); s.Queues["root.b"] = q }, "queue root.b: capacity -1"},
		{"max below capacity", func(s *SnapshotSpec) {
			q := s.Queues["root.a"]
			q.MaximumCapacity = Percent(40)
			s.Queues["root.a"] = q
		}, "queue root.a: maximum_capacity 40 is below capacity 50"},
		{"negative used", func(s *SnapshotSpec) { q := s.Queues["root.a"]; q.Used = resource.New(-1, 0); s.Queues["root.a"] = q }, "queue root.a: used"},
		{"negative pending", func(s *SnapshotSpec) {
			q := s.Queues["root.b"]
			q.Pending = resource.New(0, -3)
			s.Queues["root.b"] = q
		}, "queue root.b: pending"},
		{"negative apps", func(s *SnapshotSpec) { q := s.Queues["root.b"]; q.Apps = -1; s.Queues["root.b"] = q }, "queue root.b: apps -1"},
		{"used without apps", func(s *SnapshotSpec) { q := s.Queues["root.a"]; q.Apps = 0; s.Queues["root.a"] = q }, "queue root.a: used <memory:10, vCores:10> needs apps"},
		{"zero container size", func(s *SnapshotSpec) {
			q := s.Queues["root.a"]
			q.ContainerSize = resource.None
			s.Queues["root.a"] = q
		}, "queue root.a: container_size"},
		{"not whole containers", func(s *SnapshotSpec) {
			q := s.Queues["root.a"]
			q.ContainerSize = resource.New(3, 3)
			s.Queues["root.a"] = q
		}, "queue root.a: used <memory:10, vCores:10> is not a whole number"},
		{"parent used", func(s *SnapshotSpec) { s.Queues["root.a.x"] = leafSpec(100, 0, 0, 1, 0) }, "queue root.a is a parent: used"},
		{"root capacity", func(s *SnapshotSpec) { s.Queues["root"] = QueueSpec{Capacity: Percent(50)} }, "queue root: capacity"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := ok()
			tc.edit(&s)
			_, err := FromSpec(s)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := FromSpec(ok())
	require.NoError(t, err)
}

func TestParseSpecJSON(t *testing.T) {
	_, err := parseSpec([]byte(`{"cluster": {"memory_mb": 10, "vcores": 10}, "queues": {"root.a": {"capacity": 100, "colour": 1}}}`))
	require.ErrorContains(t, err, "colour")
	s, err := parseSpec([]byte(`{"cluster": {"memory_mb": 10, "vcores": 10}, "queues": {"root.a": {"capacity": 100, "used": {"memory_mb": 2, "vcores": 2}, "container_size": {"memory_mb": 1, "vcores": 1}, "apps": 1}}}`))
	require.NoError(t, err)
	snap, err := FromSpec(s)
	require.NoError(t, err)
	require.Len(t, snap.Root.Children[0].Apps[0].Containers, 2)
}
