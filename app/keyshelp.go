package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Shortcuts are the page's keys and what they do. Keys typed into a text
// field, a text area or a select are left alone.
var Shortcuts = []struct{ Key, Does string }{
	{"Space", "play or pause"},
	{"→", "forward one step (at the end: the next node heartbeats)"},
	{"←", "back one step"},
	{"T", "forward to the next tick, running the steps up to it (at the end: every node heartbeats once)"},
	{"Home / End", "first / last step"},
	{"R", "reset to the scenario as loaded"},
	{"?", "show or hide this list"},
}

// KeysHelp lists the keyboard shortcuts.
type KeysHelp struct {
	app.Compo

	// OnClose hides the list.
	OnClose func()
}

// Render draws the list.
func (k *KeysHelp) Render() app.UI {
	return app.Div().ID("keys-help").Class("keys-help").Role("dialog").Aria("modal", "false").
		Aria("labelledby", "keys-title").Body(
		app.H2().ID("keys-title").Text("Keyboard shortcuts"),
		app.Dl().Body(app.Range(Shortcuts).Slice(func(i int) app.UI {
			return app.Div().Body(app.Dt().Body(app.Kbd().Text(Shortcuts[i].Key)), app.Dd().Text(Shortcuts[i].Does))
		})),
		app.Button().Type("button").ID("keys-close").Text("Close").OnClick(func(app.Context, app.Event) {
			if k.OnClose != nil {
				k.OnClose()
			}
		}),
	)
}
