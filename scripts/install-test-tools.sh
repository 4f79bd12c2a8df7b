#!/usr/bin/env bash
# Installs what the test suite needs besides Rust: the wasm targets, the toolchains of the
# example agents in other languages (tests/languages.rs, docs/languages/) and of the component
# agents (docs/COMPONENTS.md), headless Chromium for the report's browser test
# (host/tests/report_browser.rs) with ChromeDriver for the server's (tests/serve_browser.rs), and
# the PostgreSQL server for the tests of `arena serve --database`, `arena worker` and
# `arena league --database` (tests/serve.rs, tests/workers.rs, tests/worker_throughput.rs: they
# run Debian's initdb and pg_ctl from /usr/lib/postgresql/VERSION/bin themselves, as the user
# nobody when run as root, in a temporary folder, with TLS certificates made by openssl; the
# package's own cluster is not used). Uses
# apt-get (as root or with sudo), npm and pip; everything comes from the package registries.
# Versions are pinned; what is already installed at the pinned version is not installed again.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown wasm32-wasip1 wasm32-wasip2

export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq clang lld wasi-libc libclang-rt-dev-wasm32 chromium chromium-driver \
    postgresql openssl >/dev/null
clang --version | sed -n 1p
ls -d /usr/lib/postgresql/*/bin/postgres
chromium --version 2>/dev/null || true
chromedriver --version 2>/dev/null || true

(cd example-agents/assemblyscript && npm ci --no-audit --no-fund)
python3 -m pip install -q ziglang==0.15.2
echo "zig $(python3 -m ziglang version)"

# Component agents: componentize-py (Python) from PyPI, componentize-js (JavaScript) from npm as
# pinned by example-agents/javascript/package-lock.json (npm ci runs again only when that file
# changed since the last install).
if ! python3 -m pip show componentize-py 2>/dev/null | grep -qx 'Version: 0.25.1'; then
    python3 -m pip install -q componentize-py==0.25.1
fi
python3 -c 'import sys; from componentize_py import script; sys.argv = ["componentize-py", "--version"]; script()'
js=example-agents/javascript
if ! cmp -s "$js/package-lock.json" "$js/node_modules/.arena-installed-lock.json"; then
    (cd "$js" && npm ci --no-audit --no-fund && cp package-lock.json node_modules/.arena-installed-lock.json)
fi
echo "componentize-js $(node -p "require('./$js/node_modules/@bytecodealliance/componentize-js/package.json').version")"
