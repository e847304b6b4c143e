//go:build js && wasm && !yarnplay_gcslices

package main

// markingKnown says that marking does not know.
const markingKnown = false

// marking says no: without the edits there is no runtime.jsMarking.
func marking() bool { return false }
