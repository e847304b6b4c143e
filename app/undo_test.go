package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// A blank scenario over a lesson, and an action at an earlier step, can
// be undone: the work comes back whole, at its step, with its selection.
func TestUndoBringsBackTheWork(t *testing.T) {
	s := store.New()
	sc, err := lessons.Load("elastic-borrowing")
	require.NoError(t, err)
	require.NoError(t, s.Load(sc, "elastic-borrowing"))
	ctl := NewLocalController(s)
	s.Jump(12)
	s.Select("root.grumpy-engineers.infinite-monkeys")
	before := *s.Frame()

	var u Undo
	u.Do(ctl, "started a blank scenario", protocol.Command{Op: protocol.OpBlank}, noError(t))
	require.Equal(t, "started a blank scenario", u.What)
	require.NotEqual(t, before.Steps, s.Frame().Steps)
	has(t, renderHTML(t, &undoHost{u: &u}), `id="undo"`, "You started a blank scenario.")

	u.Restore(ctl, noError(t))
	after := s.Frame()
	require.Equal(t, before.Steps, after.Steps)
	require.Equal(t, before.Step, after.Step)
	require.Equal(t, before.Selected, after.Selected)
	require.Equal(t, before.Lesson, after.Lesson)
	require.Equal(t, before.Label, after.Label)
	require.Empty(t, u.What, "undone: nothing left to undo")

	// An app submitted at step 12 replaces the later steps; undo restores them.
	f := s.Frame()
	doAt(&u, ctl, f, "submitted x", protocol.Command{Op: protocol.OpSubmit,
		Submit: &scenarios.Submit{App: "x", User: "u", Queue: "root.grumpy-engineers.pesky-testers"}}, noError(t))
	require.Equal(t, 13, s.Frame().Steps)
	require.Contains(t, u.What, "submitted x, replacing 22 later steps")
	u.Restore(ctl, noError(t))
	require.Equal(t, before.Steps, s.Frame().Steps)

	// A refused action changes nothing and leaves no undo point.
	failed := false
	u.Do(ctl, "imported nonsense", protocol.Command{Op: protocol.OpImportScenario, Name: "bad", Data: []byte("steps: [")},
		func(err error) { failed = err != nil })
	require.True(t, failed)
	require.Empty(t, u.What)
	require.Equal(t, before.Steps, s.Frame().Steps)
}

// noError is a done that requires no error, and that it was called.
func noError(t *testing.T) func(error) {
	t.Helper()
	called := false
	t.Cleanup(func() { require.True(t, called, "done was called") })
	return func(err error) {
		called = true
		require.NoError(t, err)
	}
}

// undoHost renders the undo bar.
type undoHost struct {
	app.Compo
	u *Undo
}

func (h *undoHost) Render() app.UI { return app.Div().Body(undoBar(h.u, func() {}, func() {})) }
