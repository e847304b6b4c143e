package app

import (
	"yarnplay/app/store"
	"yarnplay/wasm/bridge"
)

// Controller is how components reach the one store: they call Do from
// their event handlers (go-app runs those on the UI goroutine), the store
// changes and publishes a new frame, and the page re-renders from it.
// Components never change the store's frames.
type Controller struct {
	// Store owns the simulation.
	Store *store.Store
	// Clipboard, Downloads and Files reach the browser (in memory natively).
	Clipboard bridge.Clipboard
	Downloads bridge.Downloader
	Files     bridge.FileReader
	// Changed, if set, is called after every action (the page saves the
	// work, debounced).
	Changed func()
}

// NewController returns a controller over s with the page's bridges.
func NewController(s *store.Store) *Controller {
	return &Controller{
		Store:     s,
		Clipboard: bridge.SystemClipboard(),
		Downloads: bridge.Downloads(),
		Files:     bridge.Files(),
	}
}

// Do runs an action on the store and reports its error (the store also
// shows it in the next frame's Err).
func (c *Controller) Do(action func(s *store.Store) error) error {
	err := action(c.Store)
	if c.Changed != nil {
		c.Changed()
	}
	return err
}

// Frame returns the current frame.
func (c *Controller) Frame() *store.Frame { return c.Store.Frame() }
