package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

// LessonPanel shows the scenario's title and its description (markdown),
// and where it comes from.
type LessonPanel struct {
	app.Compo

	// F is the frame shown.
	F *store.Frame
}

// Render draws the panel.
func (l *LessonPanel) Render() app.UI {
	f := l.F
	if f == nil {
		return app.Section().Class("lesson")
	}
	kind := "Your scenario"
	if f.Lesson != "" {
		kind = "Lesson"
		if les, ok := lessons.Get(f.Lesson); ok {
			kind = "Lesson " + itoa(les.Order) + " of " + itoa(len(lessons.All()))
		}
	}
	return app.Section().ID("lesson").Class("panel lesson").Aria("labelledby", "lesson-title").Body(
		app.P().Class("eyebrow").Text(kind),
		app.H2().ID("lesson-title").Text(orText(f.Title, "Untitled")),
		app.If(f.Description != "", func() app.UI {
			return app.Details().ID("lesson-description").Class("lesson-description").Open(f.Step == 0).Body(
				app.Summary().Text("About this scenario"),
				Markdown(f.Description),
			)
		}),
		app.If(len(f.Assumptions) > 0, func() app.UI {
			return app.Details().ID("assumptions").Class("notice assumptions").Body(
				app.Summary().Text("Imported from a cluster snapshot: "+nOf(len(f.Assumptions), "thing", "things")+" the snapshot did not say, assumed"),
				app.Ul().Body(app.Range(f.Assumptions).Slice(func(i int) app.UI { return app.Li().Text(f.Assumptions[i]) })),
			)
		}),
		app.If(f.Source != "", func() app.UI {
			return app.P().Class("muted source").Text("Source: " + f.Source)
		}),
	)
}
