// Package worker runs the simulation in a dedicated Web Worker and gives
// the page its client: the same app.wasm runs in two roles. In the page
// it starts go-app and the components, which only render; in the worker
// (web/worker.js instantiates it there) Serve applies the page's
// commands to a store and posts back the replies (package protocol), each
// as the bytes of a Uint8Array whose buffer is transferred, not copied.
//
// The page's head starts the worker (EarlyScript), before the page's own
// app.wasm has loaded, and sends it the saved work the page will open:
// the worker loads, starts and opens it while the page loads and mounts.
// Saved work of many steps opens in two parts: the step it stands on
// first, from the steps up to it, which is what the page's opening is
// answered with; the later steps are read once the page has drawn it,
// and their frame goes to the page unasked (protocol.Server.ReadRest).
//
// Natively there is no worker: InWorker is false, and the page uses a
// store in the process (protocol.InProcess).
package worker

import "strconv"

// ScriptPath is the worker's bootstrap (web/worker.js): Go's wasm_exec.js,
// then app.wasm instantiated and run.
const ScriptPath = "/web/worker.js"

// EarlyGlobal is the page's global that holds the worker EarlyScript
// started, until NewClient takes it.
const EarlyGlobal = "yarnplayWorker"

// EarlyScript is a script for the page's head: it starts the simulation's
// worker (ScriptPath under the site's root prefix) at once, as go-app's
// loader would start the page's own app.wasm (not for robots, nor with
// ?wasm=false), and keeps it in EarlyGlobal for NewClient. Unless the
// address carries a share link, it sends the worker the saved work in
// localStorage (key saveKey) with the lesson of the route (the path after
// lessonPrefix, "" elsewhere): the worker opens it ahead of the page's
// command to open the work (protocol.Server.Prepare), which answers from
// it when it is the same. It fails silently: the page then starts the
// worker itself.
func EarlyScript(prefix, lessonPrefix, saveKey string) string {
	return `<script>(function(){try{` +
		`if(/bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent)||` +
		`new URLSearchParams(location.search).get("wasm")==="false"||typeof Worker!=="function")return;` +
		`var w=new Worker(` + strconv.Quote(prefix+ScriptPath) + `);` +
		`self[` + strconv.Quote(EarlyGlobal) + `]=w;` +
		`if(location.hash.indexOf("s=")>=0)return;` +
		`var saved=localStorage.getItem(` + strconv.Quote(saveKey) + `);` +
		`if(!saved)return;` +
		`var p=location.pathname,pre=` + strconv.Quote(lessonPrefix) + `,i=p.indexOf(pre),` +
		`slug=i>=0?p.slice(i+pre.length).replace(/^\/+|\/+$/g,""):"";` +
		`w.postMessage({prepare:saved,slug:slug})` +
		`}catch(e){}})()</script>`
}
