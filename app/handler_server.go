//go:build !wasm

package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/wasm/worker"
)

// NewHandler returns the go-app handler that serves or pre-renders the
// playground's pages. version identifies the build (go-app's service worker
// refreshes its cache when it changes); an empty version makes go-app
// generate one from the clock, which is only fit for development.
//
// Only native builds have it: the browser never serves pages, and its build
// compiles go-app without Handler (build/site/trims.go).
func NewHandler(version string) *app.Handler { return NewHandlerAt(version, "/") }

// NewHandlerAt is NewHandler for a site served under base ("/yarnplay/"
// for a GitHub Pages project site; "/" or "" at the root): every address
// the pages, go-app's loader and its service worker use starts with it.
func NewHandlerAt(version, base string) *app.Handler {
	prefix := strings.TrimRight(base, "/")
	if prefix != "" && !strings.HasPrefix(prefix, "/") {
		prefix = "/" + prefix
	}
	var res app.ResourceResolver = app.LocalDir("")
	if prefix != "" {
		res = app.PrefixedLocation(prefix)
	}
	return &app.Handler{
		Resources:       res,
		Name:            Name,
		ShortName:       Name,
		Title:           Title,
		Description:     Description,
		Lang:            "en",
		Styles:          []string{StylesheetPath},
		Icon:            app.Icon{Default: IconPath, Large: IconPath, SVG: IconPath, Maskable: IconPath},
		BackgroundColor: "#f7f7f4",
		ThemeColor:      "#1f5f8b",
		LoadingLabel:    "Loading the scheduler: {progress}%",
		Version:         version,
		RawHeaders: []string{wasmPreload(prefix), OwnWorkScript,
			worker.EarlyScript(prefix, lessonPrefix, store.SaveKey), noScriptStyle},
	}
}
