#!/usr/bin/env bash
# wasmcount.sh counts the machine instructions that Node's WebAssembly
# compiler (TurboFan, V8's optimising tier, as in a warm browser tab) runs
# per heartbeat of the wasm harness (benchmark 4's workload), without the
# host's noise: valgrind counts every instruction of two runs, of 3 and 11
# measured ticks after 40 warm ones, and their difference is 40,000
# heartbeats, setup and compilation cancelled out. The harness is built as
# the site's app.wasm is (`go run ./build flags`, then `go run ./build
# thread`), unless given; the runtime's collector runs in both runs, as in
# the browser. Two runs of the same build differ by about 1%. With GOGC=off
# in the environment (valgrind and node pass it on to the Go program) the
# collector stays off and the count is the heartbeats' own work: the way to
# compare two versions of the core (bench/results/log.md, step 33).
#
#	bash bench/wasmcount.sh [harness.wasm]   # from the repository's root
#	GOGC=off bash bench/wasmcount.sh
#
# Needs valgrind and node. About three minutes on two cores. Where
# bench/corecount.sh weighs the core's own code natively, this weighs what
# the browser runs: Go's WebAssembly passes arguments in memory and makes
# every call a resumable point, so a call costs several times more there.
set -euo pipefail
. "$(dirname "$0")/wasmsetup.sh" "$@"
count() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		node --no-liftoff --single-threaded "$dir/wasm_exec_node.js" "$wasm" -warm 40 -ticks "$1" >"$dir/out.$1" 2>&1
}
count 3 &
count 11
wait
refs() { sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$dir/out.$1" | tr -d ,; }
a=$(refs 3) b=$(refs 11)
hb=$(($(heartbeats "$dir/out.11") - $(heartbeats "$dir/out.3")))
echo "wasm under node: $(((b - a) / hb)) instructions per heartbeat ($a and $b in all, $hb heartbeats between them)"
