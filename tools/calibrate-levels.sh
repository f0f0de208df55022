#!/bin/sh
# Plays the matches the levels' ratings are fitted from (engine/levels.txt,
# docs/engine.md "Levels"): every level from 2 to 18 against the level
# below it, the new levels against the ten levels of before (the build
# before the finer scale, over GTP) and against GRhino (Debian's grhino).
# About 25 minutes on two cores; each table is written as it finishes, so
# a run cut short keeps what it did. Then:
#   go run ./cmd/ratings cmd/ratings/matches/*.md > engine/levels.txt
#
# OLD is the earlier build's binary (its gtp --level takes the old 1-10):
#   git worktree add /tmp/old c8a4f97 && (cd /tmp/old && go build -o /tmp/old-bot ./cmd/othello-bot)
set -eu
OLD=${OLD:-/tmp/old-bot}
OUT=${OUT:-cmd/ratings/matches}
RHINO=${RHINO:-/usr/games/gtp-rhino}
go build -o /tmp/arena-cal ./cmd/arena
run() { # FILE ARGS...: one table, kept only when the match finished
	f=$1; shift
	/tmp/arena-cal "$@" > "$f.tmp" && mv "$f.tmp" "$f"
	cat "$f"
}
run "$OUT/ladder-20.md" -ladder 2-18 -games 400
for pair in "6 2" "11 3" "13 4" "15 5" "16 5"; do
	set -- $pair
	run "$OUT/old-$1-$2.md" -a "$1" -gtp "$OLD gtp --level $2" -gtp-name "old level $2" -games 200
done
for pair in "11 1" "13 2" "15 3"; do
	set -- $pair
	run "$OUT/rhino-$1-$2.md" -a "$1" -gtp "$RHINO -l $2" -gtp-name "gtp-rhino -l $2" -games 60
done
# The top levels against their neighbours, 100 games and more each (level
# 20 on a work budget, so the load does not decide; about an hour on one
# core each):
run "$OUT/19-18-100.md" -a 19 -b 18 -games 100 -workers 1 -seed 3
run "$OUT/20-19-nodes-a.md" -a 20 -b 19 -nodes 2000000 -games 100 -workers 1 -seed 4
run "$OUT/20-19-nodes-b.md" -a 20 -b 19 -nodes 2000000 -games 50 -workers 1 -seed 5
