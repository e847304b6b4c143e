package core

import (
	"fmt"
	"slices"

	"yarnplay/core/config"
)

// deleteExpiredQueues is Hadoop 3.4's AutoCreatedQueueDeletionPolicy.
// editSchedule when the monitor runs it (listed in the monitor's
// policies), every queue-expiration-time seconds: prepareForAutoDeletion
// sends for deletion the queues eligible now that were already marked at
// the previous run and marks the other eligible ones; then
// triggerAutoDeletionForExpiredQueues deletes each sent queue that is
// still an inactive dynamic queue (CapacityScheduler.
// removeAutoCreatedQueue, isInactiveDynamicQueue: idle, in whole seconds
// since its last submission or new child, for longer than the expiration
// time). Hadoop's sets are HashSets; the queues are visited here in the
// tree's pre-order.
func (s *Scheduler) deleteExpiredQueues() {
	if !s.set.AutoQueueDeletion || !s.profile.AtLeast34() {
		return
	}
	every := max(int64(1), s.set.AutoQueueExpirationSec*1000/max(int64(1), s.set.HeartbeatIntervalMS))
	if s.now%every != 0 {
		return
	}
	var marks, sent []string
	for _, q := range s.queues {
		if !eligibleForAutoDeletion(q) {
			continue
		}
		if slices.Contains(s.markedForDeletion, q.path) {
			sent = append(sent, q.path)
		} else {
			marks = append(marks, q.path)
		}
	}
	s.markedForDeletion = marks
	for _, path := range sent {
		q := s.byPath[path]
		if q == nil || !eligibleForAutoDeletion(q) {
			continue
		}
		idle := (s.nowMS() - q.lastSubmittedMS) / 1000
		if idle > s.set.AutoQueueExpirationSec {
			s.removeDynamicQueue(q, idle)
		}
	}
}

// eligibleForAutoDeletion is isEligibleForAutoDeletion: a dynamic leaf
// without applications, or a dynamic parent without children, whose
// queue-auto-removal.enable is not false.
func eligibleForAutoDeletion(q *queue) bool {
	if !q.conf.Dynamic || q.conf.NoAutoRemoval {
		return false
	}
	if q.isLeaf() {
		return q.numApps == 0
	}
	return len(q.children) == 0
}

// removeDynamicQueue is CapacityScheduler.removeQueue for a dynamic queue
// (AbstractParentQueue.removeChildQueue, CapacitySchedulerQueueManager.
// removeQueue): the queue leaves its parent's list and the configuration
// is parsed again without it, so its siblings' weights grow back; then the
// parent's subtree is recalculated.
func (s *Scheduler) removeDynamicQueue(q *queue, idleSec int64) {
	var dynamic []config.DynamicQueue
	for _, d := range s.dynamic {
		if d.Path != q.path {
			dynamic = append(dynamic, d)
		}
	}
	parsed, err := config.ParseWithDynamicQueues(s.conf, s.profile, s.cluster, dynamic)
	if err != nil {
		return // the remaining queues no longer parse: the queue stays
	}
	for _, x := range s.queues {
		if nc := parsed.Queue(x.path); nc != nil {
			x.conf = nc
		}
	}
	s.parsed, s.dynamic = parsed, dynamic
	parent := q.parent
	children := make([]*queue, 0, len(parent.children)-1)
	for _, c := range parent.children {
		if c == q {
			continue
		}
		if c.hpos > q.hpos {
			c.hpos--
		}
		c.cidx = int32(len(children))
		children = append(children, c)
	}
	parent.children = children
	delete(s.byPath, q.path)
	s.reindexQueues()
	s.emit(Event{Kind: EvQueueDeleted, Queue: q.path, Detail: fmt.Sprintf(
		"idle for %d s, over auto-queue-creation-v2.queue-expiration-time (%d s), with no %s", idleSec,
		s.set.AutoQueueExpirationSec, map[bool]string{true: "applications", false: "children"}[q.isLeaf()])})
	s.invalidate(changeCluster, nil)
	s.effectiveResources(true)
	s.updateLimits(parent, limits{limit: s.cluster, headroom: s.cluster})
	s.sortAllChildren()
}
