#!/usr/bin/env bash
# Builds the bot's image from the unchanged Dockerfile with buildah, with
# no registry: the base images come from docker/base-images.sh.
#
#   docker/build-image.sh [TAG]      (default localhost/othello-bot:dev)
#
# Needs root, debootstrap, buildah and podman (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-localhost/othello-bot:dev}

bash docker/base-images.sh

revision=$(git rev-parse HEAD 2>/dev/null || echo "")
version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
# The source label only for a repository others can reach, not a path.
source=$(git remote get-url origin 2>/dev/null || echo "")
case "$source" in https://* | http://*) ;; *) source="" ;; esac
echo "image: building $tag from the Dockerfile (version $version)"
t0=$(date +%s)
# --format docker keeps HEALTHCHECK (OCI image configs have no field for
# it); chroot isolation and the host network are what these machines allow.
buildah bud --isolation chroot --network host --pull=never --format docker \
  --layers=false --build-arg VERSION="$version" --build-arg REVISION="$revision" \
  --build-arg SOURCE="$source" -t "$tag" . >/tmp/othello-image-build.log 2>&1 || {
  tail -40 /tmp/othello-image-build.log >&2
  echo "image: the build failed (log above)" >&2
  exit 1
}
grep -E '^\[[0-9]/[0-9]\] STEP' /tmp/othello-image-build.log
echo "image: built $tag in $(($(date +%s) - t0)) s; size $(buildah images --format '{{.Size}}' "$tag")"
