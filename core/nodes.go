package core

import "fmt"

// AddNode registers a node; the cluster grows and limits are recomputed.
func (s *Scheduler) AddNode(spec NodeSpec) error {
	return s.AddNodes([]NodeSpec{spec})
}

// AddNodes registers nodes in order, as AddNode would one after another,
// but recomputes the queues' limits once, after the last: with no
// heartbeat in between, the limits in between are never read, so the
// result is the same. Either every node is registered or, when one is
// refused (no name, a name already registered or repeated, a negative
// capacity), none is and the error names the first refused.
func (s *Scheduler) AddNodes(specs []NodeSpec) error {
	s.invalidate(changeState, nil)
	seen := make(map[string]bool, len(specs))
	for _, spec := range specs {
		if spec.Name == "" {
			return fmt.Errorf("add_node: the node needs a name")
		}
		if _, dup := s.nodeIdx[spec.Name]; dup || seen[spec.Name] {
			return fmt.Errorf("add_node: node %s is already registered", spec.Name)
		}
		if spec.Capacity.MemoryMB < 0 || spec.Capacity.VCores < 0 {
			return fmt.Errorf("add_node: node %s has a negative capacity %s", spec.Name, spec.Capacity)
		}
		if err := s.checkNodeLabel(spec); err != nil {
			return err
		}
		seen[spec.Name] = true
	}
	if len(specs) == 0 {
		return nil
	}
	block := make([]node, len(specs))
	for i, spec := range specs {
		rack := spec.Rack
		if rack == "" {
			rack = DefaultRack
		}
		n := &block[i]
		*n = node{id: len(s.nodes), name: spec.Name, rack: rack, total: spec.Capacity, part: spec.Label}
		s.nodes = append(s.nodes, n)
		s.nodeIdx[n.name] = n
		s.addNodeResource(n, true)
		s.emit(Event{Kind: EvNodeAdded, Node: n.name, Resource: n.total, Detail: rack, Partition: n.part})
	}
	s.updateClusterResource()
	return nil
}
