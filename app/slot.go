package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// slot keeps an element that comes and goes (shown when show) in a place of
// its own among its parent's children, laid out as if the place were not
// there (.slot is display: contents). go-app matches a parent's children
// by their position: an element that appears or goes before its siblings
// shifts them, and every sibling then found where one of another kind was
// is drawn again from scratch (the "you stand before the end" notice, at
// the first step back, made the whole application editor, table and
// forms, be built anew).
func slot(show bool, elem func() app.UI) app.UI {
	return app.Div().Class("slot").Body(app.If(show, elem))
}
