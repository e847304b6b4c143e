package core

import (
	"fmt"
	"slices"
	"strings"

	"yarnplay/core/config"
)

// createFlexibleLeaf is Hadoop 3.4's CapacitySchedulerQueueManager.
// createQueue for a queue whose parent is not a legacy managed parent:
// createAutoQueue, with determineMissingParents' checks, then
// ParentQueue.addDynamicParentQueue for each missing parent, top down,
// and addDynamicLeafQueue (addDynamicChildQueue: the max-queues limit,
// weights among the siblings in legacy queue mode; the queue constructed
// with its parent's template, AutoCreatedQueueTemplate; the parent's
// subtree recalculated, updateClusterResource). The error is Hadoop's
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
	distance, candidate := 1, parentPath
	existing, _ := s.lookupQueue(candidate)
	static := existing
	var missing []string // top down
	for (static == nil || static.conf.Dynamic) && candidate != "" {
		distance++
		if existing == nil {
			missing = append([]string{candidate}, missing...)
		}
		candidate = candidate[:max(strings.LastIndex(candidate, "."), 0)]
		if existing == nil {
			existing, _ = s.lookupQueue(candidate)
		}
		static, _ = s.lookupQueue(candidate)
	}
	if existing == nil || static == nil {
		return nil, fmt.Errorf("Could not auto-create queue %s parent queue does not exist.", path)
	}
	depth, err := config.MaximumAutoCreatedQueueDepth(s.conf, static.path)
	if err != nil {
		return nil, err
	}
	if distance > depth {
		return nil, fmt.Errorf("Could not auto create queue %s. The distance of the LeafQueue from the first static ParentQueue is %d, which is above the limit.", path, distance)
	}
	if existing.isLeaf() {
		return nil, fmt.Errorf("Could not auto create hierarchy of %s. Queue %s is not a ParentQueue.", path, parentPath)
	}
	// AbstractParentQueue.isEligibleForAutoQueueCreation.
	if !existing.conf.AutoQueueCreationV2 && !existing.conf.Dynamic {
		return nil, fmt.Errorf("Auto creation of queue %s is not enabled under parent %s", path, existing.path)
	}
	// addDynamicChildQueue's checks, for the first queue to add (the ones
	// below it are the only children of new parents).
	first := path
	if len(missing) > 0 {
		first = missing[0]
	}
	if n, limit := len(existing.children), maxChildQueues(existing.conf); n >= limit {
		return nil, fmt.Errorf("Cannot auto create queue %s. Max Child Queue limit exceeded which is configured as: %d and number of child queues is: %d", first, limit, n)
	}
	siblings := make([]*config.QueueConf, len(existing.children))
	for k, c := range existing.children {
		siblings[k] = c.conf
	}
	if !s.set.MixedQueueMode && !config.ChildrenUseWeights(siblings) {
		return nil, fmt.Errorf("Trying to create new queue=%s but not all the queues under parent=%s are using weight-based capacity. Failed to created queue", first, existing.path)
	}
	dynamic := slices.Clip(s.dynamic)
	for _, m := range missing {
		dynamic = append(dynamic, config.DynamicQueue{Path: m, Parent: true})
	}
	dynamic = append(dynamic, config.DynamicQueue{Path: path})
	parsed, err := config.ParseWithDynamicQueues(s.conf, s.profile, s.cluster, dynamic)
	if err != nil {
		return nil, err
	}
	if c := parsed.Queue(path); c == nil || !c.IsLeaf() {
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
	now := s.nowMS()
	existing.lastSubmittedMS = now // addDynamicChildQueue: updateLastSubmittedTimeStamp
	parent := existing
	var q *queue
	for _, p := range append(missing, path) {
		c := parsed.Queue(p)
		q = &queue{path: c.Path, name: c.Name, conf: c, parent: parent, state: initialState(c, parent)}
		if c.IsLeaf() {
			q.lf = &leafState{users: map[string]*user{}}
		}
		q.cidx = int32(len(parent.children))
		q.hpos = q.cidx
		q.lastSubmittedMS = now
		parent.children = append(slices.Clip(parent.children), q)
		s.emit(Event{Kind: EvQueueCreated, Queue: q.path, Detail: fmt.Sprintf("under %s, by flexible auto-queue creation: %s",
			parent.path, flexibleCapacityText(q.isLeaf(), c))})
		parent = q
	}
	s.reindexQueues()
	q.lf.cachedLimit, q.lf.currentLimit = s.cluster, s.cluster
	// existing.updateClusterResource(cluster, new ResourceLimits(cluster)).
	s.invalidate(changeCluster, nil)
	s.effectiveResources(true)
	s.updateLimits(existing, limits{limit: s.cluster, headroom: s.cluster})
	s.sortAllChildren()
	return q, nil
}

// maxChildQueues is getAutoCreatedQueuesV2MaxChildQueuesLimit: a dynamic
// parent without the property has the default.
func maxChildQueues(c *config.QueueConf) int {
	if c.AutoQueueCreationV2 {
		return c.AutoQueueMaxQueues
	}
	return config.DefaultAutoQueueCreationV2MaxQueues
}

// flexibleCapacityText describes a dynamic queue's capacity.
func flexibleCapacityText(leaf bool, c *config.QueueConf) string {
	kind := "a dynamic parent queue"
	if leaf {
		kind = "a dynamic leaf"
	}
	if c.Weighted {
		return fmt.Sprintf("%s, weight %sw, %s%% of the cluster", kind, config.JavaFloatString(c.Weight), pct(c.AbsCapacity))
	}
	return fmt.Sprintf("%s, capacity %s%% of %s, %s%% of the cluster", kind, pct(c.Capacity), c.Parent.Path, pct(c.AbsCapacity))
}

// survivingDynamic are the dynamic queues a refresh keeps
// (CapacitySchedulerQueueManager.reinitializeQueues, isDanglingDynamicQueue:
// a dynamic queue whose parent is still there stays, and a dynamic parent
// now configured without children stays a parent of its dynamic ones;
// a queue now configured becomes static).
func survivingDynamic(dynamic []config.DynamicQueue, p *config.Parsed) []config.DynamicQueue {
	var out []config.DynamicQueue
	kept, dynamicParent := map[string]bool{}, map[string]bool{}
	for _, d := range dynamic {
		dynamicParent[d.Path[:strings.LastIndex(d.Path, ".")]] = true
	}
	for _, d := range dynamic {
		i := strings.LastIndex(d.Path, ".")
		parent := p.Queue(d.Path[:i])
		if (kept[d.Path[:i]] || parent != nil && (!parent.IsLeaf() || dynamicParent[d.Path[:i]])) && p.Queue(d.Path) == nil {
			out = append(out, d)
			kept[d.Path] = true
		}
	}
	return out
}

// checkDynamic checks the dynamic queues (CheckInvariants): each listed
// once, after its parent when that is dynamic too, marked Dynamic, a leaf
// or a parent as recorded.
func (s *Scheduler) checkDynamic() error {
	seen := map[string]bool{}
	for _, d := range s.dynamic {
		path := d.Path
		if seen[path] {
			return fmt.Errorf("dynamic queue %s listed twice", path)
		}
		seen[path] = true
		q := s.byPath[path]
		if q == nil || !q.conf.Dynamic || q.parent == nil || q.isLeaf() == d.Parent {
			return fmt.Errorf("dynamic queue %s: not a dynamic queue of its kind in the tree", path)
		}
		if q.parent.conf.Dynamic && !seen[q.parent.path] {
			return fmt.Errorf("dynamic queue %s: listed before its dynamic parent", path)
		}
	}
	for _, q := range s.queues {
		if q.conf.Dynamic && !seen[q.path] {
			return fmt.Errorf("queue %s: dynamic, but not listed", q.path)
		}
	}
	return nil
}
