package core

// walkCache is what the heartbeat's walk remembers from one pass to the
// next, so that a pass whose outcome is already known is not walked again.
// Hadoop walks every time; the caches only skip work whose result they
// hold, and a recorded walk (RecordFull) never uses them.
//
//   - The idle pass (allocateOnce): a pass that walked the whole tree,
//     reached no application's allocation and changed nothing. Until
//     something changes, every pass on a node that passes the node checks
//     would walk the same way.
//   - A leaf's last visit that changed nothing (assignLeaf, leafState.memo),
//     replayed while the leaf, the cluster and the configuration are
//     unchanged and the limit handed down is the same.
//   - A leaf's user limit (queueUserLimit, leafState.ul), valid while the
//     leaf, the cluster and the configuration are unchanged.
//   - A leaf's head of applications with nothing outstanding and no
//     reservation (leafState.lead), which an unrecorded visit passes over.
//
// They are keyed by generations: walkCache.gen counts every change,
// walkCache.cluster the changes of the cluster's resources and of the
// configuration, and a leaf's leafState.gen the changes of its own state.
// Every change goes through invalidate, and nothing else moves them.
type walkCache struct {
	gen     uint64 // every change (invalidate)
	cluster uint64 // changes of the cluster's resources or of the configuration
	// idleGen is the gen at which a whole pass found nothing to do and
	// changed nothing (idle).
	idleGen uint64
	idle    bool
}

// A change says what invalidate is told has changed.
type change uint8

const (
	// changeState: something a pass reads, but no one leaf's own state
	// (a node, an application's submission, the preemption monitor).
	changeState change = iota
	// changeLeaf: the leaf's own state (its applications, users, usage,
	// asks or reservations).
	changeLeaf
	// changeLeafHead: the leaf's own state, and an application of its
	// head gained something outstanding or a reservation, or its active
	// list changed: the head must be found again.
	changeLeafHead
	// changeCluster: the cluster's resources or the configuration, which
	// every leaf's visit and user limit read.
	changeCluster
)

// invalidate is the one way the walk's caches learn of a change; q is the
// leaf of changeLeaf and changeLeafHead (a parent queue or nil leaves only
// the scheduler-wide generation moved). It has no counterpart in Hadoop,
// which keeps no such caches.
func (s *Scheduler) invalidate(c change, q *queue) {
	s.walk.gen++
	switch c {
	case changeLeaf, changeLeafHead:
		if q != nil && q.lf != nil {
			q.lf.gen++
			if c == changeLeafHead {
				q.lf.lead = 0
			}
		}
	case changeCluster:
		s.walk.cluster++
	}
}

// idleNow reports whether a pass on a node that passes the node checks is
// known to find nothing: the last idle pass was at the current generation.
func (w *walkCache) idleNow() bool { return w.idle && w.idleGen == w.gen }

// passWasIdle records that the pass that started at generation gen walked
// the whole tree and found nothing; it counts only if nothing changed since.
func (w *walkCache) passWasIdle(gen uint64) {
	if w.gen == gen {
		w.idle, w.idleGen = true, gen
	}
}

// leafUnchanged reports whether a memo taken at the leaf's generation
// leafGen and the cluster generation cluster still holds.
func (w *walkCache) leafUnchanged(lf *leafState, leafGen, cluster uint64) bool {
	return leafGen == lf.gen && cluster == w.cluster
}
