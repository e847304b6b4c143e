#!/usr/bin/env bash
# corecount.sh counts the scheduler core's own work per heartbeat, without
# the host's noise: instructions and L1 read misses by callgrind, over the
# wasm harness's workload (benchmark 4's) built natively. Two runs of 3 and
# 11 measured ticks after 10 warm ones; their difference is 40,000
# heartbeats, setup and warm-up cancelled out. Only the core's functions
# are summed (the runtime's collector varies from run to run).
#
#	bash bench/corecount.sh            # from the repository's root
#
# Needs valgrind and python3. About three minutes. GOMAXPROCS=1,
# asyncpreemptoff and --fair-sched keep Go's runtime from livelocking
# under valgrind.
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/harness" ./bench/wasmharness
for t in 3 11; do
	GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --fair-sched=yes --tool=callgrind --cache-sim=yes \
		--callgrind-out-file="$dir/cg.$t" "$dir/harness" -warm 10 -ticks "$t" >/dev/null 2>&1
done
python3 - "$dir" <<'PY'
import re, subprocess, sys
d = sys.argv[1]
def core(f):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", f], capture_output=True, text=True, check=True).stdout
    tot = [0] * 9
    for line in out.splitlines():
        if not re.match(r"^ *[0-9,]+ \(", line) or "=>" in line or "yarnplay/core" not in line:
            continue
        for i, x in enumerate(re.sub(r"\(\s*[0-9.]+%\)", "", line).split()[:9]):
            if x != ".":
                tot[i] += int(x.replace(",", ""))
    return tot
a, b = core(f"{d}/cg.3"), core(f"{d}/cg.11")
hb = 8 * 5000
print(f"core per heartbeat: {(b[0]-a[0])/hb:,.0f} instructions, {(b[4]-a[4])/hb:.1f} L1 read misses")
PY
