// Package browsertest drives the built site in a real browser: it compiles
// app.wasm and the static pages into a temporary directory (with package
// site, as `go run ./build` does), serves them on 127.0.0.1, opens them in
// headless Chromium (/usr/bin/chromium, through chromedp) and checks what
// the WebAssembly rendered. Screenshots go to dist/screenshots/ at the
// module root.
//
// Without Chromium the tests skip, unless the environment variable CI is set
// (CI=true), where a missing browser is a failure. Install it on Debian with
// `apt-get install chromium`. `make browser-test` runs only these tests.
package browsertest
