#!/usr/bin/env bash
# lessonab.sh compares two checkouts on benchmark 7 (the default lesson,
# stepped with the → key in headless Chromium): it runs the benchmark N
# times in each, alternating, so that a slow spell of the machine falls on
# both, prints each run's steps (ms from the key to the frame) and then,
# for each checkout, the mean step, the steps over two frames (33.4 ms),
# the median and mean of the runs' worst steps, and each step's mean.
#
#	bash bench/lessonab.sh 25 . ../other-checkout
#
# A checkout is a directory with the repository (git worktree add --detach
# DIR COMMIT makes one). Once a checkout's site is built a run takes 2 to
# 5 seconds; the worst step moves by several milliseconds from one batch
# of runs to the next on a 2-core machine, so compare 25 runs or more, and
# a second batch in the other order.
set -euo pipefail
if [ $# -ne 3 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
	echo "usage: bash bench/lessonab.sh RUNS CHECKOUT_A CHECKOUT_B" >&2
	exit 2
fi
runs=$1
a=$(cd "$2" && pwd)
b=$(cd "$3" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$runs"); do
	for d in "$a" "$b"; do
		steps=$(cd "$d" && go test -run '^$' -bench '^BenchmarkLesson$' -benchtime 1x -v ./bench/ 2>&1 |
			sed -n 's/.*to the frame: \[\(.*\)\] ms$/\1/p')
		if [ -z "$steps" ]; then
			echo "benchmark 7 printed no steps in $d" >&2
			exit 1
		fi
		echo "$d $steps" | tee -a "$out"
	done
done
for d in "$a" "$b"; do
	echo
	echo "$d:"
	grep -F "$d " "$out" | cut -d' ' -f2- | awk -v over=33.4 '
		{
			worst = 0
			for (i = 1; i <= NF; i++) {
				sum += $i; n++; step[i] += $i
				if ($i > over) late++
				if ($i > worst) worst = $i
			}
			worsts[NR] = worst; wsum += worst
			if (NF > steps) steps = NF
		}
		END {
			# the median of the runs worst steps (insertion sort: few runs)
			for (i = 2; i <= NR; i++) {
				v = worsts[i]
				for (j = i - 1; j >= 1 && worsts[j] > v; j--) worsts[j + 1] = worsts[j]
				worsts[j + 1] = v
			}
			med = NR % 2 ? worsts[(NR + 1) / 2] : (worsts[NR / 2] + worsts[NR / 2 + 1]) / 2
			printf "  runs %d, mean step %.1f ms, steps over %s ms %d of %d\n", NR, sum / n, over, late, n
			printf "  worst step: median %.1f ms, mean %.1f ms\n", med, wsum / NR
			printf "  each step'"'"'s mean (ms):"
			for (i = 1; i <= steps; i++) printf " %.1f", step[i] / NR
			printf "\n"
		}'
done
