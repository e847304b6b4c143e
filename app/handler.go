package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Page-wide settings shared by the handler and the components.
const (
	// Name is the product's name.
	Name = "yarnplay"
	// Title is the HTML title of the pages.
	Title = "yarnplay: the YARN Capacity Scheduler in your browser"
	// Description is the page's meta description.
	Description = "A playground for the Apache Hadoop YARN Capacity Scheduler: " +
		"queues, capacities and every scheduling decision, computed in your browser."
	// StylesheetPath is the playground's stylesheet, served from web/app.css.
	StylesheetPath = "/web/app.css"
	// IconPath is the playground's icon, served from web/icon.svg.
	IconPath = "/web/icon.svg"
)

// NewHandler returns the go-app handler that serves or pre-renders the
// playground's pages. version identifies the build (go-app's service worker
// refreshes its cache when it changes); an empty version makes go-app
// generate one from the clock, which is only fit for development.
func NewHandler(version string) *app.Handler {
	return &app.Handler{
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
	}
}
