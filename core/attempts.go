package core

import "fmt"

// failAttempt fails an attempt whose AM container was lost (its node left
// the cluster, or it was preempted) and starts the next one, as Hadoop's
// RM does: RMAppAttemptImpl fails the attempt when its AM container exits,
// and RMAppImpl's AttemptFailedTransition starts a new attempt, since
// these exits (ABORTED, PREEMPTED) do not count toward
// yarn.resourcemanager.am.max-attempts. The scheduler removes the old
// attempt (doneApplicationAttempt, containers not kept: every container
// killed, every reservation released, the asks dropped, the AM usage
// returned, pending applications activated), then adds the new one to the
// leaf's pending applications at the application's place, and the RM asks
// for its AM container. The application is ACCEPTED until that runs; the
// new attempt asks for nothing else until its AM does (a scenario's asks).
func (s *Scheduler) failAttempt(a *app, lost Reason) {
	q := a.queue
	s.removeAttempt(a, ReasonAttemptFailed)
	exit := -100 // ContainerExitStatus.ABORTED, a lost node's containers
	if lost == ReasonPreempted {
		exit = -102 // ContainerExitStatus.PREEMPTED
	}
	diag := fmt.Sprintf("AM Container for attempt %d of %s exited with exitCode: %d (%s). Failing this attempt. "+
		"Attempt %d starts: an AM lost this way does not count toward yarn.resourcemanager.am.max-attempts.", a.attempt, a.id, exit, lost, a.attempt+1)
	s.setAppState(a, AppAccepted)
	a.attempt++
	a.activated = false
	a.requests = nil
	s.emit(Event{Kind: EvAttemptFailed, App: a.id, User: a.user, Queue: q.path, Reason: lost, Seq: int(a.attempt), Detail: diag})
	s.activateApplications(q)
	s.updateRunnabilityOnAppRemoval(a) // the failed attempt was runnable: it had an AM
	s.addAttempt(a)
	s.requestAM(a)
}

// removeAttempt is the first part of CapacityScheduler.doneApplicationAttempt
// (keepContainers false): the attempt's containers are completed for why,
// its reservations and asks dropped, and it leaves its leaf's lists, its AM
// usage returned (LeafQueue.removeApplicationAttempt).
func (s *Scheduler) removeAttempt(a *app, why Reason) {
	s.invalidate(changeLeaf, a.queue)
	q := a.queue
	for len(a.live) > 0 {
		s.completeContainer(a.live[len(a.live)-1], why)
	}
	for len(a.reservations) > 0 {
		s.unreserve(a.reservations[len(a.reservations)-1], why, true)
	}
	// clear the requests (AppSchedulingInfo.stop)
	for _, r := range a.requests {
		if r.placed && r.outstanding() > 0 {
			s.addPendingFor(q, r.label, r.size.Times(int64(r.outstanding())), false)
		}
		r.placed = false
		r.asks = nil
	}
	s.refreshDemand(a)
	s.deactivateUserApp(a)
	u := q.lf.users[a.user]
	if a.activated {
		if isFair(q) {
			s.fairRemove(q, a)
		} else {
			q.lf.active = removeApp(q.lf.active, a)
		}
		s.invalidate(changeLeafHead, q)
		s.addAMUsed(q, u, a, false)
		q.lf.countApps(u, 0, -1)
	} else {
		if a.runnable {
			q.lf.pending = removeApp(q.lf.pending, a)
			q.lf.countApps(u, -1, 0)
		} else {
			// Hadoop 3.3 calls User.finishApplication(false) here too,
			// for an attempt never counted pending: the user's count goes
			// below 0, and a user with live applications can be removed
			// (getTotalApplications() == 0). yarnplay does not follow
			// that (docs/semantics.md, section 14.5).
			q.lf.nonRunnable = removeApp(q.lf.nonRunnable, a)
			s.nonRunnable--
		}
	}
	if a.runnable {
		s.untrackRunnable(a) // CSMaxRunningAppsEnforcer.untrackApp
	}
	if u.totalApps() == 0 && u.used.IsZero() && !hasNonRunnable(q, a.user) {
		delete(q.lf.users, a.user) // UsersManager.removeUser
	}
}

// hasNonRunnable reports whether user has an application in q's
// non-runnable list. Hadoop removes a user whose counted applications are
// all gone even then, and makes a new one when the application becomes
// runnable (getUserAndAddIfAbsent); the user is kept instead, with the same
// numbers (no applications, nothing used), so that a live application's
// user is always its leaf's.
func hasNonRunnable(q *queue, user string) bool {
	for _, a := range q.lf.nonRunnable {
		if a.user == user {
			return true
		}
	}
	return false
}
