package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// The table shows an app's attempt once one has failed (its AM lost), and
// why an accepted app that max-parallel-apps holds back does not run.
func TestAppStateShowsTheAttemptAfterAFailure(t *testing.T) {
	tests := []struct {
		view core.AppView
		want string
	}{
		{core.AppView{State: core.AppRunning, Attempt: 1}, "RUNNING"},
		{core.AppView{State: core.AppRejected}, "REJECTED"},
		{core.AppView{State: core.AppAccepted, Attempt: 2}, "ACCEPTED (attempt 2)"},
		{core.AppView{State: core.AppAccepted, Attempt: 1, NotRunnable: true},
			"ACCEPTED, not runnable: max-parallel-apps reached; it starts when an app of its queue or user finishes"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, appState(&tc.view))
	}
}
