package store

import (
	"errors"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// partitionsOf lists the scheduler's labelled partitions.
func partitionsOf(s *core.Scheduler) []Partition {
	labels := s.NodeLabels()
	if len(labels) == 0 {
		return nil
	}
	out := make([]Partition, len(labels))
	for i, l := range labels {
		out[i] = Partition{Label: l.Name, Exclusive: l.Exclusive, Resource: s.PartitionResource(l.Name)}
	}
	return out
}

// HasPartition reports whether the frame's cluster has the node label.
func (f *Frame) HasPartition(label string) bool {
	for _, p := range f.Partitions {
		if p.Label == label {
			return true
		}
	}
	return false
}

// InPartition is the frame seen in one labelled partition, for the queue
// bars and the formulas: every queue's capacities, guarantee, maximum,
// usage and pending asks are its values in that partition, the cluster is
// the partition's resources, and the selected leaf's formulas are those
// of the partition. The default partition ("") or a label the cluster
// does not have gives the frame itself. The frame is not changed.
func InPartition(f *Frame, label string) Frame {
	if label == "" || !f.HasPartition(label) {
		return *f
	}
	g := *f
	for _, p := range f.Partitions {
		if p.Label == label {
			g.Cluster = p.Resource
		}
	}
	g.Queues = make([]core.QueueView, len(f.Queues))
	for i, q := range f.Queues {
		for _, pv := range q.Partitions {
			if pv.Label != label {
				continue
			}
			q.Capacity, q.MaxCapacity, q.AbsCapacity, q.AbsMaxCapacity = pv.Capacity, pv.MaxCapacity, pv.AbsCapacity, pv.AbsMaxCapacity
			q.UsedCapacity, q.AbsUsedCapacity = pv.UsedCapacity, pv.AbsUsedCapacity
			q.EffectiveMin, q.EffectiveMax = pv.EffectiveMin, pv.EffectiveMax
			q.Used, q.Pending = pv.Used, pv.Pending
			q.Reserved = resource.None // the queue's are the default partition's
			if q.Depth == 0 {
				// Root has all of every partition (ParentQueue.
				// calculateEffectiveResourcesAndCapacity sets it).
				q.Capacity, q.MaxCapacity, q.AbsCapacity, q.AbsMaxCapacity = 1, 1, 1, 1
			}
			q.AMUsed, q.AMLimit, q.UserLimit = pv.AMUsed, pv.AMLimit, pv.UserLimit
			if q.Depth == 0 {
				g.ClusterUsed = pv.Used
			}
		}
		g.Queues[i] = q
	}
	g.UserLimit, g.AMLimit = nil, nil
	if pl, ok := f.PartitionLimits[label]; ok {
		ul, am := pl.UserLimit, pl.AMLimit
		g.UserLimit, g.AMLimit = &ul, &am
	}
	g.History = nil
	return g
}

// SelectPartition chooses the partition the views show: "" for the
// default one, else a node label of the cluster at this step.
func (s *Store) SelectPartition(label string) {
	if label != "" && (s.frame == nil || !s.frame.HasPartition(label)) {
		s.err = "no partition " + label + " at this step"
		s.publish()
		return
	}
	s.part = label
	s.err = ""
	s.publish()
}

// AddNodeLabel adds a node label to the cluster the scenario starts with
// (its node_labels), unless it has it already: labels exist from the
// start, at any step. Exclusive is Hadoop's default.
func (s *Store) AddNodeLabel(name string, exclusive bool) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return s.refuse(errors.New("a node label needs a name"))
	}
	for _, l := range s.doc.NodeLabels {
		if l.Name == name {
			return nil
		}
	}
	d := s.edit()
	d.NodeLabels = append(d.NodeLabels, scenarios.NodeLabel{Name: name, Exclusive: &exclusive})
	return s.commit(d, -1, 0, nil)
}
