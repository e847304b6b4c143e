//go:build !(js && wasm)

package bridge

// SystemClipboard returns the clipboard: in memory outside a browser.
func SystemClipboard() Clipboard { return &MemoryClipboard{} }

// Downloads returns the file downloader: in memory outside a browser.
func Downloads() Downloader { return &MemoryDownloader{} }

// Files returns the reader of chosen files: in memory outside a browser.
func Files() FileReader { return &MemoryFileReader{} }

// PageKeyboard returns the page's keyboard: in memory outside a browser.
func PageKeyboard() Keyboard { return &MemoryKeyboard{} }
