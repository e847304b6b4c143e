package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/scenarios/lessons"
)

// LessonMenu lists the built-in lessons, in teaching order, as links to
// their pages (/lessons/<slug>).
type LessonMenu struct {
	app.Compo

	// Current is the slug of the lesson shown ("" for none).
	Current string
}

// Render draws the menu.
func (m *LessonMenu) Render() app.UI {
	all := lessons.All()
	return app.Nav().Class("lesson-menu").Aria("label", "Lessons").Body(
		app.Details().Body(
			app.Summary().Text("Lessons"),
			app.Ol().OnClick(closeMenu).Body(app.Range(all).Slice(func(i int) app.UI {
				l := all[i]
				a := app.A().Href(href(LessonPath(l.Slug))).Title(l.Summary).Text(l.Title)
				if l.Slug == m.Current {
					a = a.Aria("current", "page")
				}
				return app.Li().Body(a)
			})),
		),
	)
}

// closeMenu closes the menu when a lesson in it is chosen, so that it does
// not stay open over the lesson: the click reaches the list, whose parent
// is the menu's details.
func closeMenu(ctx app.Context, _ app.Event) {
	ctx.JSSrc().Get("parentNode").Set("open", false)
}
