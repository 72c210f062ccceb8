#!/usr/bin/env bash
# Runs each of prec's libFuzzer targets (tools/fuzz) for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS per target (default 60); TARGETs by their short names (mlir, onnx,
# npy, plan, calibration, trt-cache, legalize-options; default all). The
# targets are built with clang, ASan and UBSan in build-asan/ (by
# scripts/build-sanitized.sh, the tree the sanitized test suite uses); corpora
# start from the test suite's inputs and grow in build-asan/corpus/<target>/. The
# inputs of crashes found before (tools/fuzz/regressions/<target>/) are
# replayed first. Two targets run at a time. Any crash, sanitizer report,
# leak, timeout or out-of-memory fails the script and leaves the input in
# build-asan/artifacts/<target>/. PREC_FUZZ_SEED fixes libFuzzer's random
# seed: the same corpus then yields the same inputs, so a crash repeats.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(mlir onnx npy plan calibration trt-cache legalize-options)
fi

# The seeds need prec-calibrate: build prec unless it has been built.
[ -x "$root/build/bin/prec-calibrate" ] || "$root/scripts/build.sh"
build="$root/build-asan"
"$root/scripts/build-sanitized.sh" prec-fuzzers

seeds="$build/seeds"
rm -rf "$seeds"
/usr/bin/python3 "$root/tools/fuzz/make_seeds.py" "$root" "$root/build/bin" "$seeds"

# libMLIR.so is not instrumented: LLVM's allocators poison memory that its
# own code then uses (see test/lit.cfg.py).
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1

run_target() {
  local target=$1
  local fuzzer="$build/bin/prec-fuzz-$target"
  local corpus="$build/corpus/$target"
  local artifacts="$build/artifacts/$target/"
  local work="$build/work/$target"
  local log="$build/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$work" "$(dirname "$log")"
  local options=(-timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=3072
    -artifact_prefix="$artifacts" -print_final_stats=1 -close_fd_mask=3)
  local dictionary="$root/tools/fuzz/dicts/$target.dict"
  case $target in
    plan | calibration) dictionary="$root/tools/fuzz/dicts/json.dict" ;;
  esac
  [ -f "$dictionary" ] && options+=(-dict="$dictionary")
  [ -n "${PREC_FUZZ_SEED:-}" ] && options+=(-seed="$PREC_FUZZ_SEED")
  # The importer reads external data relative to the model: a scratch folder.
  cd "$work"
  local regressions="$root/tools/fuzz/regressions/$target"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    "$fuzzer" "${options[@]}" "$regressions"/* > "$log.replay" 2>&1 ||
      { echo "fuzz $target: a regression input fails again"; tail -40 "$log.replay"; return 1; }
  fi
  if ! "$fuzzer" "${options[@]}" -max_total_time="$seconds" "$corpus" \
      "$seeds/$target" > "$log" 2>&1; then
    echo "fuzz $target: FAILED (input in $artifacts)"
    tail -60 "$log"
    return 1
  fi
  local runs coverage
  runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log")
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  echo "fuzz $target: ${runs:-0} executions in ${seconds} s, ${coverage:-cov: 0}," \
    "corpus $(ls "$corpus" | wc -l) inputs, no crash"
}

failed=0
pids=()
for target in "${targets[@]}"; do
  [ -x "$build/bin/prec-fuzz-$target" ] ||
    { echo "fuzz: no target '$target'"; exit 2; }
  run_target "$target" &
  pids+=($!)
  if [ ${#pids[@]} -eq 2 ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[1]}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
rm -f "${TMPDIR:-/tmp}"/prec-fuzz-*
exit $failed
