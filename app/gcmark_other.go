//go:build !(js && wasm && yarnplay_gcslices)

package app

// gcMarking reports whether the garbage collector is marking; without
// the browser build's edited runtime it cannot tell, and says no.
func gcMarking() bool { return false }
