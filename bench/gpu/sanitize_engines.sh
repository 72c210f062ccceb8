#!/usr/bin/env bash
# Runs prec engines under compute-sanitizer on the GPU machine: for each
# ENGINE.cu (with its .h and .weights beside it), builds engine_status.cu
# against it and runs it once on zero inputs under each tool (memcheck and
# racecheck unless PREC_SANITIZE_TOOLS says otherwise, each run limited to
# PREC_SANITIZE_SECONDS, default 300). Then, on the first engine, checks the
# status paths that need a GPU: running out of device memory at create, and
# a run on a second stream while the first is busy.
#
# Usage: bench/gpu/sanitize_engines.sh OUT_DIR ENGINE.cu...
# Prints one line per engine and tool; exits 1 if any reports an error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
tools=${PREC_SANITIZE_TOOLS:-memcheck racecheck}
seconds=${PREC_SANITIZE_SECONDS:-300}
mkdir -p "$out"
build() {
  local cu=$1 stem dir extra=()
  stem=$(basename "$cu" .cu)
  dir=$(dirname "$cu")
  grep -q "cudnn.h" "$cu" && extra=(-lcudnn)
  nvcc -std=c++17 -O2 -arch=sm_90a -DENGINE="$stem" -include "$dir/$stem.h" \
    -I"$dir" "$cu" "$here/engine_status.cu" -lcublasLt "${extra[@]}" \
    -o "$out/$stem" > "$out/$stem.build.log" 2>&1
}
for cu in "$@"; do build "$cu" & done
wait
failed=0
for cu in "$@"; do
  stem=$(basename "$cu" .cu)
  if [ ! -x "$out/$stem" ]; then
    echo "$stem: build failed"; cat "$out/$stem.build.log"; failed=1; continue
  fi
  for tool in $tools; do
    log="$out/$stem.$tool.log"
    timeout "$seconds" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$out/$stem" run "$(dirname "$cu")/$stem.weights" > "$log" 2>&1
    status=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
    echo "$stem $tool: exit $status; ${summary:-no summary}"
    [ $status -eq 0 ] || { failed=1; tail -5 "$log"; }
  done
done
first=$(basename "$1" .cu)
"$out/$first" oom "$(dirname "$1")/$first.weights" || failed=1
"$out/$first" streams "$(dirname "$1")/$first.weights" || failed=1
exit $failed
