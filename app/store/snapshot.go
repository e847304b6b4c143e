package store

import (
	"fmt"

	"yarnplay/scenarios/snapshot"
)

// ImportSnapshot replaces the work with a running cluster's state: the
// ResourceManager's REST responses (scheduler, nodes and apps, with the
// configuration and attempts' containers if given), in any order and
// under any name (snapshot.Classify sorts them). The scenario opens after
// its restore step, the state the snapshot shows; what the snapshot did
// not say is in the frame's Assumptions. Refused files name the file and
// the path inside it, one problem a line, and the work stays.
func (s *Store) ImportSnapshot(files []snapshot.File) error {
	f, err := snapshot.Classify(files)
	if err == nil {
		sc, ierr := snapshot.Import(f)
		if ierr == nil {
			return s.open(sc, "", 1, "", "the snapshot")
		}
		err = ierr
	}
	return s.refuse(fmt.Errorf("the snapshot does not load:\n%w", err))
}

// ExportSnapshot writes the state at the step shown as a ResourceManager's
// REST responses in JSON (snapshot.ExportState): scheduler, nodes, apps,
// the attempts' containers and capacity-scheduler.xml, by file name.
// ImportSnapshot reads them back to the same state.
func (s *Store) ExportSnapshot() ([]snapshot.File, error) {
	ex, err := snapshot.ExportState(s.cur.Scheduler(), snapshot.JSON)
	if err != nil {
		return nil, err
	}
	return []snapshot.File{
		{Name: "scheduler.json", Data: ex.Scheduler},
		{Name: "nodes.json", Data: ex.Nodes},
		{Name: "apps.json", Data: ex.Apps},
		{Name: "containers.json", Data: ex.Containers},
		{Name: "capacity-scheduler.xml", Data: ex.Conf},
	}, nil
}
