package preemption

import (
	"fmt"

	"yarnplay/core/resource"
)

// ContainerID identifies a container (live or reserved). It must be unique
// in a Snapshot and stable across the snapshots of successive rounds, since
// State remembers candidates by it. Within an application a larger id means
// a later allocation (Hadoop's ContainerId order).
type ContainerID int64

// Container is one live container, or one reservation, of an application
// (an RMContainer as the policy sees it).
type Container struct {
	// ID is the container's unique id.
	ID ContainerID
	// Size is the allocated resource (the reserved resource for a reservation).
	Size resource.Resource
	// RequestPriority is the request priority the container was allocated
	// for (lower number = more important; AM containers use 0). Containers
	// with the highest number are preempted first.
	RequestPriority int
	// IsAM marks the application master's container; it is skipped in the
	// first pass and taken only if still needed (FifoCandidatesSelector).
	IsAM bool
	// Reserved marks a reservation rather than a live container. The FIFO
	// selector drops an application's reservations before its live
	// containers, and kills them at once (KILL_RESERVED_CONTAINER).
	Reserved bool
	// Node is the node the container is on (informational: one partition).
	Node string
}

// App is an application attempt in a leaf queue.
type App struct {
	// ID is the application's unique id (the last tie-breaker of the order).
	ID string
	// Priority is the application priority (higher = more important). Lower
	// priority applications are preempted first.
	Priority int
	// Seq is the submission order (lower = older). Within a priority the
	// youngest application is preempted first.
	Seq int64
	// Containers are the application's live containers and reservations, in
	// any order.
	Containers []Container
	// AMResource is the application's AM resource. The inter-queue FIFO
	// selector does not read it (it uses the Size of the IsAM container); it
	// is carried for the UI.
	AMResource resource.Resource
}

// Queue is one queue of the hierarchy as the policy snapshots it
// (ProportionalCapacityPreemptionPolicy.cloneQueues -> TempQueuePerPartition).
type Queue struct {
	// Path is the full queue path ("root", "root.a", ...); unique.
	Path string
	// Children are the child queues in configured order (nil for a leaf).
	Children []*Queue
	// AbsCapacity and AbsMaxCapacity are the absolute capacities as fractions
	// (Java floats). They are used only when Guaranteed / Max are zero.
	AbsCapacity, AbsMaxCapacity float32
	// Guaranteed and Max are the effective min / max resources. When zero,
	// the policy uses cluster x AbsCapacity / AbsMaxCapacity, truncated
	// (TempQueuePerPartition.getGuaranteed / getMax).
	Guaranteed, Max resource.Resource
	// Used is the queue's used resource, reservations included (a parent's
	// used is taken as given; the scheduler reports the sum of its children).
	Used resource.Resource
	// Pending is a leaf's pending demand (considering user limits). A
	// parent's pending is ignored: the policy sums its children's.
	Pending resource.Resource
	// Reserved is the queue's reserved resource; a leaf's pending minus it
	// (never below zero) is what the ideal assignment offers against.
	Reserved resource.Resource
	// Killable is the resource of containers already marked killable (lazy
	// preemption; zero unless the scheduler tracks it). It is deducted from
	// used before computing what to preempt.
	Killable resource.Resource
	// DisablePreemption is the queue's effective disable_preemption flag
	// (the scheduler resolves inheritance; the policy does not).
	DisablePreemption bool
	// MaxAMPercent is a leaf's maximum-am-resource-percent (a fraction). AM
	// containers are preempted only while the queue's skipped AM resource
	// exceeds Guaranteed x MaxAMPercent.
	MaxAMPercent float32
	// Apps are a leaf's applications, in any order.
	Apps []App
}

// IsLeaf reports whether q has no children.
func (q *Queue) IsLeaf() bool { return len(q.Children) == 0 }

// Snapshot is the frozen scheduler state one Round reads.
type Snapshot struct {
	// Cluster is the cluster (default partition) resource.
	Cluster resource.Resource
	// Calculator is the scheduler's resource calculator.
	Calculator resource.Calculator
	// MinAlloc is the scheduler's minimum allocation. The inter-queue policy
	// does not use it; it is carried for the UI.
	MinAlloc resource.Resource
	// Root is the root queue.
	Root *Queue
}

// Validate reports the first structural problem of s that Round cannot
// evaluate: no root, an empty or duplicate queue path, applications on a
// parent queue, duplicate application or container ids, negative resources.
func Validate(s *Snapshot) error {
	if s == nil || s.Root == nil {
		return fmt.Errorf("preemption: snapshot has no root queue")
	}
	if s.Cluster.MemoryMB < 0 || s.Cluster.VCores < 0 {
		return fmt.Errorf("preemption: cluster resource %v is negative", s.Cluster)
	}
	if s.Calculator.Kind != resource.DefaultKind && s.Calculator.Kind != resource.DominantKind {
		return fmt.Errorf("preemption: unknown resource calculator kind %d", s.Calculator.Kind)
	}
	paths := map[string]bool{}
	apps := map[string]string{}
	containers := map[ContainerID]string{}
	var walk func(q *Queue) error
	walk = func(q *Queue) error {
		if q == nil {
			return fmt.Errorf("preemption: nil queue in the hierarchy")
		}
		if q.Path == "" {
			return fmt.Errorf("preemption: queue with an empty path")
		}
		if paths[q.Path] {
			return fmt.Errorf("preemption: duplicate queue path %q", q.Path)
		}
		paths[q.Path] = true
		for _, f := range []struct {
			name string
			r    resource.Resource
		}{
			{"used", q.Used}, {"pending", q.Pending}, {"reserved", q.Reserved},
			{"killable", q.Killable}, {"guaranteed", q.Guaranteed}, {"max", q.Max},
		} {
			if f.r.MemoryMB < 0 || f.r.VCores < 0 {
				return fmt.Errorf("preemption: queue %s: %s %v is negative", q.Path, f.name, f.r)
			}
		}
		if !q.IsLeaf() && len(q.Apps) > 0 {
			return fmt.Errorf("preemption: parent queue %s has applications", q.Path)
		}
		for _, a := range q.Apps {
			if prev, ok := apps[a.ID]; ok {
				return fmt.Errorf("preemption: queue %s: application %q already in %s", q.Path, a.ID, prev)
			}
			apps[a.ID] = q.Path
			for _, c := range a.Containers {
				if prev, ok := containers[c.ID]; ok {
					return fmt.Errorf("preemption: queue %s: container %d already in %s", q.Path, c.ID, prev)
				}
				containers[c.ID] = q.Path
				if c.Size.MemoryMB < 0 || c.Size.VCores < 0 {
					return fmt.Errorf("preemption: queue %s: container %d size %v is negative", q.Path, c.ID, c.Size)
				}
			}
		}
		for _, c := range q.Children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(s.Root)
}
