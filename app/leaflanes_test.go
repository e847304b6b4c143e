package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
)

func TestLeafLaneFollowsTheWalk(t *testing.T) {
	f := fixtureFrame(t, 10, "", "") // the heartbeat of n1
	lanes := leafLanes(&f, "root.eng.dev")
	require.Len(t, lanes, 1)
	l := lanes[0]
	dev := queueOf(t, &f, "root.eng.dev")
	var order []string
	for _, c := range l.Cards {
		order = append(order, c.App)
	}
	require.Equal(t, append(append([]string(nil), dev.ActiveApps...), dev.PendingApps...), order,
		"active apps in the scheduler's order, then the pending ones")
	require.True(t, l.Visited)

	walk := f.Walk["root.eng.dev"]
	require.NotEmpty(t, walk)
	cards := map[string]laneCard{}
	for _, c := range l.Cards {
		cards[c.App] = c
	}
	for _, v := range walk {
		c := cards[v.App]
		require.Equal(t, v.Outcome, c.Outcome, "app %s", v.App)
		if v.Outcome == "skipped" {
			require.Equal(t, string(v.Reason), c.Reason)
			require.False(t, c.Cursor)
		}
	}
	require.Equal(t, "skipped", cards["app_1"].Outcome)
	require.Equal(t, string(core.ReasonUserLimit), cards["app_1"].Reason)
	require.True(t, cards["app_2"].Cursor, "the cursor stops at the app that got the container")
	require.Equal(t, "allocated", cards["app_2"].Outcome)
	require.True(t, cards["app_4"].Pending)
	require.Contains(t, cards["app_4"].Reason, "waiting")

	// One bar per user with resources or asks; the limit lines are core's.
	require.NotEmpty(t, l.Users)
	for _, u := range l.Users {
		var uv core.UserView
		for _, x := range dev.Users {
			if x.Name == u.Name {
				uv = x
			}
		}
		require.Equal(t, resText(uv.Used), u.UsedText)
		require.Equal(t, resText(uv.UserLimit), u.LimitText)
		require.GreaterOrEqual(t, u.ULF, u.Limit, "the user-limit-factor ceiling is at or past the user limit")
	}
}

func TestLeafLanesPickLeavesWithActivity(t *testing.T) {
	f := fixtureFrame(t, 14, "", "")
	var got []string
	for _, l := range leafLanes(&f, "") {
		got = append(got, l.Queue)
	}
	require.Equal(t, []string{"root.eng.dev", "root.fin"}, got, "test has no apps and is skipped")
	got = nil
	for _, l := range leafLanes(&f, "root.eng") {
		got = append(got, l.Queue)
	}
	require.Equal(t, []string{"root.eng.dev"}, got, "a parent shows its busy leaves")
	require.Len(t, leafLanes(&f, "root.eng.test"), 1, "a selected leaf shows even when idle")
	require.Empty(t, leafLanes(&f, "root.nope"))
}

func TestMaxUserLimitMatchesTheFormula(t *testing.T) {
	f := fixtureFrame(t, 10, "root.eng.dev", "")
	require.NotNil(t, f.UserLimit)
	dev := queueOf(t, &f, "root.eng.dev")
	fromTerms := maxUserLimit(&f, dev)
	f.Selected = "" // computed the same way without the formula
	require.Equal(t, fromTerms, maxUserLimit(&f, dev))
}

func TestLeafLanesRender(t *testing.T) {
	f := fixtureFrame(t, 10, "", "")
	html := renderHTML(t, &LeafLanes{Frame: f, Queue: "root.eng.dev"})
	has(t, html, `data-queue="root.eng.dev"`, "visited this step",
		`data-app="app_1"`, "user at its user limit", `class="app-card dim"`,
		`class="app-card cursor"`, "▼ ", "chosen",
		`class="app-card pending"`, "⏸ ",
		"User Limit Resource: ", "Used Resource: ", "user-limit-factor ceiling: ")
	empty := renderHTML(t, &LeafLanes{Frame: fixtureFrame(t, 0, "", "")})
	has(t, empty, "No leaf queue has applications yet.")
}

// A pending app's card says why it waits: max-parallel-apps for an app that
// is not runnable, else the AM limit the step's events name.
func TestPendingReasonNamesMaxParallelApps(t *testing.T) {
	f := &store.Frame{
		Apps: []core.AppView{
			{ID: "app_1", State: core.AppAccepted, NotRunnable: true},
			{ID: "app_2", State: core.AppAccepted},
		},
		Events: []core.Event{{Kind: core.EvAppPending, App: "app_2", Reason: core.ReasonQueueAMLimit}},
	}
	require.Contains(t, pendingReason(f, "app_1"), "max-parallel-apps")
	require.Equal(t, "waiting: "+string(core.ReasonQueueAMLimit), pendingReason(f, "app_2"))
}
