package core

import "yarnplay/core/resource"

// QueueUsage appends every queue's full path and used resources (the
// Used of its QueueView, reservations included), pre-order as Queues
// gives them, to paths and used: the usage at a step without building the
// views.
func (s *Scheduler) QueueUsage(paths []string, used []resource.Resource) ([]string, []resource.Resource) {
	for _, q := range s.queues {
		paths = append(paths, q.path)
		used = append(used, q.used)
	}
	return paths, used
}
