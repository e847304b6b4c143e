package scenarios_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/scenarios"
)

// manySteps is a scenario of some two thousand steps (a submit an
// application, then ticks): saved work that opens in two parts.
func manySteps() *scenarios.Scenario {
	sp := workload.Allocation()
	sp.Nodes, sp.Fanout, sp.Apps, sp.Users = 40, []int{2, 2}, 2000, 20
	return workload.Scenario(sp, 5)
}

// The head of saved work is the whole scenario's start with its steps up
// to one past the link's step, and knows how many steps the whole has.
func TestSavedLinkHeadIsTheWholesPrefix(t *testing.T) {
	sc := manySteps()
	n := len(sc.Steps)
	for _, step := range []int{0, 1, 17, n - 1001} {
		link, err := scenarios.EncodeLink(sc, step, "root.a")
		require.NoError(t, err)
		whole, wantStep, sel, err := scenarios.DecodeSavedLink(link)
		require.NoError(t, err)
		h, ok := scenarios.DecodeSavedLinkHead(link)
		require.True(t, ok, "step %d", step)
		require.Equal(t, wantStep, h.Step)
		require.Equal(t, sel, h.Selection)
		require.Equal(t, n, h.Steps)
		require.Equal(t, whole.Steps[:step+1], h.Scenario.Steps, "step %d", step)
		head, all := *h.Scenario, *whole
		head.Steps, all.Steps = nil, nil
		require.Equal(t, all, head, "the start, step %d", step)
		got, err := h.Whole()
		require.NoError(t, err)
		require.Equal(t, whole, got)
	}
}

// No head when nothing is to gain (few steps after the link's step), and
// none for a link saved work does not open.
func TestSavedLinkHeadOnlyWhenItPays(t *testing.T) {
	sc := manySteps()
	link, err := scenarios.EncodeLink(sc, len(sc.Steps)-10, "")
	require.NoError(t, err)
	_, ok := scenarios.DecodeSavedLinkHead(link)
	require.False(t, ok, "ten steps after the step")
	small := *sc
	small.Steps = sc.Steps[:50]
	link, err = scenarios.EncodeLink(&small, 0, "")
	require.NoError(t, err)
	_, ok = scenarios.DecodeSavedLinkHead(link)
	require.False(t, ok, "fifty steps in all")
	for _, bad := range []string{"", "#s=1.", "#s=9.abc", "#t=3", "#s=1.eJzLSM3JyQcABiwCFQ&t=x"} {
		_, ok := scenarios.DecodeSavedLinkHead(bad)
		require.False(t, ok, "%q", bad)
	}
}

// A head whose later steps are not valid opens, and its Whole says what
// DecodeSavedLink says of the link.
func TestSavedLinkHeadWholeRefusesWhatTheLinkDoes(t *testing.T) {
	sc := manySteps()
	bad := *sc
	bad.Steps = append([]scenarios.Step(nil), sc.Steps...)
	last := &bad.Steps[len(bad.Steps)-1]
	*last = scenarios.Step{FinishApp: "no-such-app"}
	link, err := scenarios.EncodeLink(&bad, 0, "")
	require.NoError(t, err)
	_, _, _, want := scenarios.DecodeSavedLink(link)
	require.Error(t, want)
	h, ok := scenarios.DecodeSavedLinkHead(link)
	require.True(t, ok)
	_, err = h.Whole()
	require.EqualError(t, err, want.Error())
}

// FuzzSavedLinkHead: whatever the link, a head is read only when its
// Whole is what DecodeSavedLink reads, and then its steps are a prefix of
// the whole's.
func FuzzSavedLinkHead(f *testing.F) {
	sc := manySteps()
	for _, step := range []int{0, 3} {
		link, err := scenarios.EncodeLink(sc, step, "")
		require.NoError(f, err)
		f.Add(link)
	}
	f.Add("#s=1.eJzLSM3JyQcABiwCFQ&t=0")
	f.Fuzz(func(t *testing.T, link string) {
		h, ok := scenarios.DecodeSavedLinkHead(link)
		if !ok {
			return
		}
		want, step, sel, wantErr := scenarios.DecodeSavedLink(link)
		got, err := h.Whole()
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error())
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, step, h.Step)
		require.Equal(t, sel, h.Selection)
		require.Equal(t, len(want.Steps), h.Steps)
		require.Equal(t, want.Steps[:len(h.Scenario.Steps)], h.Scenario.Steps)
	})
}
