package app

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// UserEditor sets users' groups, which queue ACLs name. Groups hold from
// the start of the scenario.
type UserEditor struct {
	app.Compo

	// Groups are the frame's users' groups (the same map from one frame
	// to the next while they do not change, so that the editor does not
	// render again at every step); Shown is false before the first
	// frame; Ctl reaches the store.
	Groups map[string][]string
	Shown  bool
	Ctl    *Controller
}

// userEditor is the user editor of frame f (nil before the first).
func userEditor(f *store.Frame, ctl *Controller) *UserEditor {
	if f == nil {
		return &UserEditor{Ctl: ctl}
	}
	return &UserEditor{Groups: f.Groups, Shown: true, Ctl: ctl}
}

// Render draws the editor.
func (e *UserEditor) Render() app.UI {
	if !e.Shown {
		return app.Section().Class("user-editor")
	}
	var users []string
	for u := range e.Groups {
		users = append(users, u)
	}
	slices.Sort(users)
	return app.Section().ID("user-editor").Class("panel user-editor").Aria("labelledby", "ue-title").Body(
		app.H2().ID("ue-title").Text("Users and groups"),
		app.Form().ID("ue-set").Class("form-row").OnSubmit(e.set).Body(
			textField("ue-user", "User", "text", "", "alice"),
			textField("ue-groups", "Groups (comma separated; empty: none)", "text", "", "eng, ops"),
			app.Button().Type("submit").ID("ue-set-button").Text("Set groups"),
		),
		app.If(len(users) == 0, func() app.UI {
			return app.P().Class("muted").Text("No user has groups.")
		}).Else(func() app.UI {
			return app.Ul().ID("ue-list").Class("chip-list").Body(app.Range(users).Slice(func(i int) app.UI {
				u := users[i]
				return app.Li().DataSet("user", u).Text(u + ": " + strings.Join(e.Groups[u], ", "))
			}))
		}),
	)
}

func (e *UserEditor) set(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	user := inputValue("ue-user")
	groups := strings.Split(inputValue("ue-groups"), ",")
	e.Ctl.Do(protocol.Command{Op: protocol.OpSetGroups, User: user, Groups: groups})
}
