package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// Undo keeps the work as it stood before the last destroying action (a
// blank scenario or an import over the work, an action at an earlier step
// that replaces the later ones, a fork or a reset), so that one click
// brings it back: the scenario as its canonical file, the lesson it was,
// the step and the selection. Nothing is lost without a way back.
type Undo struct {
	// What says what the last destroying action did, for the undo bar;
	// "" when there is nothing to undo.
	What string

	name   string
	data   []byte
	lesson string
	step   int
	sel    string
}

// Do runs a destroying action on the store, keeping the work before it;
// what says what the action does ("started a blank scenario"). When the
// action fails the work is unchanged, and the last undo point stays.
func (u *Undo) Do(ctl *Controller, what string, action func(*store.Store) error) error {
	var saved Undo
	err := ctl.Do(func(s *store.Store) error {
		saved = undoPoint(s, what)
		return action(s)
	})
	if err == nil && saved.data != nil {
		*u = saved
	}
	return err
}

// undoPoint is the store's work now.
func undoPoint(s *store.Store, what string) Undo {
	f := s.Frame()
	data, err := s.ExportYAML()
	if err != nil || f == nil {
		return Undo{}
	}
	name := f.Title
	if name == "" {
		name = "scenario"
	}
	return Undo{What: what, name: name + ".yaml", data: data, lesson: f.Lesson, step: f.Step, sel: f.Selected}
}

// Restore brings the kept work back, at its step with its selection, and
// forgets it.
func (u *Undo) Restore(ctl *Controller) error {
	if u.data == nil {
		return nil
	}
	p := *u
	err := ctl.Do(func(s *store.Store) error {
		sc, err := scenarios.Parse(p.name, p.data)
		if err != nil {
			return err
		}
		if err := s.Load(sc, p.lesson); err != nil {
			return err
		}
		s.Jump(p.step)
		if p.sel != "" {
			s.Select(p.sel)
		}
		return nil
	})
	if err == nil {
		*u = Undo{}
	}
	return err
}

// Dismiss forgets the undo point.
func (u *Undo) Dismiss() { *u = Undo{} }

// doAt runs an editor's action: through u, kept for undo, when the frame
// stands before the end (the action replaces the later steps); else
// directly.
func doAt(u *Undo, ctl *Controller, f *store.Frame, what string, action func(*store.Store) error) error {
	if u != nil && f != nil && f.Step < f.Steps {
		return u.Do(ctl, what+", replacing "+nOf(f.Steps-f.Step, "later step", "later steps"), action)
	}
	return ctl.Do(action)
}

// undoBar says what the last destroying action did, with a button to undo
// it and one to keep the change; nothing when there is nothing to undo.
func undoBar(u *Undo, onUndo, onDismiss func()) app.UI {
	what := ""
	if u != nil {
		what = u.What
	}
	// Always drawn, hidden when empty, so that the panels after it keep
	// their places (see the page's error).
	return app.Div().ID("undo-bar").Class("status undo-bar").Role("status").Hidden(what == "").Body(
		app.Span().ID("undo-text").Text("You "+what+"."),
		app.Button().Type("button").ID("undo").Text("Undo").OnClick(func(app.Context, app.Event) { onUndo() }),
		app.Button().Type("button").Class("dismiss").Aria("label", "Keep the change").Text("Keep it").
			OnClick(func(app.Context, app.Event) { onDismiss() }),
	)
}
