// Package bridge reaches the browser features the playground keeps state in:
// the URL fragment (shareable links) and localStorage (preferences). Each is
// an interface with two implementations: the browser's, through
// github.com/hack-pad/safejs (GOOS=js GOARCH=wasm only), and an in-memory one
// that native builds get from the same constructors and tests can use
// anywhere. App code depends on the interfaces only, so it compiles natively.
package bridge

import "strings"

// Storage is a string key-value store: window.localStorage in the browser.
type Storage interface {
	// Get returns the value stored under key; ok is false when there is none.
	Get(key string) (value string, ok bool, err error)
	// Set stores value under key.
	Set(key, value string) error
}

// Fragment is the page address's fragment, the part after '#', which
// browsers never send to a server.
type Fragment interface {
	// Get returns the fragment without its leading '#'.
	Get() (string, error)
	// Set replaces the fragment; a leading '#' in v is ignored.
	Set(v string) error
}

// MemoryStorage is a Storage held in a map. The zero value is ready to use.
// It is not safe for concurrent use, like the browser's (go-app runs UI code
// on one goroutine).
type MemoryStorage struct {
	items map[string]string
}

// NewMemoryStorage returns an empty MemoryStorage.
func NewMemoryStorage() *MemoryStorage { return &MemoryStorage{} }

// Get implements Storage.
func (m *MemoryStorage) Get(key string) (string, bool, error) {
	v, ok := m.items[key]
	return v, ok, nil
}

// Set implements Storage.
func (m *MemoryStorage) Set(key, value string) error {
	if m.items == nil {
		m.items = make(map[string]string)
	}
	m.items[key] = value
	return nil
}

// MemoryFragment is a Fragment held in a string. The zero value is an empty
// fragment.
type MemoryFragment struct {
	value string
}

// NewMemoryFragment returns an empty MemoryFragment.
func NewMemoryFragment() *MemoryFragment { return &MemoryFragment{} }

// Get implements Fragment.
func (m *MemoryFragment) Get() (string, error) { return m.value, nil }

// Set implements Fragment.
func (m *MemoryFragment) Set(v string) error {
	m.value = strings.TrimPrefix(v, "#")
	return nil
}
