#!/usr/bin/env bash
# Builds cuda-bank-lint with AddressSanitizer and UndefinedBehaviorSanitizer
# (any UB is fatal) in a separate build directory and runs every test with it;
# optional files after the directory are then linted with the sanitized binary
# (their compile flags after --).
#   utils/sanitize.sh [BUILD_DIR] [FILE... [-- FLAGS...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sanitize}
shift || true
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py >/dev/null
cmake --build "$build"
# LLVM's own allocations outlive main by design: leaks are not reported.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
ctest --test-dir "$build" --output-on-failure
if [ $# -gt 0 ]; then
  "$build/bin/cuda-bank-lint" --quiet "$@"
fi
