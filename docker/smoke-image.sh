#!/usr/bin/env bash
# Smoke test of the built image, as its own user and paths:
#   the image's user, entrypoint, health check and labels;
#   migrate creates the database on the /data volume;
#   a short game through local ends with its results line in /data;
#   run without a token exits 2 with its one-line reason, not a crash;
#   health fails without a running bot, and passes against a live /healthz;
#   the bot as PID 1 stops on SIGTERM and exits 0.
#
#   docker/smoke-image.sh [TAG]      (default localhost/othello-bot:dev)
#
# podman run is refused on these machines (no raising RLIMIT_NOFILE), so the
# image runs through `buildah run --isolation chroot` (which keeps the
# volume between runs in one container, as a named volume), and, for
# PID 1, chroot into its mounted root in a new PID namespace.
set -euo pipefail
tag=${1:-localhost/othello-bot:dev}
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
ok() { echo "smoke: ok: $*"; }

ctr=$(buildah from --pull=never "$tag")
pid1=""
cleanup() {
  [ -n "$pid1" ] && kill -KILL "$pid1" 2>/dev/null || true
  buildah umount "$ctr" >/dev/null 2>&1 || true
  buildah rm "$ctr" >/dev/null 2>&1 || true
}
trap cleanup EXIT
# Runs a command in the container the way the image runs it: its user,
# entrypoint and working directory, the /data volume kept between runs.
in_image() { buildah run --isolation chroot "$ctr" -- "$@"; }
field() { buildah inspect --type image --format "$1" "$tag"; }

# The image's own settings.
[ "$(field '{{.Docker.Config.User}}')" = othello ] || fail "the image's user is $(field '{{.Docker.Config.User}}'), not othello"
[ "$(field '{{.Docker.Config.Entrypoint}}')" = "[othello-bot]" ] || fail "entrypoint $(field '{{.Docker.Config.Entrypoint}}')"
[ "$(field '{{.Docker.Config.Healthcheck.Test}}')" = "[CMD othello-bot health]" ] || fail "health check $(field '{{.Docker.Config.Healthcheck.Test}}')"
for label in source version revision licenses; do
  echo "smoke: label org.opencontainers.image.$label=$(field "{{index .Docker.Config.Labels \"org.opencontainers.image.$label\"}}")"
done
[ "$(field '{{index .Docker.Config.Labels "org.opencontainers.image.licenses"}}')" = MIT ] || fail "licence label"
ok "user othello, entrypoint othello-bot, HEALTHCHECK othello-bot health, labels"

uid=$(in_image id -u)
[ "$uid" != 0 ] && [ "$uid" = 10001 ] || fail "the binary runs as uid $uid, not the non-root 10001"
in_image test -s /usr/share/doc/othello-bot/LICENSE || fail "no LICENSE in the image"
in_image grep -q 'github.com/mattn/go-sqlite3' /usr/share/doc/othello-bot/THIRD_PARTY_NOTICES || fail "no third-party notices in the image"
ok "runs as uid $uid (othello); the licence and notices are in /usr/share/doc/othello-bot"

# Built with the Go release CI runs (go.mod's, with its security fixes).
want=$(go env GOVERSION)
out=$(in_image othello-bot version) || fail "version: $out"
echo "smoke: $(echo "$out" | tr '\n' ' ')"
case "$out" in *"built with $want"*) ;; *) fail "the binary was not built with $want: $out" ;; esac
ok "built with $want"

# migrate creates the database on the volume, at the newest schema.
out=$(in_image othello-bot migrate --db /data/othello-bot.db --results /data/results.log 2>/dev/null) || fail "migrate: $out"
echo "smoke: $out"
case "$out" in *"schema version "*) ;; *) fail "migrate said: $out" ;; esac
in_image test -s /data/othello-bot.db || fail "no database in /data"
[ "$(in_image stat -c %U /data/othello-bot.db)" = othello ] || fail "the database is not othello's"
ok "migrate created /data/othello-bot.db"

# A 4x4 game between two people through local, to the end.
script='/challenge @bob color:black size:4
bob: click Accept
/move b1
bob: /move a1
/move a2
bob: /move c1
/move d1
bob: /move a3
/move a4
bob: /move d2
/move d3
bob: /move b4
/move c4
bob: /move d4
quit'
game=$(printf '%s\n' "$script" | in_image othello-bot local --user alice --db /data/othello-bot.db --results /data/results.log 2>&1) || fail "local: $game"
case "$game" in *"bob ⚪ wins 10–6"*) ;; *) fail "the game did not end as expected: $(printf '%s' "$game" | tail -20)" ;; esac
line=$(in_image cat /data/results.log)
echo "smoke: results.log: $line"
case "$line" in *'black="alice"'*'white="bob"'*'score=6-10 winner=white end=normal'*'transcript="b1a1a2c1d1a3a4d2d3b4c4d4"'*) ;;
  *) fail "no results line for the game in /data/results.log" ;; esac
ok "a 4x4 game through local ended with its results line in /data/results.log"

# run without a token: exit 2, one line saying why. (Through sh, which
# reports the exit status, so buildah's own complaint about a command
# that failed does not mix with the bot's words.)
status() { in_image sh -c '"$@" 2>&1; echo "exit=$?"' sh "$@"; }
out=$(status othello-bot run --db /data/othello-bot.db --results /data/results.log)
errs=$(printf '%s\n' "$out" | sed '$d')
echo "smoke: run without DISCORD_TOKEN: $(printf '%s' "$out" | tail -1): $errs"
[ "$(printf '%s\n' "$out" | tail -1)" = exit=2 ] || fail "run without a token: $out"
[ "$(printf '%s\n' "$errs" | wc -l)" = 1 ] || fail "run without a token said more than one line: $errs"
case "$errs" in "othello-bot run: DISCORD_TOKEN is not set"*) ;; *) fail "run without a token: $errs" ;; esac
ok "run without a token exits 2 with its one-line reason"

# The health check with no bot running fails, saying why.
out=$(status othello-bot health)
echo "smoke: health with no bot running: $(printf '%s' "$out" | tail -1): $(printf '%s\n' "$out" | sed '$d')"
[ "$(printf '%s\n' "$out" | tail -1)" = exit=1 ] || fail "health with no bot running: $out"
ok "health fails while no bot runs"

# PID 1: the web server (no Discord needed) as PID 1 of a new PID
# namespace, as the image's user in its root; health asks its /healthz,
# then SIGTERM stops it and it exits 0.
root=$(buildah mount "$ctr")
user=$(awk -F: '$1 == "othello" {print $3 ":" $4}' "$root/etc/passwd")
port=$((20000 + RANDOM % 20000))
pages="othello-bot web --addr 127.0.0.1:$port --db /data/pages.db --results /data/pages.log"
log=$(mktemp)
unshare --pid --fork chroot --userspec="$user" "$root" /bin/sh -c "cd /data && exec $pages" >"$log" 2>&1 &
unshare_pid=$!
for _ in $(seq 100); do
  pid1=$(pgrep -P "$unshare_pid" || true)
  [ -n "$pid1" ] && break
  sleep 0.1
done
[ -n "$pid1" ] || fail "the web server did not start: $(cat "$log")"
inside=$(awk '/^NSpid:/ {print $NF}' "/proc/$pid1/status")
[ "$inside" = 1 ] || fail "the bot is PID $inside in its namespace, not 1"
[ "$(stat -c %u "/proc/$pid1")" = "${user%%:*}" ] || fail "PID 1 runs as uid $(stat -c %u "/proc/$pid1")"
healthy=""
for _ in $(seq 100); do
  if healthy=$(chroot --userspec="$user" "$root" othello-bot health --url "http://127.0.0.1:$port/healthz" 2>&1); then break; fi
  healthy=""
  sleep 0.1
done
[ "$healthy" = healthy ] || fail "health against the live /healthz: $(cat "$log")"
ok "othello-bot web runs as PID 1, uid ${user%%:*}; health --url says healthy"
kill -TERM "$pid1"
set +e
wait "$unshare_pid"
code=$?
set -e
pid1=""
[ "$code" = 0 ] || fail "PID 1 exited $code on SIGTERM: $(cat "$log")"
ok "SIGTERM reaches PID 1, which stops and exits 0"

echo "smoke: image $tag is $(buildah images --format '{{.Size}}' "$tag")"
echo "smoke: all steps passed"
