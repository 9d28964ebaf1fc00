#!/usr/bin/env bash
# Runs the libFuzzer targets of a CBL_FUZZ=ON build (utils/sanitize.sh makes
# one: ASan + UBSan) for SECONDS each (default 600), one after the other, each
# from the seeds that make_seeds.py builds from the lit suite plus the corpus
# it grew before, with its dictionary. Findings (crash-*, timeout-*, oom-*)
# go to BUILD_DIR/fuzz/crashes/<target>/; the corpus grows in
# BUILD_DIR/fuzz/corpus/<target>/; each run's log is BUILD_DIR/fuzz/<target>.log.
#   utils/fuzz/run.sh [SECONDS [TARGET...]]   (targets: config compile-db frontend)
# BUILD_DIR (default: build-sanitize) selects the build. Exit 1 if a target
# found something. Reproduce a finding: BUILD_DIR/bin/fuzz-<target> FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build-sanitize}
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config compile-db frontend)
out=$build/fuzz
python3 "$root/utils/fuzz/make_seeds.py" "$out/seeds" "${targets[@]}" >/dev/null
# LLVM's own allocations outlive each input by design: no leak reports.
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
status=0
for t in "${targets[@]}"; do
  bin=$build/bin/fuzz-$t
  [ -x "$bin" ] || { echo "run.sh: no $bin (build with utils/sanitize.sh --build-only)" >&2; exit 2; }
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  # frontend: inputs of at most 4 KB (the target's cap), 60 s each at most
  # (its --timeout budget is 5 s after the parse); the others are fast.
  limits=(-max_len=4096 -timeout=60 -rss_limit_mb=4096)
  [ "$t" = frontend ] || limits=(-max_len=16384 -timeout=10 -rss_limit_mb=2048)
  echo "fuzz-$t: ${seconds}s, log $out/$t.log, findings in $out/crashes/$t/"
  if "$bin" -max_total_time="$seconds" -print_final_stats=1 \
      -dict="$root/utils/fuzz/$t.dict" -artifact_prefix="$out/crashes/$t/" "${limits[@]}" \
      "$out/corpus/$t" "$out/seeds/$t" >"$out/$t.log" 2>&1; then
    grep -a -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$out/$t.log" || true
  else
    status=1
    echo "fuzz-$t: FOUND something (see $out/$t.log):" >&2
    ls "$out/crashes/$t" >&2
  fi
done
exit $status
