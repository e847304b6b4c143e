//go:build !(js && wasm)

package bridge

// LocalStorage returns the browser's localStorage. Outside a browser there
// is none: it returns a new, empty MemoryStorage, so nothing persists.
func LocalStorage() Storage { return NewMemoryStorage() }

// LocationHash returns the page address's fragment. Outside a browser there
// is no address: it returns a new, empty MemoryFragment.
func LocationHash() Fragment { return NewMemoryFragment() }
