// Package app is yarnplay's user interface: go-app components, the routes
// they answer, and the page handler settings the build tool pre-renders with.
//
// The same package is compiled twice. In the browser (GOOS=js GOARCH=wasm,
// from ./wasm) it renders the playground; natively, the build tool imports it
// to register the same routes and pre-render the static pages, each with its
// lesson's start computed by the same store and views (Page.OnPreRender), to
// be shown, inert, until the browser's page replaces it. What needs the
// browser (localStorage, the address, the keyboard) happens in OnInit and
// OnMount on the client only.
//
// Inside this package the identifier app is go-app's package
// (github.com/maxence-charriere/go-app/v10/pkg/app), as in go-app's own
// documentation; other packages import both, naming go-app's goapp.
//
// An element's event handler reads what it acts on when it runs (the
// component's fields, the element's data attributes), never a value the
// render captured: go-app keeps a mounted element's handler when a later
// render gives it the same function literal, whatever that one captured
// (eventHandler.Equal compares code pointers), so a captured value would
// be the one of the render that first mounted the element.
package app
