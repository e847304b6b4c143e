package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// Undo keeps the work as it stood before the last destroying action (a
// blank scenario or an import over the work, an action at an earlier step
// that replaces the later ones, a fork or a reset), so that one click
// brings it back: the scenario as its canonical file, the lesson it was,
// the step and the selection (protocol.Point, which the simulation
// answers to OpUndoPoint). Nothing is lost without a way back.
type Undo struct {
	// What says what the last destroying action did, for the undo bar;
	// "" when there is nothing to undo.
	What string

	point protocol.Point
	// gen counts the undo points kept: a restore forgets only the one it
	// brought back.
	gen int
}

// Do sends a destroying action, keeping the work before it: the
// simulation answers the undo point first, then the action (commands are
// answered in order). what says what the action does ("started a blank
// scenario"). When the action fails the work is unchanged, and the last
// undo point stays. done, if set, gets the action's error once it is in.
func (u *Undo) Do(ctl *Controller, what string, cmd protocol.Command, done func(error)) {
	var point *protocol.Point
	ctl.Send(protocol.Command{Op: protocol.OpUndoPoint}, func(rep protocol.Reply) {
		if rep.Err != "" {
			return // no point (the work does not export): the action goes on
		}
		if p, err := protocol.PointOf(rep); err == nil {
			point = &p
		}
	})
	ctl.Send(cmd, func(rep protocol.Reply) {
		err := replyErr(rep)
		if err == nil && point != nil {
			*u = Undo{What: what, point: *point, gen: u.gen + 1}
		}
		if done != nil {
			done(err)
		}
	})
}

// Restore brings the kept work back, at its step with its selection, and
// forgets it; done, if set, gets the error once it is in.
func (u *Undo) Restore(ctl *Controller, done func(error)) {
	if u.point.Data == nil {
		if done != nil {
			done(nil)
		}
		return
	}
	p, gen := u.point, u.gen
	ctl.Send(protocol.Command{Op: protocol.OpRestoreUndo, Point: &p}, func(rep protocol.Reply) {
		err := replyErr(rep)
		if err == nil && u.gen == gen {
			*u = Undo{gen: gen}
		}
		if done != nil {
			done(err)
		}
	})
}

// Dismiss forgets the undo point.
func (u *Undo) Dismiss() { *u = Undo{gen: u.gen} }

// doAt sends an editor's action: through u, kept for undo, when the frame
// stands before the end (the action replaces the later steps); else
// directly. done, if set, gets the action's error once it is in.
func doAt(u *Undo, ctl *Controller, f *store.Frame, what string, cmd protocol.Command, done func(error)) {
	if u != nil && f != nil && f.Step < f.Steps {
		u.Do(ctl, what+", replacing "+nOf(f.Steps-f.Step, "later step", "later steps"), cmd, done)
		return
	}
	ctl.Send(cmd, func(rep protocol.Reply) {
		if done != nil {
			done(replyErr(rep))
		}
	})
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
