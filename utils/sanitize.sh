#!/usr/bin/env bash
# Builds cuda-bank-lint with clang++-19, AddressSanitizer and
# UndefinedBehaviorSanitizer (any UB is fatal) in a separate build directory
# and runs every test (unit + lit through ctest) with it; optional files after
# the directory are then linted with the sanitized binary (their compile
# flags after --). Every file is also compiled with -fsanitize=fuzzer-no-link
# and the build has CBL_FUZZ=ON, so the same directory holds the libFuzzer
# targets (bin/fuzz-*) that utils/fuzz/run.sh runs: one build for both.
#   utils/sanitize.sh [--build-only] [BUILD_DIR] [FILE... [-- FLAGS...]]
# CMAKE_BUILD_PARALLEL_LEVEL limits the build's jobs (e.g. 2 on a small machine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi
build=${1:-$root/build-sanitize}
shift || true
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
# -O1 and line tables: symbolized reports, and Clang's AST visitors compile
# in a fraction of the time -O2 -g takes under ASan.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCBL_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$sanitizers -fno-omit-frame-pointer" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py >/dev/null
cmake --build "$build"
[ "$build_only" = 1 ] && exit 0
# LLVM's own allocations outlive main by design: leaks are not reported.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
ctest --test-dir "$build" --output-on-failure
if [ $# -gt 0 ]; then
  "$build/bin/cuda-bank-lint" --quiet "$@"
fi
