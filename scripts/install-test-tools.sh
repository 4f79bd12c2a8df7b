#!/usr/bin/env bash
# Installs what the test suite needs besides Rust: the wasm targets, the toolchains of the
# example agents in other languages (tests/languages.rs, docs/languages/), and headless Chromium
# for the report's browser test (host/tests/report_browser.rs) with ChromeDriver for the server's
# (tests/serve_browser.rs). Uses apt-get (as root or with sudo), npm and pip; everything comes
# from the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown wasm32-wasip1

export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq clang lld wasi-libc libclang-rt-dev-wasm32 chromium chromium-driver >/dev/null
clang --version | sed -n 1p
chromium --version 2>/dev/null || true
chromedriver --version 2>/dev/null || true

(cd example-agents/assemblyscript && npm ci --no-audit --no-fund)
python3 -m pip install -q ziglang==0.15.2
echo "zig $(python3 -m ziglang version)"
