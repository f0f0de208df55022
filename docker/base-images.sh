#!/usr/bin/env bash
# Makes, without any image registry, the two base images the Dockerfile
# names, from what these machines can reach (Debian's archive and this
# machine's Go release):
#
#   debian:bookworm-slim   a debootstrap minbase of bookworm, imported
#   golang:1.27-bookworm   that, plus the C toolchain and /usr/local/go
#
# Both are tagged under the names the Dockerfile uses (docker.io/library/…),
# so `buildah bud --pull=never` builds the unchanged Dockerfile from them.
# An image already present is kept; --force makes both again.
#
# Needs root, debootstrap, podman and buildah (Debian packages). Set
# STORAGE_DRIVER=vfs where overlay mounts are not allowed.
set -euo pipefail

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
goroot=${GOROOT_FOR_IMAGE:-$(go env GOROOT)}
slim=docker.io/library/debian:bookworm-slim
golang=docker.io/library/golang:1.27-bookworm
force=0
[ "${1:-}" = "--force" ] && force=1

have() { [ "$force" = 0 ] && buildah inspect --type image "$1" >/dev/null 2>&1; }
step() { echo "image: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if have "$slim"; then
  step "$slim present"
else
  step "$slim: debootstrap --variant=minbase bookworm from $mirror"
  t0=$(date +%s)
  debootstrap --variant=minbase bookworm "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  # As the official slim image: updates and security updates in the
  # sources, no package lists, caches or docs shipped.
  rm -f "$work/root/etc/apt/sources.list"
  cat >"$work/root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  # As debuerreotype makes the official slim image: apt keeps no caches
  # or translations, dpkg installs no docs (but copyrights), man pages or
  # locales, and those debootstrap installed go.
  cat >"$work/root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
  echo 'Acquire::Languages "none";' >"$work/root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$work/root/etc/apt/apt.conf.d/docker-autoremove-suggests"
  cat >"$work/root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/info/*
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
DPKG
  find "$work/root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$work/root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$work/root/var/lib/apt/lists/"* "$work/root/var/cache/apt/"*.bin \
    "$work/root/var/cache/apt/archives/"*.deb "$work/root/usr/share/man/"* "$work/root/usr/share/info/"* \
    "$work/root/usr/share/locale/"* "$work/root/usr/share/groff/"* "$work/root/usr/share/lintian/"* \
    "$work/root/var/log/"*.log
  tar --numeric-owner -C "$work/root" -c . | podman import \
    --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - "$slim" >/dev/null 2>&1
  step "$slim made in $(($(date +%s) - t0)) s"
fi

if have "$golang"; then
  step "$golang present"
else
  version=$("$goroot/bin/go" env GOVERSION)
  step "$golang: $slim + gcc, libc6-dev, git + $version from $goroot"
  t0=$(date +%s)
  ctr=$(buildah from --pull=never "$slim")
  # What the official golang image installs for cgo and go get.
  buildah run --isolation chroot --network host "$ctr" -- sh -c \
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       ca-certificates gcc g++ libc6-dev make pkg-config git >/dev/null && rm -rf /var/lib/apt/lists/*'
  # Certificates this machine trusts beyond Debian's (here, those of the
  # TLS-intercepting egress proxy in front of the module proxy), so that
  # `go mod download` in the build trusts what this machine trusts. Only
  # the build stage's base gets them; the bot's image does not.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    buildah copy "$ctr" '/usr/local/share/ca-certificates/' /usr/local/share/ca-certificates/ >/dev/null
    buildah run --isolation chroot "$ctr" -- update-ca-certificates >/dev/null 2>&1
  fi
  buildah copy "$ctr" "$goroot" /usr/local/go >/dev/null
  buildah run --isolation chroot "$ctr" -- mkdir -p /go/bin /go/src
  buildah config \
    --env GOLANG_VERSION="${version#go}" --env GOTOOLCHAIN=local --env GOPATH=/go \
    --env PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --workingdir /go --cmd bash "$ctr"
  buildah commit --quiet --rm "$ctr" "$golang" >/dev/null
  step "$golang made in $(($(date +%s) - t0)) s"
fi
