#!/usr/bin/env bash
# wasmprofile.sh weighs, function by function, the machine instructions
# that Node's WebAssembly compiler (TurboFan, as in a warm browser tab) runs
# per heartbeat of the wasm harness (benchmark 4's workload): where
# bench/wasmcount.sh gives the total, this says which of the browser's
# functions it is spent in, and which functions were inlined (they are
# absent). Like wasmcount.sh, it runs the harness twice under valgrind, for
# 3 and 11 measured ticks after 40 warm ones, and prints the difference over
# the 40,000 heartbeats between them, with GOGC=off (the collector's work
# left out). Each run's node writes its map of compiled code
# (--perf-basic-prof: /tmp/perf-PID.map), which names the code callgrind
# counted (--dump-instr=yes, per instruction address). The harness is built
# as app.wasm is (`go run ./build flags`, then `go run ./build thread`),
# with its name section kept.
#
#	bash bench/wasmprofile.sh [harness.wasm]   # from the repository's root
#
# Needs valgrind, node and python3; about three minutes on two cores. The
# rows are instructions per heartbeat, the function's own (its inlined
# callees included, its calls not); V8's compiler, which runs in both runs,
# is left out. The core's rows, and their sum printed apart, are the same on
# every run of one build: the number to compare two versions of the core by.
# The runtime's map and hash rows move (Go seeds its maps' hashes at random),
# and with them the total, by up to 1% (16,769 to 16,901 for one commit).
# bench/results/log.md (step 34) tells what the first profile showed.
#
# With WASMPROFILE_CACHE=1, valgrind also simulates the host's caches
# (--cache-sim=yes: 11.5 minutes instead of three) and each row gets the
# function's first-level instruction cache misses per heartbeat. The
# browser's heartbeat runs more code than that cache holds: 1,125 misses per
# heartbeat of the harness before its jumps were rewritten; step 35 of the
# log has 985 for benchmark 5's scenario, against 13 natively.
set -euo pipefail
cache=()
if [ -n "${WASMPROFILE_CACHE:-}" ]; then
	cache=(--cache-sim=yes)
fi
. "$(dirname "$0")/wasmsetup.sh" "$@"
run() {
	# In $dir: node writes its logs (isolate-*-v8.log) where it runs.
	(cd "$dir" && GOGC=off valgrind --tool=callgrind --dump-instr=yes "${cache[@]}" --callgrind-out-file="$dir/cg.$1" \
		node --perf-basic-prof --no-liftoff --single-threaded "$dir/wasm_exec_node.js" "$wasm" \
		-warm 40 -ticks "$1" >"$dir/log.$1" 2>&1)
	pid=$(grep -m1 -o '^==[0-9]*==' "$dir/log.$1" | tr -d =)
	mv "/tmp/perf-$pid.map" "$dir/map.$1"
}
run 3 &
run 11
wait
python3 - "$dir" $(($(heartbeats "$dir/log.11") - $(heartbeats "$dir/log.3"))) <<'PY'
import bisect, collections, re, sys

d = sys.argv[1]


def load_map(path):
    """The compiled code's address ranges and names, sorted by address."""
    ranges = []
    for line in open(path):
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) == 3:
            ranges.append((int(parts[0], 16), int(parts[1], 16), parts[2]))
    ranges.sort()
    return ranges


def own_costs(cg, mapfile):
    """Instructions (and, with the cache simulated, first-level instruction
    cache misses) by the compiled function each was counted in."""
    ranges = load_map(mapfile)
    starts = [r[0] for r in ranges]
    costs, misses = collections.Counter(), collections.Counter()
    npos, imiss, last, after_call = 1, -1, 0, False
    for line in open(cg, errors="replace"):
        if line.startswith("positions:"):
            npos = len(line.split()) - 1
        elif line.startswith("events:"):
            events = line.split()[1:]
            imiss = events.index("I1mr") if "I1mr" in events else -1
        elif line.startswith("calls="):
            after_call = True  # the next cost line is the call's, inclusive
        elif line[:1].isdigit() or line[:1] in "+-*":
            fields = line.split()
            if len(fields) < npos + 1:
                continue
            tok = fields[0]
            if tok == "*":
                addr = last
            elif tok[0] in "+-":
                addr = last + int(tok[0] + str(int(tok[1:], 0)))
            else:
                addr = int(tok, 0)
            last = addr
            if after_call:
                after_call = False
                continue
            i = bisect.bisect_right(starts, addr) - 1
            if i >= 0 and addr < ranges[i][0] + ranges[i][1]:
                costs[ranges[i][2]] += int(fields[npos])
                if 0 <= imiss < len(fields) - npos:
                    misses[ranges[i][2]] += int(fields[npos + imiss])
    return costs, misses


(a, am), (b, bm) = own_costs(f"{d}/cg.3", f"{d}/map.3"), own_costs(f"{d}/cg.11", f"{d}/map.11")
cached = bool(am or bm)
hb = int(sys.argv[2])  # the heartbeats between the two runs
rows, missrows = collections.Counter(), collections.Counter()
for name in set(a) | set(b):
    if name.startswith("JS:") and name.endswith("-turbofan"):
        short = re.sub(r"-\d+-turbofan$", "", name[3:])
        rows[short] += (b.get(name, 0) - a.get(name, 0)) / hb
        missrows[short] += (bm.get(name, 0) - am.get(name, 0)) / hb
core = sum(v for name, v in rows.items() if name.startswith("yarnplay_core"))
print(f"wasm functions per heartbeat: {sum(rows.values()):,.0f} instructions")
print(f"the core's (yarnplay/core...): {core:,.0f}, the same on every run of one build")
if cached:
    print(f"first-level instruction cache misses per heartbeat: {sum(missrows.values()):,.0f} (second column)")
for name, v in rows.most_common(40):
    if v < 1:
        break
    if cached:
        print(f"{v:8,.0f} {missrows[name]:7,.1f}  {name}")
    else:
        print(f"{v:8,.0f}  {name}")
PY
