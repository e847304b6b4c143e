package core

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// Submit submits an application and adds its attempt, accepting or rejecting
// it as Hadoop's RMAppManager and CapacityScheduler.addApplication do
// (sections 6.6 and 10). A rejected application is recorded with state
// REJECTED and its message; nothing else changes.
func (s *Scheduler) Submit(sub Submission) error { return s.submit(sub, false) }

// submit is Submit; recovering is an application restored from a running
// cluster (SubmitRecovered), whose queue may be an auto-created leaf to
// create again.
func (s *Scheduler) submit(sub Submission, recovering bool) error {
	s.invalidate(changeState, nil)
	if sub.App == "" {
		return fmt.Errorf("submit: the application needs an id")
	}
	if sub.User == "" {
		return fmt.Errorf("submit %s: the application needs a user", sub.App)
	}
	if _, dup := s.appIdx[sub.App]; dup {
		return fmt.Errorf("submit %s: an application with this id was already submitted", sub.App)
	}
	reject := func(msg string) error {
		s.rejected[sub.App] = rejection{user: sub.User, queue: sub.Queue, message: msg}
		s.emit(Event{Kind: EvAppRejected, App: sub.App, User: sub.User, Queue: sub.Queue, Detail: msg})
		return &SubmitError{App: sub.App, Message: msg}
	}
	// RMAppManager.placeApplication: the queue mappings may place it
	// elsewhere (copyPlacementQueueToSubmissionContext).
	queueName := sub.Queue
	pc, perr := s.place(sub.User, sub.Queue, recovering)
	if perr != nil {
		return reject(fmt.Sprintf("Failed to submit application %s submitted by user %s reason: %s", sub.App, sub.User, perr.Error()))
	}
	if pc != nil {
		queueName = pc.queue
	}
	q, lookupErr := s.lookupQueue(queueName)
	var amRes resource.Resource
	if sub.AM != nil {
		maxAlloc := s.set.MaxAlloc
		if q != nil && q.isLeaf() {
			maxAlloc = q.conf.MaxAlloc
		}
		if err := s.validateAsk(*sub.AM, maxAlloc); err != nil {
			return reject(err.Error())
		}
		amRes = s.rc.Normalize(*sub.AM, s.minAlloc(), maxAlloc, s.minAlloc())
		if sub.AM.IsZero() {
			amRes = resource.None
		}
	}
	// RMAppManager: the ACL check, when yarn.acl.enable is on and the
	// queue exists (or, for a queue still to be auto-created, its parent).
	if aclQ := q; s.set.ACLEnabled {
		if aclQ == nil && pc != nil {
			aclQ, _ = s.lookupQueue(pc.parent)
		}
		g := s.userGroups(sub.User, nil)
		if aclQ != nil && !s.hasAccess(aclQ, SubmitApplications, sub.User, g) && !s.hasAccess(aclQ, AdministerQueue, sub.User, g) {
			return reject(fmt.Sprintf("User %s does not have permission to submit %s to queue %s", sub.User, sub.App, queueName))
		}
	}
	// CapacityScheduler.addApplication.
	if s.root.numApps >= s.set.MaxApplications {
		return reject("Maximum system application limit reached,cannot accept submission of application: " + sub.App)
	}
	// getOrCreateQueueFromPlacementContext.
	if q == nil && pc != nil && pc.parent != "" {
		nq, err := s.autoCreateLeaf(pc)
		if err != nil {
			return reject(fmt.Sprintf("Application %s submission by user : %s to  queue : %s failed : %s", sub.App, sub.User, queueName, err.Error()))
		}
		q, lookupErr = nq, nil
	}
	// Hadoop 3.4 also creates a queue named by its full path without a
	// placement; a failure then leaves it unknown.
	if q == nil && pc == nil && s.profile.AtLeast34() && strings.Contains(queueName, ".") && !isAmbiguous(lookupErr) {
		if nq, err := s.createFlexibleLeaf(queueName); err == nil {
			q, lookupErr = nq, nil
		}
	}
	if lookupErr != nil {
		if q == nil && isAmbiguous(lookupErr) {
			return reject(fmt.Sprintf("Application %s submitted by user %s to ambiguous queue: %s please use full queue path instead.", sub.App, sub.User, queueName))
		}
		return reject(fmt.Sprintf("Application %s submitted by user %s to unknown queue: %s", sub.App, sub.User, queueName))
	}
	if !q.isLeaf() {
		return reject(fmt.Sprintf("Application %s submitted by user : %s to non-leaf queue : %s", sub.App, sub.User, queueName))
	}
	if q.conf.AutoCreated {
		if pc == nil {
			return reject(fmt.Sprintf("Application %s submission by user : %s to specified queue : %s  is prohibited. "+
				"Verify automatic queue mapping for user exists in %s", sub.App, sub.User, queueName, config.KeyQueueMappings))
		}
		if q.parent.name != pc.parent && q.parent.path != pc.parent {
			return reject(fmt.Sprintf("Auto created Leaf queue %s already exists under queue : %s. But Queue mapping configuration %s "+
				"has been updated to a different parent queue : %s for the specified user : %s", pc.queue, q.parent.name,
				config.KeyQueueMappings, pc.parent, sub.User))
		}
	}
	// LeafQueue.validateSubmitApplication, then every ancestor's.
	if q.state != config.Running {
		return reject(fmt.Sprintf("Queue %s is STOPPED. Cannot accept submission of application: %s", q.path, sub.App))
	}
	if q.numApps >= q.conf.MaxApplications {
		return reject(fmt.Sprintf("Queue %s already has %d applications, cannot accept submission of application: %s", q.path, q.numApps, sub.App))
	}
	if u := q.lf.users[sub.User]; u != nil && u.totalApps() >= q.conf.MaxApplicationsPerUser {
		return reject(fmt.Sprintf("Queue %s already has %d applications from user %s cannot accept submission of application: %s", q.path, u.totalApps(), sub.User, sub.App))
	} else if u == nil && q.conf.MaxApplicationsPerUser <= 0 {
		return reject(fmt.Sprintf("Queue %s already has 0 applications from user %s cannot accept submission of application: %s", q.path, sub.User, sub.App))
	}
	for p := q.parent; p != nil; p = p.parent {
		if p.state != config.Running {
			return reject(fmt.Sprintf("Queue %s is STOPPED. Cannot accept submission of application: %s", p.path, sub.App))
		}
	}

	// RMAppManager.validateAndCreateResourceRequest: the AM request's
	// label expression (the AM's, else the application's, else the
	// queue's default), validated as an ask's.
	amPart := ""
	if sub.AM != nil || sub.Label != "" || sub.AMLabel != "" {
		var amLabel *string
		if sub.AMLabel != "" {
			amLabel = &sub.AMLabel
		}
		amPart = requestPartition(amLabel, sub.Label, q)
		if err := s.checkLabelExpression(q, amPart); err != nil {
			return reject(err.Error())
		}
	}
	if sub.Label != "" {
		if err := s.checkLabelExpression(q, sub.Label); err != nil {
			return reject(err.Error())
		}
	}
	prio := q.conf.DefaultAppPriority
	if sub.Priority != nil {
		prio = *sub.Priority
	}
	if prio > s.set.MaxAppPriority {
		prio = s.set.MaxAppPriority
	}
	delete(s.rejected, sub.App)
	a := one(&s.blk.apps, appBlock)
	*a = app{
		id: sub.App, seq: s.nextSeq, user: sub.User, queue: q, state: AppAccepted,
		priority: prio, amResource: amRes, hasAM: sub.AM != nil,
		amRequested: sub.AM != nil && sub.AMContainerRequest, submitTick: tickInt32(s.now), attempt: 1,
	}
	s.nextSeq++
	if sub.Label != "" {
		s.lbl.app[a.id] = sub.Label
	}
	if amPart != "" && sub.AM != nil {
		s.lbl.am[a.id] = amPart
	}
	a.idx = len(s.apps)
	s.apps = append(s.apps, a)
	s.appIdx[a.id] = a
	for p := q; p != nil; p = p.parent {
		p.numApps++
	}
	q.lastSubmittedMS = s.nowMS() // LeafQueue.submitApplication: the signal for expired auto deletion
	s.emit(Event{Kind: EvAppSubmitted, App: a.id, User: a.user, Queue: q.path, Resource: amRes, Priority: prio})
	s.addAttempt(a)
	if a.amRequested {
		s.requestAM(a)
	}
	return nil
}

// requestAM is the RM's ask for an attempt's AM container: one of the AM
// resource, at request priority 0, anywhere.
func (s *Scheduler) requestAM(a *app) {
	part := s.amPartition(a)
	s.applyAsks(a, []Ask{{App: a.id, Priority: 0, Resource: a.amResource, Count: 1, Locality: AnyLocation, Label: &part}}, true)
}

// addAttempt is CapacityScheduler.addApplicationAttempt: the attempt
// starts (its start order is a.start), CSMaxRunningAppsEnforcer decides
// whether it may run (checkRunnable) and tracks it, and
// LeafQueue.submitApplicationAttempt adds it to its leaf: a non-runnable
// one to the leaf's non-runnable list only (addApplicationAttempt returns
// there), its user created but given no application.
func (s *Scheduler) addAttempt(a *app) {
	q := a.queue
	a.usr = s.getUser(q, a.user)
	a.start = s.nextStart
	s.nextStart++
	if !s.checkRunnable(a) {
		q.lf.nonRunnable = append(q.lf.nonRunnable, a)
		s.nonRunnable++
		return
	}
	s.trackRunnable(a)
	s.submitAttempt(a)
}

// submitAttempt is the rest of LeafQueue.addApplicationAttempt for a
// runnable attempt: it joins its leaf's pending applications, which are
// activated as the AM limits allow, unless the cluster is empty.
func (s *Scheduler) submitAttempt(a *app) {
	q, u := a.queue, a.usr
	q.lf.countApps(u, 1, 0)
	q.lf.pending = insertApp(q.lf.pending, a)
	if whole := s.wholeCluster(); s.rc.GreaterThan(whole, whole, resource.None) {
		s.activateApplications(q)
	} else {
		a.diagnostics = "cluster resource is empty: the application waits for nodes"
	}
}

// SubmitError is a rejected submission; its text is Hadoop's message.
type SubmitError struct {
	App     string
	Message string
}

func (e *SubmitError) Error() string { return e.Message }

func isAmbiguous(err error) bool {
	for e := err; e != nil; {
		if e == ErrAmbiguousQueue {
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

// appLess is the FIFO order (FifoComparator): higher application priority
// first, then submission order.
func appLess(a, b *app) bool {
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	return a.seq < b.seq
}

func insertApp(list []*app, a *app) []*app {
	i := sort.Search(len(list), func(i int) bool { return appLess(a, list[i]) })
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = a
	return list
}

func removeApp(list []*app, a *app) []*app {
	for i, x := range list {
		if x == a {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// activateApplications moves pending applications to the active list while
// the queue and user AM limits allow (LeafQueue.activateApplications, section 6.5).
func (s *Scheduler) activateApplications(q *queue) {
	s.invalidate(changeLeaf, q)
	lf := q.lf
	if len(lf.pending) == 0 {
		return
	}
	// The limits per AM partition, computed when first needed: the
	// queue's (getAMResourceLimitPerPartition) and the users'
	// (userAmPartitionLimit, computed for the first user reaching it).
	amLimits := map[string]resource.Resource{}
	userAMLimits := map[string]resource.Resource{}
	rest := lf.pending[:0:0]
	for _, a := range lf.pending {
		part := s.amPartition(a)
		amLimit, ok := amLimits[part]
		if !ok {
			amLimit = s.amLimitP(q, part)
			amLimits[part] = amLimit
		}
		u := s.getUser(q, a.user)
		queueAM, _ := s.amUsedP(q, u, part)
		amIfStarted := a.amResource.Add(queueAM)
		if !s.rc.FitsIn(amIfStarted, amLimit) {
			if len(lf.active) < 1 || s.rc.LessThanOrEqual(s.cluster, queueAM, resource.None) {
				// "at least one application" escape hatch
			} else {
				if a.diagnostics != string(ReasonQueueAMLimit) {
					s.emit(Event{Kind: EvAppPending, App: a.id, User: a.user, Queue: q.path, Reason: ReasonQueueAMLimit, Used: amIfStarted, Limit: amLimit, Partition: part})
				}
				a.diagnostics = string(ReasonQueueAMLimit)
				rest = append(rest, a)
				continue
			}
		}
		userAMLimit, ok := userAMLimits[part]
		if !ok {
			userAMLimit = s.userAMLimitP(q, part, a.user)
			userAMLimits[part] = userAMLimit
		}
		_, userAM := s.amUsedP(q, u, part)
		userAmIfStarted := a.amResource.Add(userAM)
		if !s.rc.FitsIn(userAmIfStarted, userAMLimit) {
			if len(lf.active) < 1 || s.rc.LessThanOrEqual(s.cluster, queueAM, resource.None) {
				// escape hatch, as above
			} else {
				if a.diagnostics != string(ReasonUserAMLimit) {
					s.emit(Event{Kind: EvAppPending, App: a.id, User: a.user, Queue: q.path, Reason: ReasonUserAMLimit, Used: userAmIfStarted, Limit: userAMLimit, Partition: part})
				}
				a.diagnostics = string(ReasonUserAMLimit)
				rest = append(rest, a)
				continue
			}
		}
		lf.countApps(u, -1, 1)
		a.activated = true
		a.diagnostics = ""
		if isFair(q) {
			s.fairInsert(q, a, fairKey{}) // addSchedulableEntity: nothing cached yet
		} else {
			lf.active = insertApp(lf.active, a)
		}
		s.invalidate(changeLeafHead, q)
		s.addAMUsed(q, u, a, true)
		queueAM, _ = s.amUsedP(q, u, part)
		s.emit(Event{Kind: EvAppActivated, App: a.id, User: a.user, Queue: q.path, Resource: a.amResource, Used: queueAM, Limit: amLimit, Partition: part})
		if !a.amRequested && a.state == AppAccepted {
			s.setAppState(a, AppRunning)
		}
	}
	lf.pending = rest
}

func (s *Scheduler) setAppState(a *app, st AppState) {
	if !CanTransition(a.state, st) {
		panic(fmt.Sprintf("core: application %s cannot move from %s to %s", a.id, a.state, st))
	}
	a.state = st
	switch st {
	case AppRunning:
		s.emit(Event{Kind: EvAppRunning, App: a.id, User: a.user, Queue: a.queue.path})
	}
}

// validateAsk refuses a resource larger than the maximum allocation, or
// negative (SchedulerUtils.validateResourceRequest).
func (s *Scheduler) validateAsk(r, maxAlloc resource.Resource) error {
	if r.MemoryMB < 0 || r.VCores < 0 {
		return fmt.Errorf("Invalid resource ask by application: negative resource %s", r)
	}
	if r.MemoryMB > maxAlloc.MemoryMB {
		return fmt.Errorf("Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed allocation. Requested resource type=[memory-mb], Requested resource=%s, maximum allowed allocation=%s", r, maxAlloc)
	}
	if r.VCores > maxAlloc.VCores {
		return fmt.Errorf("Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed allocation. Requested resource type=[vcores], Requested resource=%s, maximum allowed allocation=%s", r, maxAlloc)
	}
	return nil
}

func (s *Scheduler) liveApp(id string) (*app, error) {
	a, ok := s.appIdx[id]
	if !ok {
		if _, rej := s.rejected[id]; rej {
			return nil, fmt.Errorf("application %s was rejected", id)
		}
		return nil, fmt.Errorf("unknown application %q", id)
	}
	if a.state != AppAccepted && a.state != AppRunning {
		return nil, fmt.Errorf("application %s is %s", id, a.state)
	}
	return a, nil
}

// Request is one allocate call of an AM: the asks replace the previous counts
// for (application, request priority, location), as YARN's
// AppSchedulingInfo.updateResourceRequests does. The whole call is validated
// first; a refused call changes nothing.
func (s *Scheduler) Request(asks []Ask) error {
	s.invalidate(changeState, nil)
	if len(asks) == 0 {
		return fmt.Errorf("request: no asks")
	}
	for i, k := range asks {
		a, err := s.liveApp(k.App)
		if err != nil {
			return fmt.Errorf("request %d: %w", i+1, err)
		}
		if k.Count < 0 {
			return fmt.Errorf("request %d: count %d for %s must not be negative", i+1, k.Count, k.App)
		}
		if k.Priority < 0 {
			return fmt.Errorf("request %d: request priority %d for %s must not be negative", i+1, k.Priority, k.App)
		}
		if k.Locality == "" {
			return fmt.Errorf("request %d: %s needs a locality: a node, a rack or \"*\"", i+1, k.App)
		}
		if k.Duration < 0 {
			return fmt.Errorf("request %d: duration %d must not be negative", i+1, k.Duration)
		}
		if err := s.validateAsk(k.Resource, a.queue.conf.MaxAlloc); err != nil {
			return fmt.Errorf("request %d: %w", i+1, err)
		}
		if k.Label != nil && strings.TrimSpace(*k.Label) != "" && k.Locality != AnyLocation {
			return fmt.Errorf("request %d: Invalid resource request, queue=%s specified node label expression in a resource request has resource name = %s", i+1, a.queue.name, k.Locality)
		}
		if k.Locality == AnyLocation {
			if err := s.checkLabelExpression(a.queue, requestPartition(k.Label, s.appLabel(a), a.queue)); err != nil {
				return fmt.Errorf("request %d: %w", i+1, err)
			}
		}
	}
	byApp := map[string][]Ask{}
	var order []string
	for _, k := range asks {
		if _, seen := byApp[k.App]; !seen {
			order = append(order, k.App)
		}
		byApp[k.App] = append(byApp[k.App], k)
	}
	for _, id := range order {
		a := s.appIdx[id]
		s.applyAsks(a, byApp[id], false)
		for _, k := range byApp[id] {
			if k.Locality == AnyLocation { // updateResourceRequests: an off-switch ask changed
				s.fairDemandUpdated(a)
				break
			}
		}
	}
	return nil
}

// applyAsks applies one allocate call's asks of one application. As in
// Hadoop, every ask of a request priority is put in its placement first, then
// the change of the "*" ask updates pending resources and active users once.
func (s *Scheduler) applyAsks(a *app, asks []Ask, am bool) {
	s.invalidate(changeLeaf, a.queue)
	q := a.queue
	var prios []int
	byPrio := map[int][]Ask{}
	for _, k := range asks {
		if _, seen := byPrio[k.Priority]; !seen {
			prios = append(prios, k.Priority)
		}
		byPrio[k.Priority] = append(byPrio[k.Priority], k)
	}
	for _, prio := range prios {
		r := a.requestAt(prio, &s.blk)
		if !r.placed {
			r.placed = true
			r.asks = nil
		}
		if am {
			r.isAM = true
		}
		lastSize, lastCount, hadLast, lastLabel := r.size, 0, false, r.label
		if la := r.ask(AnyLocation); la != nil {
			lastCount, hadLast = la.count, true
		}
		anyCount, anySeen := 0, false
		for _, k := range byPrio[prio] {
			size := s.rc.Normalize(k.Resource, s.minAlloc(), q.conf.MaxAlloc, s.minAlloc())
			relax := k.RelaxLocality == nil || *k.RelaxLocality
			if la := r.ask(k.Locality); la != nil {
				la.count, la.relax = k.Count, relax
			} else {
				r.asks = append(r.asks, locAsk{name: k.Locality, count: k.Count, relax: relax})
			}
			if k.Locality == AnyLocation || !hadLast && !anySeen {
				r.size = size
				r.duration = k.Duration
			}
			if k.Locality == AnyLocation {
				anyCount, anySeen = k.Count, true
				r.label = requestPartition(k.Label, s.appLabel(a), q)
			}
			s.emit(Event{Kind: EvRequest, App: a.id, User: a.user, Queue: q.path, Priority: prio, Resource: size, Seq: k.Count, Detail: k.Locality})
		}
		if anySeen {
			s.updatePending(a, r, lastSize, lastCount, r.size, anyCount, hadLast, lastLabel)
		}
	}
	s.refreshDemand(a)
}

// updatePending is AppSchedulingInfo.updatePendingResources for a change of
// the "*" ask.
func (s *Scheduler) updatePending(a *app, r *request, lastSize resource.Resource, lastCount int, newSize resource.Resource, newCount int, hadLast bool, lastLabel string) {
	if newCount <= 0 {
		// The placement is dropped: every location ask of this priority goes.
		r.placed = false
		r.asks = nil
		if !a.hasOutstanding() {
			s.deactivateUserApp(a)
		}
	} else if lastCount <= 0 {
		s.activateUserApp(a)
	}
	if hadLast && lastCount > 0 {
		s.addPendingFor(a.queue, lastLabel, lastSize.Times(int64(lastCount)), false)
	}
	if newCount > 0 {
		s.addPendingFor(a.queue, r.label, newSize.Times(int64(newCount)), true)
	}
}

// addPendingFor changes the pending resources of a queue and its
// ancestors for a partition (AppSchedulingInfo.updatePendingResources:
// the request's partition).
func (s *Scheduler) addPendingFor(q *queue, label string, r resource.Resource, add bool) {
	if label == "" {
		s.addPending(q, r, add)
		return
	}
	s.addPartPending(q, label, r, add)
}

func (s *Scheduler) addPending(q *queue, r resource.Resource, add bool) {
	s.invalidate(changeLeaf, q)
	for p := q; p != nil; p = p.parent {
		if add {
			p.pending = p.pending.Add(r)
		} else {
			p.pending = p.pending.Sub(r)
		}
	}
}

func (a *app) requestAt(prio int, blk *allocBlocks) *request {
	i := sort.Search(len(a.requests), func(i int) bool { return a.requests[i].priority >= prio })
	if i < len(a.requests) && a.requests[i].priority == prio {
		return a.requests[i]
	}
	r := one(&blk.requests, requestBlock)
	r.priority = prio
	a.requests = append(a.requests, nil)
	copy(a.requests[i+1:], a.requests[i:])
	a.requests[i] = r
	return r
}

func (a *app) findRequest(prio int) *request {
	i := sort.Search(len(a.requests), func(i int) bool { return a.requests[i].priority >= prio })
	if i < len(a.requests) && a.requests[i].priority == prio {
		return a.requests[i]
	}
	return nil
}

// refreshDemand recomputes a.demand after the asks changed.
func (s *Scheduler) refreshDemand(a *app) {
	d := a.hasOutstanding()
	if d && !a.demand {
		s.invalidate(changeLeafHead, a.queue)
	}
	a.demand = d
}

// hasOutstanding reports whether some request priority still wants containers.
func (a *app) hasOutstanding() bool {
	for _, r := range a.requests {
		if r.placed && r.outstanding() > 0 {
			return true
		}
	}
	return false
}

// FinishApp finishes the application's attempt: its containers and
// reservations are released, its AM usage returned, pending applications
// reconsidered, and a DRAINING queue may stop (section 12).
func (s *Scheduler) FinishApp(id string) error {
	s.invalidate(changeState, nil)
	a, err := s.liveApp(id)
	if err != nil {
		return fmt.Errorf("finish_app: %w", err)
	}
	s.endApp(a, AppFinished, ReasonAppFinished)
	return nil
}

// KillApp kills an application, if by owns it, may administer its queue, is
// a cluster administrator (yarn.admin.acl), or ACLs are disabled.
func (s *Scheduler) KillApp(id, by string) error {
	s.invalidate(changeState, nil)
	a, err := s.liveApp(id)
	if err != nil {
		return fmt.Errorf("kill_app: %w", err)
	}
	if s.set.ACLEnabled && by != a.user {
		g := s.userGroups(by, nil)
		if !s.set.AdminACL.Allows(by, g) && !s.hasAccess(a.queue, AdministerQueue, by, g) {
			return fmt.Errorf("User %s cannot perform operation MODIFY_APP on %s", by, a.id)
		}
	}
	s.endApp(a, AppKilled, ReasonAppFinished)
	return nil
}

// endApp is CapacityScheduler.doneApplicationAttempt and doneApplication.
func (s *Scheduler) endApp(a *app, st AppState, why Reason) {
	q, runnable := a.queue, a.runnable
	s.removeAttempt(a, why)
	s.setAppStateEnd(a, st)
	s.activateApplications(q)
	if runnable {
		s.updateRunnabilityOnAppRemoval(a)
	}
	for p := q; p != nil; p = p.parent {
		p.numApps--
		if p.state == config.Draining && p.numApps == 0 {
			p.state = config.Stopped
			s.emit(Event{Kind: EvQueueState, Queue: p.path, Detail: string(config.Stopped), Reason: ReasonAppFinished})
		}
	}
}

func (s *Scheduler) setAppStateEnd(a *app, st AppState) {
	if !CanTransition(a.state, st) {
		panic(fmt.Sprintf("core: application %s cannot move from %s to %s", a.id, a.state, st))
	}
	a.state = st
	a.finishTick = tickInt32(s.now)
	kind := EvAppFinished
	if st == AppKilled {
		kind = EvAppKilled
	}
	s.emit(Event{Kind: kind, App: a.id, User: a.user, Queue: a.queue.path})
}

// tickInt32 is a tick as an app keeps it: saturated at the largest int32
// (some 68 years of one-second ticks).
func tickInt32(t int64) int32 {
	return int32(min(max(t, 0), math.MaxInt32))
}
