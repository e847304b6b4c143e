// Package noeq has T, a field's type that makes a struct not comparable
// with ==.
package noeq

// T, as a struct's first field (named _), makes the struct not comparable
// with ==, so that the binary carries no equality function for it: for
// the values app.wasm builds and never compares so (the panels' rows,
// which go-app compares by reflection; the chart's series; records of the
// scenario, the exports and why's verdicts), whose equality functions
// would otherwise count against its size budget. A struct so marked
// cannot be a map key, nor be compared through an interface.
type T [0]func()
