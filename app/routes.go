package app

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// PathHome is the playground's start page.
const PathHome = "/"

var registerRoutes sync.Once

// Routes registers every page of the playground with go-app. The browser
// entry point (./wasm) and the build tool's pre-renderer both call it, so the
// two sides answer the same paths. Calling it again does nothing.
func Routes() {
	registerRoutes.Do(func() {
		app.Route(PathHome, func() app.Composer { return &Page{} })
	})
}

// Paths lists the routed paths, for the static site generator.
func Paths() []string {
	return []string{PathHome}
}
