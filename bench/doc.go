// Package bench holds yarnplay's performance benchmarks (the "Performance
// at scale" issue): allocation throughput, scaling in leaves, apps and
// nodes, heartbeats that allocate nothing, WebAssembly under Node and in
// headless Chromium, the playground itself at benchmark 1's scale in
// Chromium, the size of app.wasm and the time to the first queue
// tree, and the memory held per node, app and container.
//
// `make bench` runs them all (go run ./bench/cmd/yarnplay-bench, which runs
// go test -bench on this package) and prints each figure beside its
// target. The workloads are seeded and deterministic (package
// yarnplay/bench/workload).
package bench
