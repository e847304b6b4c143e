package preemption

import (
	"fmt"
	"slices"
	"strings"

	"yarnplay/core/resource"
)

// SnapshotSpec is the conformance cases' "preemption_snapshot": a cluster and
// its queues by full path, in the spirit of the int-matrix mock of Hadoop's
// TestProportionalCapacityPreemptionPolicy. Decode it with encoding/json
// (the tags match the case files; core itself may not import encoding/json)
// and build the Snapshot with FromSpec.
type SnapshotSpec struct {
	// Cluster is the cluster resource (memory must be positive).
	Cluster resource.Resource `json:"cluster"`
	// Queues maps full queue paths ("root.a", "root.p.x") to their specs.
	// Parents are implied by the paths and may be listed themselves.
	Queues map[string]QueueSpec `json:"queues"`
	// ResourceCalculator is an optional extension: "", "default" or the
	// DefaultResourceCalculator class name; "dominant" or the
	// DominantResourceCalculator class name.
	ResourceCalculator string `json:"resource_calculator,omitempty"`
}

// QueueSpec is one queue of a SnapshotSpec.
type QueueSpec struct {
	// Capacity is the queue's capacity in percent of its parent
	// (yarn.scheduler.capacity.<path>.capacity). Required for a leaf; a
	// parent defaults to 100.
	Capacity *float64 `json:"capacity,omitempty"`
	// MaximumCapacity is the maximum capacity in percent of the parent's
	// (default 100). It may not be below Capacity.
	MaximumCapacity *float64 `json:"maximum_capacity,omitempty"`
	// Used is a leaf's used resource: Used / ContainerSize live containers.
	Used resource.Resource `json:"used"`
	// Pending is a leaf's pending demand.
	Pending resource.Resource `json:"pending"`
	// ContainerSize is the size of each of a leaf's containers.
	ContainerSize resource.Resource `json:"container_size"`
	// Apps is how many applications the leaf runs; its containers are dealt
	// to them like Hadoop's mock does (ceil(containers / apps) each, oldest
	// application first).
	Apps int `json:"apps"`
	// DisablePreemption is an optional extension: the queue's
	// disable_preemption; when absent it is inherited from the parent.
	DisablePreemption *bool `json:"disable_preemption,omitempty"`
}

// Percent returns a pointer to v, for filling QueueSpec capacities in code.
func Percent(v float64) *float64 { return &v }

// specCalculator resolves SnapshotSpec.ResourceCalculator.
func specCalculator(name string) (resource.Calculator, error) {
	switch name {
	case "", "default", resource.DefaultCalculatorClass:
		return resource.Default, nil
	case "dominant", resource.DominantCalculatorClass:
		return resource.Dominant, nil
	}
	return resource.Calculator{}, fmt.Errorf("preemption_snapshot: resource_calculator %q is not default or dominant", name)
}

// FromSpec builds the Snapshot a SnapshotSpec describes:
//
//   - Queues are built from their paths; siblings are ordered by name. A
//     parent not listed has capacity 100 and maximum capacity 100 (Hadoop's
//     mocks list every queue; they do not check that siblings sum to 100,
//     and neither does this).
//   - Absolute capacities are Java float products (parent abs x capacity/100)
//     and the effective guaranteed / maximum resources are cluster x absolute
//     capacity, truncated per type, as the Capacity Scheduler computes them.
//     (Hadoop's int-matrix mock instead sets the guarantee to the matrix
//     number; the two agree unless the float product truncates down.)
//   - A parent's used is the sum of its children's; its pending is summed by
//     the policy.
//   - Each leaf with used > 0 gets used / container_size live, non-AM
//     containers at request priority 1, dealt to its apps; applications and
//     containers are numbered in queue order from 1 (app_1, app_2, ...),
//     ascending, so later queues hold younger applications.
//   - maximum-am-resource-percent is the Capacity Scheduler default 0.1.
//
// Errors name the queue and the field: a path not under root, a leaf without
// capacity, a percentage outside [0, 100], maximum below capacity, negative
// resources or application counts, used > 0 without applications or with a
// zero container size or not a whole number of containers, and used,
// pending, container_size or apps on a parent queue.
func FromSpec(spec SnapshotSpec) (*Snapshot, error) {
	rc, err := specCalculator(spec.ResourceCalculator)
	if err != nil {
		return nil, err
	}
	if spec.Cluster.MemoryMB <= 0 || spec.Cluster.VCores < 0 {
		return nil, fmt.Errorf("preemption_snapshot: cluster %v: memory_mb must be positive and vcores not negative", spec.Cluster)
	}
	paths := make([]string, 0, len(spec.Queues))
	for p := range spec.Queues {
		paths = append(paths, p)
	}
	slices.Sort(paths)

	// Every listed path and every parent it implies.
	children := map[string][]string{}
	known := map[string]bool{"root": true}
	for _, p := range paths {
		segs := strings.Split(p, ".")
		if segs[0] != "root" {
			return nil, fmt.Errorf("preemption_snapshot: queue %q: path must start with root", p)
		}
		for i := 1; i < len(segs); i++ {
			if segs[i] == "" {
				return nil, fmt.Errorf("preemption_snapshot: queue %q: empty queue name in path", p)
			}
			cur := strings.Join(segs[:i+1], ".")
			if !known[cur] {
				known[cur] = true
				parent := strings.Join(segs[:i], ".")
				children[parent] = append(children[parent], cur)
			}
		}
	}
	for _, c := range children {
		slices.Sort(c)
	}

	b := &specBuilder{spec: spec, rc: rc, children: children}
	root, err := b.build("root", nil)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Cluster: spec.Cluster, Calculator: rc, Root: root}, nil
}

type specBuilder struct {
	spec     SnapshotSpec
	rc       resource.Calculator
	children map[string][]string
	appSeq   int64
	cid      ContainerID
}

func checkPct(path, field string, v float64) error {
	if v < 0 || v > 100 || v != v {
		return fmt.Errorf("preemption_snapshot: queue %s: %s %v is outside [0, 100]", path, field, v)
	}
	return nil
}

func checkRes(path, field string, r resource.Resource) error {
	if r.MemoryMB < 0 || r.VCores < 0 {
		return fmt.Errorf("preemption_snapshot: queue %s: %s %v is negative", path, field, r)
	}
	return nil
}

func (b *specBuilder) build(path string, parent *Queue) (*Queue, error) {
	qs, listed := b.spec.Queues[path]
	kids := b.children[path]
	leaf := len(kids) == 0
	capPct, maxPct := 100.0, 100.0
	if qs.Capacity != nil {
		capPct = *qs.Capacity
	} else if leaf && listed && parent != nil {
		return nil, fmt.Errorf("preemption_snapshot: queue %s: capacity is required for a leaf", path)
	}
	if qs.MaximumCapacity != nil {
		maxPct = *qs.MaximumCapacity
	}
	if err := checkPct(path, "capacity", capPct); err != nil {
		return nil, err
	}
	if err := checkPct(path, "maximum_capacity", maxPct); err != nil {
		return nil, err
	}
	if maxPct < capPct {
		return nil, fmt.Errorf("preemption_snapshot: queue %s: maximum_capacity %v is below capacity %v", path, maxPct, capPct)
	}
	if parent == nil && (capPct != 100 || maxPct != 100) {
		return nil, fmt.Errorf("preemption_snapshot: queue root: capacity and maximum_capacity must be 100")
	}
	for _, f := range []struct {
		name string
		r    resource.Resource
	}{{"used", qs.Used}, {"pending", qs.Pending}, {"container_size", qs.ContainerSize}} {
		if err := checkRes(path, f.name, f.r); err != nil {
			return nil, err
		}
		if !leaf && !f.r.IsZero() {
			return nil, fmt.Errorf("preemption_snapshot: queue %s is a parent: %s must be zero (it is computed from the children)", path, f.name)
		}
	}
	if qs.Apps < 0 {
		return nil, fmt.Errorf("preemption_snapshot: queue %s: apps %d is negative", path, qs.Apps)
	}
	if !leaf && qs.Apps != 0 {
		return nil, fmt.Errorf("preemption_snapshot: queue %s is a parent: apps must be zero", path)
	}

	q := &Queue{Path: path, MaxAMPercent: 0.1}
	if parent == nil {
		q.AbsCapacity, q.AbsMaxCapacity = 1, 1
	} else {
		// CS: capacity = value / 100 (float); absolute = parent absolute x capacity.
		q.AbsCapacity = parent.AbsCapacity * (float32(capPct) / 100)
		q.AbsMaxCapacity = parent.AbsMaxCapacity * (float32(maxPct) / 100)
		q.DisablePreemption = parent.DisablePreemption
	}
	if qs.DisablePreemption != nil {
		q.DisablePreemption = *qs.DisablePreemption
	}
	q.Guaranteed = multiply(b.spec.Cluster, float64(q.AbsCapacity))
	q.Max = multiply(b.spec.Cluster, float64(q.AbsMaxCapacity))

	if !leaf {
		for _, k := range kids {
			c, err := b.build(k, q)
			if err != nil {
				return nil, err
			}
			q.Children = append(q.Children, c)
			q.Used = q.Used.Add(c.Used)
		}
		return q, nil
	}
	q.Used, q.Pending = qs.Used, qs.Pending
	count, err := containerCount(path, qs)
	if err != nil {
		return nil, err
	}
	perApp := int64(0)
	if qs.Apps > 0 {
		perApp = (count + int64(qs.Apps) - 1) / int64(qs.Apps)
	}
	for a := 0; a < qs.Apps; a++ {
		b.appSeq++
		app := App{ID: fmt.Sprintf("app_%d", b.appSeq), Seq: b.appSeq}
		for n := int64(0); n < perApp && count > 0; n++ {
			b.cid++
			count--
			app.Containers = append(app.Containers, Container{ID: b.cid, Size: qs.ContainerSize, RequestPriority: 1})
		}
		q.Apps = append(q.Apps, app)
	}
	return q, nil
}

// containerCount is how many container_size containers make up a leaf's used.
func containerCount(path string, qs QueueSpec) (int64, error) {
	if qs.Used.IsZero() {
		return 0, nil
	}
	if qs.Apps == 0 {
		return 0, fmt.Errorf("preemption_snapshot: queue %s: used %v needs apps >= 1", path, qs.Used)
	}
	size := qs.ContainerSize
	var count int64
	switch {
	case size.MemoryMB > 0:
		count = qs.Used.MemoryMB / size.MemoryMB
	case size.VCores > 0:
		count = qs.Used.VCores / size.VCores
	default:
		return 0, fmt.Errorf("preemption_snapshot: queue %s: container_size %v must be positive when used > 0", path, size)
	}
	if size.Times(count) != qs.Used {
		return 0, fmt.Errorf("preemption_snapshot: queue %s: used %v is not a whole number of container_size %v", path, qs.Used, size)
	}
	return count, nil
}
