package core

// CreateQueueForTest is CapacitySchedulerQueueManager.createQueue for a
// flexible auto-created leaf, as Hadoop's tests call it.
func CreateQueueForTest(s *Scheduler, path string) error {
	_, err := s.createFlexibleLeaf(path)
	return err
}
