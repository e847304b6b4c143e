//go:build js && wasm && yarnplay_gcslices

package main

import _ "unsafe" // for go:linkname

// markingKnown says that marking reports the collector's marks.
const markingKnown = true

// marking is the edited runtime's jsMarking, as the page links it.
//
//go:linkname marking runtime.jsMarking
func marking() bool
