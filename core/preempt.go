package core

import "yarnplay/core/preemption"

// preemptState is the live preemption monitor's memory: the containers
// selected in earlier rounds, and the last round's decision for the UI.
type preemptState struct {
	st   *preemption.State
	last *preemption.Decision // never mutated after a round
}

func newPreemptState() preemptState { return preemptState{st: preemption.NewState()} }

func (p preemptState) clone() preemptState {
	return preemptState{st: p.st.Clone(), last: p.last}
}

// preemptionSettings converts the configured keys for the policy.
func (s *Scheduler) preemptionSettings() preemption.Settings {
	p := s.set.Preemption
	return preemption.Settings{
		Enabled: p.Enabled, ObserveOnly: p.ObserveOnly, MonitoringIntervalMS: p.MonitoringIntervalMS,
		MaxWaitBeforeKillMS: p.MaxWaitBeforeKillMS, TotalPreemptionPerRound: p.TotalPreemptionPerRound,
		MaxIgnoredOverCapacity: p.MaxIgnoredOverCapacity, NaturalTerminationFactor: p.NaturalTerminationFactor,
	}
}

// monitor runs the preemption policy when it is enabled
// (yarn.resourcemanager.scheduler.monitor.enable) and a monitoring interval
// of simulated time has passed.
func (s *Scheduler) monitor() {
	p := s.set.Preemption
	if !p.Enabled {
		return
	}
	every := max(int64(1), p.MonitoringIntervalMS/max(int64(1), s.set.HeartbeatIntervalMS))
	if s.now%every != 0 {
		return
	}
	s.preemptionRound()
}

// LastPreemption returns the decision of the last preemption round, if any.
func (s *Scheduler) LastPreemption() (preemption.Decision, bool) {
	if s.preempt.last == nil {
		return preemption.Decision{}, false
	}
	return *s.preempt.last, true
}

// preemptionRound runs one round of the proportional capacity preemption
// policy on the live state (section 11): newly selected containers are
// marked, containers selected longer than max_wait_before_kill ago are
// killed (reservations at once), and the killed containers' requests are
// asked for again, as an ApplicationMaster does. An attempt whose AM
// container is killed fails, and the next one starts (failAttempt).
func (s *Scheduler) preemptionRound() preemption.Decision {
	s.invalidate(changeState, nil)
	snap := s.preemptionSnapshot()
	d := preemption.Round(snap, s.preempt.st, s.preemptionSettings(), s.nowMS())
	s.preempt.last = &d
	byID := map[int64]*container{}
	for _, a := range s.apps {
		for _, c := range a.live {
			if c != nil {
				byID[c.id] = c
			}
		}
		for _, c := range a.reservations {
			byID[c.id] = c
		}
	}
	for _, m := range d.Marked {
		s.emit(Event{Kind: EvPreemptionMarked, Queue: m.Queue, App: m.App, Container: int64(m.ContainerID), Resource: m.Size, Detail: m.Reason})
	}
	// Attempts whose AM was killed fail after the round's kills, which
	// Hadoop's scheduler handles before the attempts' removals.
	var lost []*app
	for _, k := range d.Killed {
		c := byID[int64(k.ContainerID)]
		if c == nil {
			continue
		}
		delete(byID, c.id)
		s.emit(Event{Kind: EvPreemptionKilled, Node: c.node.name, Queue: k.Queue, App: k.App, Container: c.id, Resource: c.size, Detail: k.Reason})
		if c.reserved {
			s.unreserve(c, ReasonPreempted, true)
			continue
		}
		a := c.app
		s.completeContainer(c, ReasonPreempted)
		if c.isAM {
			if a.state == AppRunning {
				lost = append(lost, a)
			}
		} else if r := a.findRequest(c.priority); r != nil {
			s.applyAsks(a, []Ask{{App: a.id, Priority: c.priority, Resource: c.size, Count: r.outstanding() + 1, Locality: AnyLocation, Duration: r.duration}}, false)
		}
	}
	for _, a := range lost {
		s.failAttempt(a, ReasonPreempted)
	}
	s.emit(Event{Kind: EvPreemptionRound, Resource: d.SelectedTotal, Used: d.MarkedTotal, Limit: d.KilledTotal, Seq: len(d.Marked)})
	return d
}

// preemptionSnapshot freezes the live queues for the policy.
func (s *Scheduler) preemptionSnapshot() *preemption.Snapshot {
	var build func(q *queue) *preemption.Queue
	build = func(q *queue) *preemption.Queue {
		pq := &preemption.Queue{
			Path: q.path, AbsCapacity: q.conf.AbsCapacity, AbsMaxCapacity: q.conf.AbsMaxCapacity,
			Guaranteed: q.effMin, Max: q.effMax, Used: q.used, Pending: q.pending, Reserved: q.reserved,
			DisablePreemption: q.conf.DisablePreemption, MaxAMPercent: q.conf.MaxAMPercent,
		}
		if q.isLeaf() {
			for _, a := range q.lf.active {
				pa := preemption.App{ID: a.id, Priority: a.priority, Seq: a.seq, AMResource: a.amResource}
				for _, c := range a.live {
					if c == nil || c.node.part != "" {
						continue // the policy sees the default partition only
					}
					pa.Containers = append(pa.Containers, preemption.Container{ID: preemption.ContainerID(c.id), Size: c.size, RequestPriority: c.priority, IsAM: c.isAM, Node: c.node.name})
				}
				for _, c := range a.reservations {
					if c.node.part != "" {
						continue
					}
					pa.Containers = append(pa.Containers, preemption.Container{ID: preemption.ContainerID(c.id), Size: c.size, RequestPriority: c.priority, Reserved: true, Node: c.node.name})
				}
				pq.Apps = append(pq.Apps, pa)
			}
		}
		for _, c := range q.children {
			pq.Children = append(pq.Children, build(c))
		}
		return pq
	}
	return &preemption.Snapshot{Cluster: s.cluster, Calculator: s.rc, MinAlloc: s.minAlloc(), Root: build(s.root)}
}
