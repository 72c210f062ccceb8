#!/usr/bin/env bash
# Installs what is missing, then configures and builds prec into build/ (tools in build/bin/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/scripts/setup.sh"
cmake -G Ninja -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release > "$root/build.configure.log" 2>&1 ||
  { cat "$root/build.configure.log"; exit 1; }
ninja -C "$root/build" -j2
