package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/protocol"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

// Saved work that the simulation opened ahead in two parts, and whose
// later steps then did not read, is kept aside as broken, as saved work
// that does not open at all: the page shows the work opened instead, and
// saving it loses nothing.
func TestSavedWorkWhoseRestDoesNotReadIsKeptAside(t *testing.T) {
	sp := workload.Allocation()
	sp.Nodes, sp.Fanout, sp.Apps, sp.Users = 40, []int{2, 2}, 2000, 20
	bad := *workload.Scenario(sp, 5)
	bad.Steps = append([]scenarios.Step(nil), bad.Steps...)
	bad.Steps[len(bad.Steps)-1] = scenarios.Step{FinishApp: "no-such-app"}
	link, err := scenarios.EncodeLink(&bad, 0, "")
	require.NoError(t, err)
	saved := `{"v":1,"link":"` + link + `"}`
	st := bridge.NewMemoryStorage()
	require.NoError(t, st.Set(store.SaveKey, saved))

	cl := protocol.NewInProcess(store.New())
	sv := cl.Server
	sv.Prepare(saved, "")
	ctl := NewController(cl)
	p := &Page{}
	p.mount(app.Context{}, ctl, st, bridge.NewMemoryFragment())
	p.Load("")
	require.Equal(t, len(bad.Steps), ctl.Frame().Steps, "the saved work's step shows first")
	require.NotZero(t, p.saving.works)

	rep, push := sv.ReadRest()
	require.True(t, push)
	ctl.Pushed(rep)
	require.Equal(t, lessons.Default(), ctl.Frame().Lesson, "the work opened instead")
	require.Contains(t, ctl.Frame().Err, "the saved work does not open")
	b, ok := SavedWork{St: st}.Broken()
	require.True(t, ok, "kept aside")
	require.Equal(t, saved, b.Saved)
	require.Contains(t, b.Why, "no-such-app")
	v, _, _ := st.Get(store.SaveKey)
	require.Empty(t, v)
	require.Zero(t, p.saving.works)
	p.save()
	b, ok = SavedWork{St: st}.Broken()
	require.True(t, ok)
	require.Equal(t, saved, b.Saved, "saving the work opened instead keeps it")
}
