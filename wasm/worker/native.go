//go:build !(js && wasm)

package worker

import "yarnplay/protocol"

// InWorker reports whether the program runs in a Web Worker: natively,
// never.
func InWorker() bool { return false }

// Serve serves the page's commands in a Web Worker; natively there is
// none, and it returns at once.
func Serve() {}

// NewClient returns the page's client of the worker; natively there is no
// worker, and it returns nil.
func NewClient(script string, post func(func())) protocol.Client { return nil }
