//go:build js && wasm && yarnplay_gcslices

package app

import _ "unsafe" // for go:linkname

// gcSlices says that the page was built with the edited runtime, whose
// collector marks in slices and says when it marks (gcMarking).
const gcSlices = true

// gcMarking reports whether the garbage collector is marking: the
// browser build's edited runtime (build/site/gcslices.go) says so.
//
//go:linkname gcMarking runtime.jsMarking
func gcMarking() bool
