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

	// Lesson is the frame's lesson ("" for the visitor's own scenario),
	// Title, Description (markdown), Assumptions and Source its
	// scenario's; AtStart is true at step 0, where the description opens.
	// Plain values, not the frame: the panel renders again only when one
	// of them changes, not at every step.
	Lesson, Title, Description, Source string
	Assumptions                        []string
	AtStart                            bool
	// Shown is false before the first frame.
	Shown bool
}

// lessonPanel is the panel of frame f (nil before the first).
func lessonPanel(f *store.Frame) *LessonPanel {
	if f == nil {
		return &LessonPanel{}
	}
	return &LessonPanel{Lesson: f.Lesson, Title: f.Title, Description: f.Description, Source: f.Source,
		Assumptions: f.Assumptions, AtStart: f.Step == 0, Shown: true}
}

// Render draws the panel.
func (l *LessonPanel) Render() app.UI {
	if !l.Shown {
		return app.Section().Class("lesson")
	}
	kind := "Your scenario"
	if l.Lesson != "" {
		kind = "Lesson"
		if les, ok := lessons.Get(l.Lesson); ok {
			kind = "Lesson " + itoa(les.Order) + " of " + itoa(len(lessons.All()))
		}
	}
	return app.Section().ID("lesson").Class("panel lesson").Aria("labelledby", "lesson-title").Body(
		app.P().Class("eyebrow").Text(kind),
		app.H2().ID("lesson-title").Text(orText(l.Title, "Untitled")),
		app.If(l.Description != "", func() app.UI {
			return app.Details().ID("lesson-description").Class("lesson-description").Open(l.AtStart).Body(
				app.Summary().Text("About this scenario"),
				Markdown(l.Description),
			)
		}),
		app.If(len(l.Assumptions) > 0, func() app.UI {
			return app.Details().ID("assumptions").Class("notice assumptions").Body(
				app.Summary().Text("Imported from a cluster snapshot: "+nOf(len(l.Assumptions), "thing", "things")+" the snapshot did not say, assumed"),
				app.Ul().Body(app.Range(l.Assumptions).Slice(func(i int) app.UI { return app.Li().Text(l.Assumptions[i]) })),
			)
		}),
		app.If(l.Source != "", func() app.UI {
			return app.P().Class("muted source").Text("Source: " + l.Source)
		}),
	)
}
