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

	// F is the frame shown; Ctl reaches the store.
	F   *store.Frame
	Ctl *Controller
}

// Render draws the editor.
func (e *UserEditor) Render() app.UI {
	if e.F == nil {
		return app.Section().Class("user-editor")
	}
	var users []string
	for u := range e.F.Groups {
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
				return app.Li().DataSet("user", u).Text(u + ": " + strings.Join(e.F.Groups[u], ", "))
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
