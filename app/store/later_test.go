package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// manySteps is work of some two thousand steps (an application submitted
// at each, by twenty users, then ticks): saved work that opens in two
// parts (RestoreHeadFor).
func manySteps(t *testing.T) *scenarios.Scenario {
	t.Helper()
	sp := workload.Allocation()
	sp.Nodes, sp.Fanout, sp.Apps, sp.Users = 40, []int{2, 2}, 2000, 20
	return workload.Scenario(sp, 5)
}

// savedAt is sc saved standing on step k with sel selected.
func savedAt(t *testing.T, sc *scenarios.Scenario, k int, sel string) Storage {
	t.Helper()
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Jump(k)
	s.Select(sel)
	st := bridge.NewMemoryStorage()
	require.NoError(t, s.Save(st))
	return st
}

// Saved work opened in two parts is, once its rest is read, what it is
// opened in one; the step's frame before is the same but for the users
// of the later steps; and both play on alike.
func TestSavedWorkOpenedInTwoPartsIsOpenedWhole(t *testing.T) {
	sc := manySteps(t)
	for _, k := range []int{0, 3, 40} {
		st := savedAt(t, sc, k, "root.a.a")
		whole := New()
		ok, err := whole.RestoreFor(st, "")
		require.NoError(t, err)
		require.True(t, ok)

		s := New()
		s.ReuseViews() // as the worker's store does
		require.True(t, s.RestoreHeadFor(st, ""), "step %d", k)
		require.True(t, s.Unread())
		head := *s.Frame()
		require.Equal(t, len(sc.Steps), head.Steps)
		require.Less(t, len(head.Users), len(whole.Frame().Users), "the later steps' users come with them")
		_, err = s.LinkAt(k)
		require.Error(t, err, "no link of the head alone")

		require.NoError(t, s.ReadRest())
		require.False(t, s.Unread())
		require.Equal(t, frameJSON(t, whole.Frame()), frameJSON(t, s.Frame()), "step %d", k)
		head.Users = whole.Frame().Users
		require.Equal(t, frameJSON(t, whole.Frame()), frameJSON(t, &head), "the head's frame, step %d", k)
		a, err := whole.LinkAt(k)
		require.NoError(t, err)
		b, err := s.LinkAt(k)
		require.NoError(t, err)
		require.Equal(t, a, b)

		for range 3 {
			require.NoError(t, whole.Forward())
			require.NoError(t, s.Forward())
			require.Equal(t, frameJSON(t, whole.Frame()), frameJSON(t, s.Frame()))
		}
		whole.Last()
		s.Last()
		require.Equal(t, frameJSON(t, whole.Frame()), frameJSON(t, s.Frame()), "at the end")
		require.NoError(t, whole.Tick(1))
		require.NoError(t, s.Tick(1))
		require.Equal(t, frameJSON(t, whole.Frame()), frameJSON(t, s.Frame()), "a tick after the end")
	}
}

// Saved work whose later steps are not valid opens its head, then ReadRest
// refuses it with RestoreFor's error.
func TestSavedWorkWhoseRestDoesNotReadIsRefused(t *testing.T) {
	sc := manySteps(t)
	bad := *sc
	bad.Steps = append([]scenarios.Step(nil), sc.Steps...)
	bad.Steps[len(bad.Steps)-1] = scenarios.Step{FinishApp: "no-such-app"}
	link, err := scenarios.EncodeLink(&bad, 0, "")
	require.NoError(t, err)
	st := bridge.NewMemoryStorage()
	require.NoError(t, st.Set(SaveKey, `{"v":1,"link":"`+link+`"}`))

	_, want := New().RestoreFor(st, "")
	require.Error(t, want)
	s := New()
	require.True(t, s.RestoreHeadFor(st, ""))
	require.EqualError(t, s.ReadRest(), want.Error())
	require.False(t, s.Unread())
}

// Work that does not pay to open in two parts, or that is not there,
// opens in one: RestoreHeadFor changes nothing.
func TestSmallSavedWorkOpensInOnePart(t *testing.T) {
	s := loaded(t, twoQueues)
	st := bridge.NewMemoryStorage()
	require.NoError(t, s.Save(st))
	fresh := New()
	before := fresh.Frame()
	require.False(t, fresh.RestoreHeadFor(st, ""))
	require.Same(t, before, fresh.Frame())
	require.False(t, fresh.RestoreHeadFor(bridge.NewMemoryStorage(), ""))
	big := savedAt(t, manySteps(t), 0, "")
	require.False(t, fresh.RestoreHeadFor(big, "another-lesson"), "saved from another lesson")
	require.Same(t, before, fresh.Frame())
}
