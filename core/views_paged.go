package core

// NumApps is the number of accepted applications: the length of Apps.
func (s *Scheduler) NumApps() int { return len(s.apps) }

// AppendApps appends the views of the accepted applications i to j-1, in
// Apps' order, to dst: Apps in parts, for a caller that builds the views
// of many applications a few at a time.
func (s *Scheduler) AppendApps(dst []AppView, i, j int) []AppView {
	for _, a := range s.apps[i:j] {
		dst = append(dst, s.appView(a))
	}
	return dst
}

// AppendAppsBrief is AppendApps without the applications' containers
// (AppView.Containers is nil): the nodes' views list them, and a view of
// tens of thousands of applications is much cheaper without.
func (s *Scheduler) AppendAppsBrief(dst []AppView, i, j int) []AppView {
	for _, a := range s.apps[i:j] {
		dst = append(dst, s.appViewBrief(a))
	}
	return dst
}

// AppendNodes appends the views of the nodes i to j-1, in Nodes' order, to
// dst: Nodes in parts.
func (s *Scheduler) AppendNodes(dst []NodeView, i, j int) []NodeView {
	for _, n := range s.nodes[i:j] {
		dst = append(dst, nodeView(n))
	}
	return dst
}
