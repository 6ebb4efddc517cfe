#!/usr/bin/env bash
# Builds the CBOR libFuzzer target and fuzzes it briefly; exits non-zero on a crash.
#
#   Tests/Scripts/cbor/fuzz-smoke.sh [SECONDS]     (default: $FUZZ_SECONDS, else 30)
#
# Seeds: RFC 8949 Appendix A and F (rfc8949-appendix-*.hex, written to a temporary directory)
# and the regression corpus fuzz-regressions/, which libFuzzer runs first. The fuzz build uses
# its own scratch path (.build-fuzz, or $FUZZ_SCRATCH_PATH) so it never disturbs .build.
# A crashing input is kept in fuzz-artifacts/ at the package root; reproduce it with
#   .build-fuzz/debug/cbor-fuzzer fuzz-artifacts/crash-…      (the fuzz build), or
#   swift build --product cbor-fuzzer && .build/debug/cbor-fuzzer fuzz-artifacts/crash-…
# and add it to fuzz-regressions/ once fixed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
seconds="${1:-${FUZZ_SECONDS:-30}}"
scratch="${FUZZ_SCRATCH_PATH:-$root/.build-fuzz}"
cd "$root"

flags=(--product cbor-fuzzer --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer -Xswiftc -DCBOR_FUZZING)
echo "fuzz-smoke: building cbor-fuzzer with libFuzzer"
swift build "${flags[@]}"
fuzzer="$(swift build "${flags[@]}" --show-bin-path)/cbor-fuzzer"

work="$(mktemp -d "${TMPDIR:-/tmp}/cbor-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/seeds" "$root/fuzz-artifacts"

# One seed file per hex line (comments and blank lines skipped).
count=0
for list in rfc8949-appendix-a.hex rfc8949-appendix-f.hex; do
    while IFS= read -r hex; do
        case "$hex" in ''|'#'*) continue ;; esac
        printf '%b' "$(printf '%s' "$hex" | sed 's/../\\x&/g')" > "$work/seeds/${list%.hex}-$count"
        count=$((count + 1))
    done < "$here/$list"
done
echo "fuzz-smoke: $count seeds, $(find "$here/fuzz-regressions" -type f ! -name '*.md' | wc -l) regression inputs, ${seconds}s"

# Let libFuzzer, not Swift's backtracer, handle a crash, so that it saves the input.
export SWIFT_BACKTRACE=enable=no
status=0
"$fuzzer" "$work/corpus" "$work/seeds" "$here/fuzz-regressions" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$root/fuzz-artifacts/" -print_final_stats=1 2>"$work/log" || status=$?

grep -E '^(INFO: seed corpus|#[0-9]+[[:space:]]+(INITED|DONE))|^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$work/log" || true
if [ "$status" -ne 0 ]; then
    tail -n 60 "$work/log"
    echo "fuzz-smoke: FAILED (libFuzzer exit status $status); inputs kept in fuzz-artifacts/:" >&2
    ls -1 "$root/fuzz-artifacts" >&2 || true
    exit 1
fi
rmdir "$root/fuzz-artifacts" 2>/dev/null || true
echo "fuzz-smoke: passed, no crash in ${seconds}s"
