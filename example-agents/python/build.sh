#!/bin/sh
# Builds a Python agent into a WebAssembly component of one arena world, with componentize-py
# (pip install componentize-py==0.25.1; scripts/install-test-tools.sh installs it).
#
#   ./build.sh WORLD SOURCE.py OUT.wasm        WORLD: farm, farkle or jungle
#
# SOURCE.py defines `class WitWorld` (see climber.py); modules next to it can be imported. The
# WIT package is ../../wit from this script, or $ARENA_WIT. $PYTHON names the Python that has
# componentize-py (default python3).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 WORLD SOURCE.py OUT.wasm   (WORLD: farm, farkle or jungle)" >&2
    exit 2
fi
world=$1
source=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
wit=${ARENA_WIT:-$here/../../wit}
case $source in
*.py) ;;
*) echo "$0: $source is not a .py file" >&2; exit 2 ;;
esac
[ -f "$source" ] || { echo "$0: $source: no such file" >&2; exit 2; }
app_dir=$(cd "$(dirname "$source")" && pwd)
app=$(basename "$source" .py)
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac
# An empty virtual environment: only the standard library and the app's own folder go into the
# component, whatever packages this machine's Python has (the same sources give the same bytes).
venv=${TMPDIR:-/tmp}/arena-componentize-py-venv
[ -d "$venv" ] || "${PYTHON:-python3}" -m venv --without-pip "$venv"
cd "$app_dir"
# Errors name the Python problem; the Rust backtrace of the tool would only bury it.
export RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0
VIRTUAL_ENV=$venv exec "${PYTHON:-python3}" -c \
    'import sys; from componentize_py import script; sys.argv[0] = "componentize-py"; sys.exit(script())' \
    -d "$wit" -w "$world" componentize "$app" -p "$app_dir" -o "$out"
