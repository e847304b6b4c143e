package preemption

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"yarnplay/core/resource"
)

// This file is FifoCandidatesSelector with
// CapacitySchedulerPreemptionUtils.tryPreemptContainerAndDeductResToObtain.

// preemptionOrder sorts a leaf's applications as FifoOrderingPolicy.
// getPreemptionIterator returns them: the reverse of the FIFO order
// (PriorityComparator, then FifoComparator), i.e. lower application priority
// first, then the youngest (largest Seq) first; the id ends every tie.
func preemptionOrder(apps []App) []*App {
	out := make([]*App, len(apps))
	for i := range apps {
		out[i] = &apps[i]
	}
	slices.SortFunc(out, func(a, b *App) int {
		if a.Priority != b.Priority {
			return cmpInt(int64(a.Priority), int64(b.Priority))
		}
		if a.Seq != b.Seq {
			return cmpInt(b.Seq, a.Seq)
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out
}

// sortContainers is PreemptionCandidatesSelector.sortContainers: highest
// request-priority number (least important) first, then the largest
// container id (latest) first.
func sortContainers(cs []Container) {
	// sort.Slice, whose code the browser build has already, where an
	// instance of slices.SortFunc for Container would add to app.wasm;
	// the order is total (ids are unique), so any sort gives it.
	sort.Slice(cs, func(i, j int) bool {
		a, b := &cs[i], &cs[j]
		if a.RequestPriority != b.RequestPriority {
			return a.RequestPriority > b.RequestPriority
		}
		return a.ID > b.ID
	})
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// selector holds one round's candidate selection.
type selector struct {
	rc          resource.Calculator
	cluster     resource.Resource
	allowed     resource.Resource // totalPreemptionAllowed, decremented in place
	observeOnly bool
	chosen      map[ContainerID]bool // the round's candidate set (selectedCandidates)
	selected    []Selection
	reserveKill []Selection
}

// show renders r for a reason: memory only for the default calculator, whose
// vcores arithmetic here carries no meaning.
func (s *selector) show(r resource.Resource) string {
	if s.rc.Kind == resource.DefaultKind {
		return fmt.Sprintf("<memory:%d>", r.MemoryMB)
	}
	return r.String()
}

// leafRun is the per-leaf state: resToObtainByPartition with its single
// default-partition entry.
type leafRun struct {
	q          *tempQueue
	toObtain   resource.Resource
	active     bool // the partition is still in resToObtainByPartition
	skippedAM  []Container
	skippedApp []string
	skippedAMR resource.Resource
}

// tryPreempt is tryPreemptContainerAndDeductResToObtain with
// conservativeDRF = false.
func (s *selector) tryPreempt(l *leafRun, app string, c Container, reason string) bool {
	if s.chosen[c.ID] || !l.active {
		return false
	}
	// A zero type of toObtain becomes -1 so it cannot block the check below.
	if l.toObtain.MemoryMB == 0 {
		l.toObtain.MemoryMB = -1
	}
	if l.toObtain.VCores == 0 {
		l.toObtain.VCores = -1
	}
	if !anyMajorAboveZero(s.rc, l.toObtain) || !s.rc.FitsIn(c.Size, s.allowed) {
		return false
	}
	after := l.toObtain.Sub(c.Size)
	// Preempt only if the container makes a positive contribution.
	if !s.rc.LessThan(s.cluster, resource.ComponentwiseMax(after, none), resource.ComponentwiseMax(l.toObtain, none)) {
		return false
	}
	before := l.toObtain
	l.toObtain = after
	s.allowed = s.allowed.Sub(c.Size)
	if s.rc.LessThanOrEqual(s.cluster, l.toObtain, none) {
		l.active = false
	}
	s.chosen[c.ID] = true
	s.selected = append(s.selected, Selection{
		ContainerID: c.ID, App: app, Queue: l.q.path, Size: c.Size, IsAM: c.IsAM, Reserved: c.Reserved,
		Event:  NoEvent,
		Reason: fmt.Sprintf("%s; %s still had %s to give back", reason, l.q.path, s.show(before)),
	})
	return true
}

// preemptFrom is FifoCandidatesSelector.preemptFrom: an application's
// reservations first (each visited one is killed at once), then its live
// containers in sortContainers order, AM containers set aside.
func (s *selector) preemptFrom(l *leafRun, app *App) {
	var reserved, live []Container
	for _, c := range app.Containers {
		if c.Reserved {
			reserved = append(reserved, c)
		} else {
			live = append(live, c)
		}
	}
	// Hadoop lists reservations in its reservation map's order; sort them
	// like live containers so the order is fixed.
	sortContainers(reserved)
	for _, c := range reserved {
		if s.chosen[c.ID] {
			continue
		}
		if !l.active {
			return
		}
		s.tryPreempt(l, app.ID, c, fmt.Sprintf("reservation of %s dropped before its live containers", app.ID))
		if !s.observeOnly {
			s.reserveKill = append(s.reserveKill, Selection{
				ContainerID: c.ID, App: app.ID, Queue: l.q.path, Size: c.Size, IsAM: c.IsAM, Reserved: true,
				Event:  KillReserved,
				Reason: fmt.Sprintf("reservation of %s in %s killed at once while the queue must give back resources", app.ID, l.q.path),
			})
		}
	}
	sortContainers(live)
	for _, c := range live {
		if !l.active {
			return
		}
		if s.chosen[c.ID] {
			continue
		}
		if c.IsAM {
			l.skippedAM = append(l.skippedAM, c)
			l.skippedApp = append(l.skippedApp, app.ID)
			l.skippedAMR = l.skippedAMR.Add(c.Size)
			continue
		}
		s.tryPreempt(l, app.ID, c, fmt.Sprintf("%s (app priority %d; lowest priority, youngest app first), request priority %d (highest number, newest container first)",
			app.ID, app.Priority, c.RequestPriority))
	}
}

// preemptAMContainers takes skipped AM containers while more is needed and
// the queue's skipped AM resource exceeds maxAM (Guaranteed x MaxAMPercent).
func (s *selector) preemptAMContainers(l *leafRun, maxAM resource.Resource) {
	for i, c := range l.skippedAM {
		if !l.active {
			break
		}
		if s.rc.LessThanOrEqual(s.cluster, l.skippedAMR, maxAM) {
			break
		}
		reason := fmt.Sprintf("AM container of %s taken after the queue's other containers (skipped AM %s > kept AM %s)",
			l.skippedApp[i], s.show(l.skippedAMR), s.show(maxAM))
		if s.tryPreempt(l, l.skippedApp[i], c, reason) {
			l.skippedAMR = l.skippedAMR.Sub(c.Size)
		}
	}
	l.skippedAM, l.skippedApp = nil, nil
}

// selectCandidates is FifoCandidatesSelector.selectCandidates (after the
// ideal allocation): every leaf with preemption enabled gives back up to its
// ResToObtain, within the round's limit. Leaves are visited in pre-order
// (Hadoop iterates a HashSet of queue names).
func (s *selector) selectCandidates(leaves []*tempQueue) {
	for _, q := range leaves {
		if q.preemptionDisabled {
			continue
		}
		l := &leafRun{q: q}
		// getResToObtainByPartitionForLeafQueue.
		if s.rc.GreaterThan(s.cluster, q.actuallyToBePreempted, none) {
			l.toObtain, l.active = q.actuallyToBePreempted, true
		}
		for _, app := range preemptionOrder(q.q.Apps) {
			if !l.active {
				break
			}
			s.preemptFrom(l, app)
		}
		maxAM := multiply(q.guaranteed, float64(q.q.MaxAMPercent))
		s.preemptAMContainers(l, maxAM)
	}
}
