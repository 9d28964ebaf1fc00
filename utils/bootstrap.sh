#!/usr/bin/env bash
# cuda-bank-lint set-up for a fresh Debian 12 machine: installs the Debian
# packages that are missing, configures and builds with CMake + Ninja, then
#   utils/bootstrap.sh examples  runs the tool on examples/
#   utils/bootstrap.sh test      runs every test (unit + lit) through ctest
#   utils/bootstrap.sh build     only builds
#   utils/bootstrap.sh sanitize  also builds with clang++-19, ASan+UBSan
#                                (build-sanitize) and runs every test under it
#                                (utils/sanitize.sh)
#   utils/bootstrap.sh fuzz [SECONDS]  builds build-sanitize (its libFuzzer
#                                targets included) and runs each target for
#                                SECONDS (default 600) from seeds made from the
#                                lit suite (utils/fuzz/run.sh); findings go to
#                                build-sanitize/fuzz/crashes/<target>/
# BUILD_DIR (default: build) selects the build directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-examples}
build=${BUILD_DIR:-$root/build}

# libclang-rt-19-dev: the sanitizer and libFuzzer runtimes (sanitize, fuzz).
packages=(cmake ninja-build g++ pkg-config python3 clang-19 libclang-19-dev llvm-19-dev
          llvm-19-tools libisl-dev libfmt-dev libgtest-dev libclang-rt-19-dev)
# Used by the integration tests (skipped when absent); installed when possible.
# neovim, clangd: the language server's tests with a real editor, beside clangd
# (test/lit/server/nvim.test, editors-neovim*.test).
optional=(pre-commit clang-tools-19 git neovim clangd)
missing=()
for p in "${packages[@]}" "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "bootstrap: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# fuzz needs only the sanitizer build.
if [ "$what" != fuzz ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py >/dev/null
  cmake --build "$build"
fi

case "$what" in
  build) ;;
  examples)
    # Warnings are the point of the examples; the tool exits 0 on warnings.
    "$build/bin/cuda-bank-lint" "$root"/examples/*.cu ;;
  test)
    ctest --test-dir "$build" --output-on-failure ;;
  sanitize)
    "$root/utils/sanitize.sh" "$root/build-sanitize" ;;
  fuzz)
    "$root/utils/sanitize.sh" --build-only "$root/build-sanitize"
    BUILD_DIR="$root/build-sanitize" "$root/utils/fuzz/run.sh" "${2:-600}" ;;
  *) echo "usage: $0 [examples|test|build|sanitize|fuzz [SECONDS]]" >&2; exit 2 ;;
esac
