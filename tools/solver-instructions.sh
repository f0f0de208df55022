#!/usr/bin/env bash
# The instructions the exact solver runs on one FFO position, counted by
# callgrind: the same for the same build whether the machine is idle or
# busy (CPU seconds here swing by 1.3x between runs of one build), so two
# builds of the solver can be compared on a shared machine. The count is
# the whole test binary's, its start-up (about 0.45 billion: the weights
# decoded, the tables built) included; runs of one build differ by up to
# 1% (the collector and the runtime's own threads), so compare medians of a
# few runs. Needs valgrind (Debian's package). Usage:
#   tools/solver-instructions.sh [ffo40|ffo41|...]   (default ffo40)
set -euo pipefail
cd "$(dirname "$0")/.."
pos="${1:-ffo40}"
command -v valgrind >/dev/null || { echo "solver-instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/engine.test" ./engine
cd engine # the test reads testdata/ from here
# Go's asynchronous preemption signals trip callgrind's signal handling.
GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$dir/out" \
  "$dir/engine.test" -test.run '^$' -test.bench "^BenchmarkSolveFFO$/^${pos}$" -test.benchtime 1x >"$dir/log" 2>&1 || {
  cat "$dir/log" >&2
  exit 1
}
nodes=$(awk '/nodes\/op/ {for (i = 1; i < NF; i++) if ($(i+1) == "nodes/op") print $i}' "$dir/log")
instr=$(sed -n 's/.*I *refs: *//p' "$dir/log" | tr -d ,)
echo "$pos nodes=$nodes instructions=$instr"
