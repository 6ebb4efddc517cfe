#!/usr/bin/env bash
# Runs every Benchmarks/run-*.sh in smoke mode (docs/benchmarks.md, "Smoke mode") on the binaries
# already built in .build/debug (or $SMPCTL_BENCH_BIN) and prints the time each took; a script
# that fails shows its output, and the run fails once all have run. .ci/test runs it after the build.
# The scripts that Benchmarks/run-all.sh runs ($headline_scripts, Benchmarks/support.sh) run once,
# inside `run-all.sh --smoke`, whose output gives the time of each.
#
#   Benchmarks/smoke.sh [SCRIPT…]      (default: every Benchmarks/run-*.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/support.sh
scripts=("$@")
if [ $# -eq 0 ]; then
    for script in Benchmarks/run-*.sh; do
        [[ " ${headline_scripts[*]} " == *" $(basename "$script") "* ]] || scripts+=("$script")
    done
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
total=$(now)
failed=()
for script in "${scripts[@]}"; do
    start=$(now)
    if ! bash "$script" --smoke >"$log" 2>&1; then
        cat "$log" >&2
        echo "error: $script --smoke failed after $(since "$start") s" >&2
        failed+=("$script")
        continue
    fi
    printf '%-28s %6.1f s\n' "$(basename "$script") --smoke" "$(since "$start")"
    # run-all.sh's time for each script it ran
    grep -E '^=== .*: [0-9.]+ s$' "$log" | sed 's/^=== /    /' || true
done
printf '%-28s %6.1f s\n' "all smoke runs" "$(since "$total")"
[ ${#failed[@]} -eq 0 ] || { echo "error: smoke mode failed: ${failed[*]}" >&2; exit 1; }
