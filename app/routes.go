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

// rootPrefix is the path the site is served under ("" at the root;
// "/yarnplay" for a GitHub Pages project site), as go-app's loader tells
// the browser (GOAPP_ROOT_PREFIX, from the handler's Resources). Natively
// it is "": the pre-renderer's resolver prefixes links itself.
var rootPrefix = sync.OnceValue(func() string {
	if !app.IsClient {
		return ""
	}
	return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/")
})

// href is the address of a site path (PathHome, LessonPath) for a link.
func href(path string) string { return rootPrefix() + path }

// sitePath is the site path of an address's path: without the root
// prefix.
func sitePath(path string) string {
	p, ok := strings.CutPrefix(path, rootPrefix())
	if !ok || !strings.HasPrefix(p, "/") {
		return path
	}
	return p
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
