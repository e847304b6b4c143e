//go:build js && wasm && !yarnplay_gcslices

package main

// marking says no: without the edits there is no runtime.jsMarking.
func marking() bool { return false }
