#!/usr/bin/env bash
# Runs every Benchmarks/run-*.sh in smoke mode (docs/benchmarks.md, "Smoke mode") on the binaries
# already built in .build/debug (or $SMPCTL_BENCH_BIN) and prints the time each took; a script
# that fails shows its output, and the run fails once all have run. .ci/test runs it after the build.
#
#   Benchmarks/smoke.sh [SCRIPT…]      (default: every Benchmarks/run-*.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts=("$@")
[ $# -gt 0 ] || scripts=(Benchmarks/run-*.sh)
# seconds START: the seconds since START (date +%s%N).
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
total=$(date +%s%N)
failed=()
for script in "${scripts[@]}"; do
    start=$(date +%s%N)
    if ! bash "$script" --smoke >"$log" 2>&1; then
        cat "$log" >&2
        echo "error: $script --smoke failed after $(seconds "$start") s" >&2
        failed+=("$script")
        continue
    fi
    printf '%-28s %6s s\n' "$(basename "$script") --smoke" "$(seconds "$start")"
done
printf '%-28s %6s s\n' "all smoke runs" "$(seconds "$total")"
[ ${#failed[@]} -eq 0 ] || { echo "error: smoke mode failed: ${failed[*]}" >&2; exit 1; }
