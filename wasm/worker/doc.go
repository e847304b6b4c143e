// Package worker runs the simulation in a dedicated Web Worker and gives
// the page its client: the same app.wasm runs in two roles. In the page
// it starts go-app and the components, which only render; in the worker
// (web/worker.js instantiates it there) Serve applies the page's
// commands to a store and posts back the replies (package protocol), each
// as the bytes of a Uint8Array whose buffer is transferred, not copied.
//
// Natively there is no worker: InWorker is false, and the page uses a
// store in the process (protocol.InProcess).
package worker

// ScriptPath is the worker's bootstrap (web/worker.js): Go's wasm_exec.js,
// then app.wasm instantiated and run.
const ScriptPath = "/web/worker.js"
