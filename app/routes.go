package app

import (
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/scenarios/lessons"
)

// PathHome is the playground's start page: the work in progress, or the
// default lesson.
const PathHome = "/"

// lessonPrefix starts the path of every lesson's page.
const lessonPrefix = "/lessons/"

// LessonPath is the page of a lesson: /lessons/<slug>.
func LessonPath(slug string) string { return lessonPrefix + slug }

// LessonOf returns the lesson slug a path names ("" for other paths).
func LessonOf(path string) string {
	slug, ok := strings.CutPrefix(path, lessonPrefix)
	if !ok {
		return ""
	}
	return strings.Trim(slug, "/")
}

var registerRoutes sync.Once

// Routes registers every page of the playground with go-app. The browser
// entry point (./wasm) and the build tool's pre-renderer both call it, so the
// two sides answer the same paths. Calling it again does nothing.
func Routes() {
	registerRoutes.Do(func() {
		for _, p := range Paths() {
			app.Route(p, func() app.Composer { return &Page{route: p} })
		}
	})
}

// Paths lists the routed paths, for the static site generator: the home
// page and one page per lesson.
func Paths() []string {
	out := []string{PathHome}
	for _, l := range lessons.All() {
		out = append(out, LessonPath(l.Slug))
	}
	return out
}
