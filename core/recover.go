package core

import (
	"fmt"
	"sort"

	"yarnplay/core/resource"
)

// Recovered is a running container the scheduler takes over from a
// ResourceManager that already ran it (a snapshot of a cluster).
type Recovered struct {
	App      string
	Node     string
	Size     resource.Resource
	Priority int // request priority
	// IsAM marks the application's AM container: the application is then
	// activated (whatever its AM limits say) and RUNNING.
	IsAM bool
}

// RecoverContainer places a running container of a live application on a
// node without any scheduling check, as the RM's work-preserving recovery
// does: CapacityScheduler.recoverContainersOnNode, that is
// SchedulerNode.recoverContainer, LeafQueue.recoverContainer (which
// charges the queue, its ancestors and the user through allocateResource)
// and SchedulerApplicationAttempt.recoverContainer. Unlike Hadoop it refuses
// a container the node has no room for, so that no node is over-allocated.
// An AM container activates its application (it already runs, so its AM
// counts toward the AM limits even above them). Nothing is recorded.
func (s *Scheduler) RecoverContainer(rc Recovered) error {
	s.invalidate(changeState, nil)
	a, err := s.liveApp(rc.App)
	if err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	n, ok := s.nodeIdx[rc.Node]
	if !ok {
		return fmt.Errorf("recover: unknown node %q", rc.Node)
	}
	if rc.Size.MemoryMB < 0 || rc.Size.VCores < 0 || rc.Size.IsZero() {
		return fmt.Errorf("recover: container of %s has size %s; it must be positive", rc.App, rc.Size)
	}
	if !s.rc.FitsIn(n.allocated.Add(rc.Size), n.total) {
		return fmt.Errorf("recover: a %s container of %s does not fit node %s (%s of %s allocated)", rc.Size, rc.App, n.name, n.allocated, n.total)
	}
	if rc.IsAM && !a.hasAM {
		return fmt.Errorf("recover: %s was submitted without an AM; its containers cannot include one", rc.App)
	}
	if rc.IsAM && a.hasAMContainer() {
		return fmt.Errorf("recover: %s already has its AM container", rc.App)
	}
	q := a.queue
	if rc.IsAM && !a.activated {
		s.forceActivate(q, a)
	}
	c := &container{id: s.nextID, app: a, node: n, size: rc.Size, priority: rc.Priority, locality: ntNodeLocal, start: s.now}
	s.nextID++
	c.isAM = rc.IsAM
	s.count.Allocations++
	a.addLive(c)
	a.consumption = a.consumption.Add(rc.Size)
	n.containers = append(n.containers, c)
	n.ends = append(n.ends, c.end)
	n.allocated = n.allocated.Add(rc.Size)
	s.chargeNode(q, a, n, rc.Size, true)
	if rc.IsAM {
		a.amRequested = true
		if a.state == AppAccepted {
			s.setAppState(a, AppRunning)
		}
	}
	return nil
}

// forceActivate moves a pending application to its leaf's active list
// without the AM-limit checks of activateApplications: its AM already runs.
func (s *Scheduler) forceActivate(q *queue, a *app) {
	s.invalidate(changeLeaf, q)
	lf := q.lf
	u := a.usr
	if !a.runnable {
		// Its AM runs: it was runnable in the cluster restored.
		lf.nonRunnable = removeApp(lf.nonRunnable, a)
		s.nonRunnable--
		s.trackRunnable(a)
		a.runnable = true
		lf.countApps(u, 1, 0)
	} else {
		lf.pending = removeApp(lf.pending, a)
	}
	lf.countApps(u, -1, 1)
	a.activated = true
	a.diagnostics = ""
	if isFair(q) {
		s.fairInsert(q, a, fairKey{})
	} else {
		lf.active = insertApp(lf.active, a)
	}
	s.invalidate(changeLeafHead, q)
	s.addAMUsed(q, u, a, true)
}

// Resequence gives the named live applications the submission order of
// ids: they keep the submission numbers and places they hold between
// them, permuted, and every leaf's active and pending lists are sorted
// again. A restore submits the applications that hold containers before
// the others (so that the waiting ones meet the AM limits the running ones
// leave), then puts them back in the order the cluster had.
func (s *Scheduler) Resequence(ids []string) error {
	s.invalidate(changeState, nil)
	apps := make([]*app, 0, len(ids))
	seen := make(map[*app]bool, len(ids))
	for _, id := range ids {
		a, err := s.liveApp(id)
		if err != nil {
			return fmt.Errorf("resequence: %w", err)
		}
		if seen[a] {
			return fmt.Errorf("resequence: %s is named twice", id)
		}
		seen[a] = true
		apps = append(apps, a)
	}
	seqs := make([]int64, len(apps))
	places := make([]int, len(apps))
	starts := make([]int32, len(apps))
	for i, a := range apps {
		seqs[i], places[i], starts[i] = a.seq, a.idx, a.start
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	sort.Ints(places)
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	leaves := map[*queue]bool{}
	for i, a := range apps {
		a.seq, a.idx, a.start = seqs[i], places[i], starts[i] // the attempts started in that order too
		s.apps[a.idx] = a
		leaves[a.queue] = true
	}
	for _, q := range s.queues {
		if !leaves[q] {
			continue
		}
		s.invalidate(changeLeafHead, q)
		if isFair(q) {
			s.fairResort(q)
		} else {
			sort.SliceStable(q.lf.active, func(i, j int) bool { return appLess(q.lf.active[i], q.lf.active[j]) })
		}
		sort.SliceStable(q.lf.pending, func(i, j int) bool { return appLess(q.lf.pending[i], q.lf.pending[j]) })
		q.lf.nonRunnable = sortByStart(q.lf.nonRunnable)
	}
	return nil
}

// SubmitRecovered is Submit for an application the RM recovers rather
// than receives: RMAppManager.createAndPopulateNewRMApp with isRecovery
// skips the queue ACL check, so an application restored from a snapshot is
// not refused for ACLs (whose users' groups the snapshot does not carry).
// The queue's other checks hold.
func (s *Scheduler) SubmitRecovered(sub Submission) error {
	acl := s.set.ACLEnabled
	s.set.ACLEnabled = false
	defer func() { s.set.ACLEnabled = acl }()
	return s.submit(sub, true)
}
