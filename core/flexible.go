package core

import (
	"fmt"
	"slices"
	"strings"

	"yarnplay/core/config"
)

// createFlexibleLeaf is Hadoop 3.4's CapacitySchedulerQueueManager.
// createQueue for a queue whose parent is not a legacy managed parent:
// createAutoQueue, with determineMissingParents' checks, and
// ParentQueue.addDynamicLeafQueue (addDynamicChildQueue: the max-queues
// limit, weights among the siblings in legacy queue mode; then the leaf
// constructed with its parent's template, AutoCreatedQueueTemplate, and
// the parent's subtree recalculated, updateClusterResource). Dynamic
// parent queues (a missing parent created on the way) are not simulated:
// such a path is refused with a message saying so. The error is Hadoop's
// message.
func (s *Scheduler) createFlexibleLeaf(path string) (*queue, error) {
	i := strings.LastIndex(path, ".")
	if i <= 0 {
		return nil, fmt.Errorf("Could not auto-create leaf queue for %s. Queue mapping does not specify which parent queue it needs to be created under.", path)
	}
	parentPath := path[:i]
	// determineMissingParents.
	if _, err := s.lookupQueue(parentPath); isAmbiguous(err) {
		return nil, fmt.Errorf("Could not auto-create queue %s due to ParentQueue %s being ambiguous.", path, parentPath)
	}
	distance, existing := 1, parentPath
	first, _ := s.lookupQueue(existing)
	for first == nil && existing != "" {
		distance++
		existing = existing[:max(strings.LastIndex(existing, "."), 0)]
		first, _ = s.lookupQueue(existing)
	}
	if first == nil {
		return nil, fmt.Errorf("Could not auto-create queue %s parent queue does not exist.", path)
	}
	depth, err := config.MaximumAutoCreatedQueueDepth(s.conf, first.path)
	if err != nil {
		return nil, err
	}
	if distance > depth {
		return nil, fmt.Errorf("Could not auto create queue %s. The distance of the LeafQueue from the first static ParentQueue is %d, which is above the limit.", path, distance)
	}
	if first.isLeaf() {
		return nil, fmt.Errorf("Could not auto create hierarchy of %s. Queue %s is not a ParentQueue.", path, parentPath)
	}
	if !first.conf.AutoQueueCreationV2 {
		return nil, fmt.Errorf("Auto creation of queue %s is not enabled under parent %s", path, first.path)
	}
	if distance > 1 {
		return nil, fmt.Errorf("Could not auto create queue %s: its parent %s would be a dynamic parent queue, which yarnplay does not "+
			"simulate; configure %s as a queue with %s=true", path, parentPath, parentPath, config.SuffixAutoQueueCreationV2)
	}
	parent := first
	// addDynamicChildQueue.
	if n, limit := len(parent.children), parent.conf.AutoQueueMaxQueues; n >= limit {
		return nil, fmt.Errorf("Cannot auto create queue %s. Max Child Queue limit exceeded which is configured as: %d and number of child queues is: %d", path, limit, n)
	}
	siblings := make([]*config.QueueConf, len(parent.children))
	for k, c := range parent.children {
		siblings[k] = c.conf
	}
	if !s.set.MixedQueueMode && !config.ChildrenUseWeights(siblings) {
		return nil, fmt.Errorf("Trying to create new queue=%s but not all the queues under parent=%s are using weight-based capacity. Failed to created queue", path, parent.path)
	}
	dynamic := append(slices.Clip(s.dynamic), path)
	parsed, err := config.ParseWithDynamicQueues(s.conf, s.profile, s.cluster, dynamic)
	if err != nil {
		return nil, err
	}
	c := parsed.Queue(path)
	if c == nil || !c.IsLeaf() {
		return nil, fmt.Errorf("Could not auto create queue %s", path)
	}
	// The other queues take their new capacities (the siblings' normalized
	// weights); legacy auto-created leaves are not in the parsed tree.
	for _, q := range s.queues {
		if nc := parsed.Queue(q.path); nc != nil {
			q.conf = nc
		}
	}
	s.parsed, s.dynamic = parsed, dynamic
	q := &queue{path: c.Path, name: c.Name, conf: c, parent: parent, state: initialState(c, parent)}
	q.lf = &leafState{users: map[string]*user{}}
	q.cidx = int32(len(parent.children))
	q.hpos = q.cidx
	parent.children = append(slices.Clip(parent.children), q)
	s.reindexQueues()
	q.lf.cachedLimit, q.lf.currentLimit = s.cluster, s.cluster
	s.emit(Event{Kind: EvQueueCreated, Queue: q.path, Detail: fmt.Sprintf("under %s, by flexible auto-queue creation: %s",
		parent.path, flexibleCapacityText(c))})
	// parent.updateClusterResource(cluster, new ResourceLimits(cluster)).
	s.invalidate(changeCluster, nil)
	s.effectiveResources(true)
	s.updateLimits(parent, limits{limit: s.cluster, headroom: s.cluster})
	s.sortAllChildren()
	return q, nil
}

// flexibleCapacityText describes a dynamic queue's capacity.
func flexibleCapacityText(c *config.QueueConf) string {
	if c.Weighted {
		return fmt.Sprintf("weight %sw, %s%% of the cluster", config.JavaFloatString(c.Weight), pct(c.AbsCapacity))
	}
	return fmt.Sprintf("capacity %s%% of %s, %s%% of the cluster", pct(c.Capacity), c.Parent.Path, pct(c.AbsCapacity))
}

// survivingDynamic are the dynamic leaves a refresh keeps
// (CapacitySchedulerQueueManager.reinitializeQueues: a dynamic queue whose
// parent is still configured stays; one now configured becomes static).
func survivingDynamic(dynamic []string, p *config.Parsed) []string {
	var out []string
	for _, path := range dynamic {
		i := strings.LastIndex(path, ".")
		parent := p.Queue(path[:i])
		if parent != nil && !parent.IsLeaf() && p.Queue(path) == nil {
			out = append(out, path)
		}
	}
	return out
}

// checkDynamic checks the dynamic leaves (CheckInvariants): each listed
// once, a leaf of an eligible parent, marked Dynamic.
func (s *Scheduler) checkDynamic() error {
	seen := map[string]bool{}
	for _, path := range s.dynamic {
		if seen[path] {
			return fmt.Errorf("dynamic queue %s listed twice", path)
		}
		seen[path] = true
		q := s.byPath[path]
		if q == nil || !q.isLeaf() || !q.conf.Dynamic || q.parent == nil || q.parent.isLeaf() {
			return fmt.Errorf("dynamic queue %s: not a dynamic leaf of a parent in the tree", path)
		}
	}
	for _, q := range s.queues {
		if q.conf.Dynamic && !seen[q.path] {
			return fmt.Errorf("queue %s: dynamic, but not listed", q.path)
		}
	}
	return nil
}
