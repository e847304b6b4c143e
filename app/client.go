package app

import "yarnplay/app/store"

// newPageController returns the controller of the page in the browser.
func newPageController() *Controller { return NewLocalController(store.New()) }
