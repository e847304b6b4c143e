// The simulation's thread: yarnplay's app.wasm in its second role
// (wasm/worker). Go's wasm support, then app.wasm; the page's messages
// that come before Go listens wait in self.early. The addresses are
// relative to this script's, so that a site served under a sub-path
// (/yarnplay/web/worker.js) loads its own files. The phases of its start
// are "yarnplay:load" measures (benchmark 5 logs them).
"use strict";
self.early = [];
self.onmessage = (e) => self.early.push(e.data);
const started = performance.now();
performance.measure("yarnplay:load worker script", {start: 0, end: started});
importScripts("../wasm_exec.js");
const go = new Go();
WebAssembly.instantiateStreaming(fetch("app.wasm"), go.importObject)
  .then((r) => {
    performance.measure("yarnplay:load worker wasm", {start: started, end: performance.now()});
    return go.run(r.instance);
  })
  .catch((err) => console.error("yarnplay: the simulation did not start:", err));
