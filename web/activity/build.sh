#!/bin/sh
# Bundles the Activity's script (src/main.js with the Embedded App SDK)
# into ../static/activity.js, reproducibly: the exact package versions of
# package-lock.json (npm ci), one esbuild release, no source map and no
# timestamps. Run by `go generate ./web`; CI checks the committed bundle
# is what this builds.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npx --no-install esbuild src/main.js --bundle --minify --format=iife --target=es2020 \
  --legal-comments=eof --charset=utf8 --outfile=../static/activity.js --log-level=warning
# The licences of what the bundle holds, for THIRD_PARTY_NOTICES.
{
  echo "The Discord Activity's script (web/static/activity.js) bundles these npm packages:"
  for dir in $(npm ls --omit=dev --all --parseable | tail -n +2 | LC_ALL=C sort); do
    name=$(node -p "const p = require('$dir/package.json'); p.name + ' ' + p.version")
    echo
    echo "================================================================"
    echo "$name"
    echo "================================================================"
    for f in "$dir"/LICEN[CS]E*; do [ -f "$f" ] && cat "$f"; done
  done
} > NOTICES
