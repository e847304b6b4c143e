//go:build !(js && wasm && yarnplay_gcslices)

package app

// gcSlices says that the page was built with the edited runtime; it was
// not (see gcmark_slices.go).
const gcSlices = false

// gcMarking reports whether the garbage collector is marking; without
// the browser build's edited runtime it cannot tell, and says no.
func gcMarking() bool { return false }
