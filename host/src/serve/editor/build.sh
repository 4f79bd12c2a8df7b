#!/bin/sh
# Rebuilds editor.js (committed) from entry.js and the npm packages pinned in package.json
# (package-lock.json pins their dependencies): one minified bundle, no other file to load, so the
# page's Content-Security-Policy stays 'self'. Also gathers the packages' licenses into
# LICENSES.txt. Needs Node.js and npm; `cargo build` does not run it.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npx esbuild entry.js --bundle --minify --format=iife --legal-comments=none --outfile=editor.js
{
    echo "editor.js bundles these packages (from node_modules, as pinned by package-lock.json);"
    echo "their licenses follow."
    for d in node_modules/@codemirror/* node_modules/@lezer/* node_modules/codemirror \
             node_modules/crelt node_modules/style-mod node_modules/w3c-keyname \
             node_modules/@marijn/*; do
        [ -f "$d/LICENSE" ] || continue
        name=$(node -p "require('./$d/package.json').name + ' ' + require('./$d/package.json').version")
        printf '\n==== %s ====\n\n' "$name"
        cat "$d/LICENSE"
    done
} > LICENSES.txt
rm -rf node_modules
echo "editor.js: $(wc -c < editor.js) bytes"
