package app

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// unchanged reports whether go-app finds a component given b's fields
// unchanged from a's, and so does not render it again: its rule is that
// every exported field is reflect.DeepEqual to the old one.
func unchanged(a, b any) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		if !va.Type().Field(i).IsExported() || va.Type().Field(i).Anonymous {
			continue
		}
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return false
		}
	}
	return true
}

// The page renders again for every stage of a frame (stages.go): the
// panels it gives the same frame and callbacks must find them unchanged,
// or they would render again each time.
func TestPanelsOfTheSameFrameAreNotRenderedAgain(t *testing.T) {
	p := &Page{}
	f := fixtureFrame(t, 14, "root.eng.dev", "")
	bars := func() *QueueBars { return &QueueBars{Frame: f, OnSelect: p.callbacks().selectQueue} }
	chart := func() *UsageChart { return &UsageChart{Frame: f, Parent: chartParent(&f), OnJump: p.callbacks().jump} }
	require.True(t, unchanged(bars(), bars()), "the queue bars")
	require.True(t, unchanged(chart(), chart()), "the usage chart")

	g := fixtureFrame(t, 13, "root.eng.dev", "")
	require.False(t, unchanged(bars(), &QueueBars{Frame: g, OnSelect: p.callbacks().selectQueue}), "another frame renders")
}

// The capacities table is given the very same tree while its numbers are
// the same (usage changes every step, the configuration seldom): go-app
// then finds it unchanged without walking a thousand queues.
func TestCapacitiesKeepTheirTreeWhileItIsTheSame(t *testing.T) {
	s := fixtureStore(t, 10, "", "")
	var c viewCache
	a, ok := c.view(s.Frame())
	require.True(t, ok)
	s.Jump(12)
	b, ok := c.view(s.Frame())
	require.True(t, ok)
	require.NotEmpty(t, a.Root.Children)
	require.Same(t, &a.Root.Children[0], &b.Root.Children[0], "an equal tree is the kept one")

	f := *s.Frame()
	f.Queues = slices.Clone(f.Queues)
	f.Queues[1].Capacity /= 2
	d, ok := c.view(&f)
	require.True(t, ok)
	require.NotEqual(t, b.Root.Children[0].Capacity, d.Root.Children[0].Capacity, "a changed capacity shows")
	require.True(t, unchanged(&QueueTree{Root: a.Root}, &QueueTree{Root: b.Root}))
}

// The capacities' tree is kept without building it while only usage
// changes: any number or queue it shows builds it again.
func TestCapacitiesTreeIsBuiltAgainOnlyWhenItChanges(t *testing.T) {
	s := fixtureStore(t, 10, "", "")
	qs := s.Frame().Queues
	used := slices.Clone(qs)
	used[1].Used.MemoryMB++
	used[1].AbsUsedCapacity += 0.1
	require.True(t, sameTreeQueues(qs, used), "usage alone")
	for name, change := range map[string]func(q []core.QueueView){
		"capacity":   func(q []core.QueueView) { q[1].AbsCapacity /= 2 },
		"guaranteed": func(q []core.QueueView) { q[1].EffectiveMin.MemoryMB++ },
		"children":   func(q []core.QueueView) { q[0].Children = q[0].Children[1:] },
		"auto mark":  func(q []core.QueueView) { q[1].Dynamic = true },
		"a queue":    func(q []core.QueueView) {},
	} {
		other := slices.Clone(qs)
		change(other)
		if name == "a queue" {
			other = other[1:]
		}
		require.False(t, sameTreeQueues(qs, other), name)
	}
}
