# wasmsetup.sh is sourced by wasmcount.sh and wasmprofile.sh, with their
# arguments: it makes a temporary directory, $dir (removed on exit), with
# Go's wasm_exec files for node in it, and sets $wasm to the harness given
# as the first argument or, without one, to one built in $dir as the site's
# app.wasm is built (`go run ./build flags`, then `go run ./build thread`).
# Run from the repository's root.
# heartbeats prints how many heartbeats the harness measured, from its
# output (its RESULT line) in the file given.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
wasm=${1:+$(realpath "$1")}
if [ -z "$wasm" ]; then
	wasm=$dir/harness.wasm
	mapfile -t flags < <(go run ./build flags)
	GOOS=js GOARCH=wasm go build -trimpath "${flags[@]}" -o "$wasm" ./bench/wasmharness
	go run ./build thread "$wasm" >/dev/null
fi
root=$(go env GOROOT)
cp "$root/lib/wasm/wasm_exec.js" "$root/lib/wasm/wasm_exec_node.js" "$dir/"
heartbeats() { sed -n 's/^RESULT .*"heartbeats":\([0-9]*\).*/\1/p' "$1"; }
