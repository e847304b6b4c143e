package core

import (
	"cmp"
	"fmt"
	"slices"
)

// max-parallel-apps (YARN-9930, Hadoop 3.3.1) is Hadoop's
// CSMaxRunningAppsEnforcer: an application attempt is runnable while its
// user has fewer runnable applications than its max-parallel-apps and
// every queue from its leaf to root has fewer than its own. One that is
// not stays accepted in its leaf's non-runnable list, neither pending nor
// active (it asks for no AM), until a runnable application leaves and it
// is checked again, in start order (section "max-parallel-apps" of
// docs/semantics.md).

// checkRunnable is CSMaxRunningAppsEnforcer.checkRunnabilityWithUpdate:
// the user's limit first (exceedUserMaxParallelApps), then the leaf and
// each ancestor (exceedQueueMaxParallelApps). It sets a.runnable and, when
// the application may not run, records why (once for each reason).
func (s *Scheduler) checkRunnable(a *app) bool {
	why, where, limit := ReasonNone, "", 0
	if l := s.set.MaxParallelAppsForUser(a.user); s.userRunnable[a.user] >= l {
		why, where, limit = ReasonUserMaxParallelApps, a.user, l
	} else {
		for q := a.queue; q != nil; q = q.parent {
			if q.numRunnable >= q.conf.MaxParallelApps {
				why, where, limit = ReasonQueueMaxParallelApps, q.path, q.conf.MaxParallelApps
				break
			}
		}
	}
	a.runnable = why == ReasonNone
	if a.runnable {
		return true
	}
	diag := fmt.Sprintf("%s: %s has %d runnable applications, its max-parallel-apps", why, where, limit)
	if why == ReasonUserMaxParallelApps {
		diag = fmt.Sprintf("%s: user %s has %d runnable applications, its max-parallel-apps", why, where, limit)
	}
	if a.diagnostics != diag {
		a.diagnostics = diag
		s.emit(Event{Kind: EvAppPending, App: a.id, User: a.user, Queue: a.queue.path, Reason: why, Seq: limit, Detail: where})
	}
	return false
}

// trackRunnable counts a runnable application in its leaf (LeafQueue's
// runnableApps), its ancestors (trackRunnableApp) and its user.
func (s *Scheduler) trackRunnable(a *app) {
	for q := a.queue; q != nil; q = q.parent {
		q.numRunnable++
	}
	if s.userRunnable == nil {
		s.userRunnable = map[string]int{}
	}
	s.userRunnable[a.user]++
}

// untrackRunnable is untrackRunnableApp with the leaf's runnableApps.remove.
func (s *Scheduler) untrackRunnable(a *app) {
	for q := a.queue; q != nil; q = q.parent {
		q.numRunnable--
	}
	if n := s.userRunnable[a.user] - 1; n <= 0 {
		delete(s.userRunnable, a.user)
	} else {
		s.userRunnable[a.user] = n
	}
}

// userNonRunnable is usersNonRunnableApps.get(user): the user's
// non-runnable applications in the order they were added, which is their
// attempts' start order.
func (s *Scheduler) userNonRunnable(user string) []*app {
	var out []*app
	for _, q := range s.queues {
		if q.lf == nil {
			continue
		}
		for _, a := range q.lf.nonRunnable {
			if a.user == user {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(a, b *app) int { return cmp.Compare(a.start, b.start) })
	return out
}

// updateRunnabilityOnAppRemoval is CSMaxRunningAppsEnforcer's: after a
// runnable application left, the highest queue that was at its limit
// before (now one below it) and the user's list, if the user was at its
// limit, are searched for applications that may now run. As in Hadoop, at
// most as many applications become runnable as lists were gathered.
func (s *Scheduler) updateRunnabilityOnAppRemoval(a *app) {
	if s.nonRunnable == 0 {
		return
	}
	leaf := a.queue
	var highest *queue
	for q := leaf; q != nil; q = q.parent {
		if int32(q.numRunnable) == int32(q.conf.MaxParallelApps)-1 { // Java int arithmetic
			highest = q
		}
	}
	var lists [][]*app
	if highest != nil {
		s.gatherPossiblyRunnable(highest, &lists)
	}
	if int32(s.userRunnable[a.user]) == int32(s.set.MaxParallelAppsForUser(a.user))-1 {
		lists = append(lists, s.userNonRunnable(a.user)) // never null: an empty list counts
	}
	s.updateAppsRunnability(lists, len(lists))
}

// updateRunnabilityOnReload is CSMaxRunningAppsEnforcer's after a refresh:
// every queue below its limit is searched, without a bound.
func (s *Scheduler) updateRunnabilityOnReload() {
	if s.nonRunnable == 0 {
		return
	}
	var lists [][]*app
	s.gatherPossiblyRunnable(s.root, &lists)
	s.updateAppsRunnability(lists, int(^uint32(0)>>1))
}

// gatherPossiblyRunnable is gatherPossiblyRunnableAppLists: the
// non-runnable lists of the leaves below q reached through queues under
// their limits.
func (s *Scheduler) gatherPossiblyRunnable(q *queue, lists *[][]*app) {
	if q.numRunnable >= q.conf.MaxParallelApps {
		return
	}
	if q.isLeaf() {
		*lists = append(*lists, slices.Clone(q.lf.nonRunnable))
		return
	}
	for _, c := range hadoopChildren(q) {
		s.gatherPossiblyRunnable(c, lists)
	}
}

// updateAppsRunnability is CSMaxRunningAppsEnforcer's: the lists are
// merged by start time (MultiListStartTimeIterator; an application in two
// lists comes twice in a row and is checked once), and each that may now
// run is tracked and submitted to its leaf, until maxRunnable have been.
func (s *Scheduler) updateAppsRunnability(lists [][]*app, maxRunnable int) {
	pos := make([]int, len(lists))
	var prev *app
	var now []*app
	for {
		best := -1
		for i, l := range lists {
			if pos[i] < len(l) && (best < 0 || l[pos[i]].start < lists[best][pos[best]].start) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		next := lists[best][pos[best]]
		pos[best]++
		if next == prev {
			continue
		}
		if s.checkRunnable(next) {
			s.trackRunnable(next)
			s.emit(Event{Kind: EvAppRunnable, App: next.id, User: next.user, Queue: next.queue.path})
			next.diagnostics = ""
			s.submitAttempt(next)
			now = append(now, next)
			if len(now) >= maxRunnable {
				break
			}
		}
		prev = next
	}
	for _, a := range now {
		a.queue.lf.nonRunnable = removeApp(a.queue.lf.nonRunnable, a)
		s.nonRunnable--
	}
}

// sortByStart sorts a non-runnable list by start order, the order the
// attempts were added in.
func sortByStart(list []*app) []*app {
	slices.SortFunc(list, func(a, b *app) int { return cmp.Compare(a.start, b.start) })
	return list
}
