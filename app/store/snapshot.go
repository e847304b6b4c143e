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
