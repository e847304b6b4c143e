// Package protocol is what the page and the simulation say to each other
// when the simulation runs in a Web Worker: commands (the store's actions
// and questions, as data) going one way, replies (a command's outcome and
// the frame it published) coming back.
//
// The page sends a Command and gets a Reply; the Server applies commands
// to a store.Store. Both travel as bytes (EncodeCommand, EncodeReply),
// versioned like the share-link format: a message of another version, or
// one that does not decode, is an error, never a panic. A reply's frame
// goes as a delta of the frame the page already holds, in a hand-written
// binary form that costs little to write and read in WebAssembly
// (frame.go): a list of views as the elements that changed (delta.go), a
// queue's or node's configured part only when it changed, a node's
// containers as runs over its last ones, the history points and the
// configuration the page has not at all, and names through a table both
// ends keep (strtab.go). A reply whose frame does not read leaves the page
// without frames to apply deltas to (ErrResync): it asks for the frame
// whole (OpResync). Steps back and forth among the frames sent lately are
// answered from them, without replaying (navcache.go). Answers with a
// structure (an undo point, why an
// application waits, a snapshot's files, what opening the work came to)
// travel as JSON in Reply.Data (answers.go).
//
// Natively (tests, the pre-rendered pages) InProcess answers commands at
// once from a store in the same process, through the same Server, so that
// what the page sees is what the worker would send.
//
// The package is pure Go: no syscall/js. The worker's and the page's ends
// of postMessage are in wasm/worker.
package protocol
