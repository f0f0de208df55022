#!/usr/bin/env bash
# Checks the bot for known vulnerabilities its code reaches, with no
# network but the Go module proxy: the OSV records carried by the
# golang.org/x/vulndb module (pinned in go.mod here) become a database on
# disk through the database's own indexer, and govulncheck reads it. Exits
# non-zero on any vulnerability the bot's code calls, in the standard
# library (the Go toolchain that runs this) or in a module.
#
#   tools/vuln/check.sh [govulncheck flags, e.g. -show verbose]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT

go -C "$here" mod download golang.org/x/vulndb
osv=$(go -C "$here" list -m -f '{{.Dir}}' golang.org/x/vulndb)/data/osv
echo "vulncheck: $(go version); database golang.org/x/vulndb $(go -C "$here" list -m -f '{{.Version}}' golang.org/x/vulndb), $(ls "$osv" | wc -l) records"
go -C "$here" tool indexdb -vulns "$osv" -out "$db/vulndb"
go -C "$here" tool govulncheck -C "$root" -db "file://$db/vulndb" "$@" ./...
