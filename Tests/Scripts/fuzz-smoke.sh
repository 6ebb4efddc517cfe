#!/usr/bin/env bash
# Builds one of the package's libFuzzer targets and fuzzes it briefly; exits non-zero on a crash.
# Shared by the per-target scripts ({cbor,serial,image,package,suit,hex}/fuzz-smoke.sh), which name
# the product and its seeds:
#
#   Tests/Scripts/fuzz-smoke.sh PRODUCT [--hex FILE]... [--seeds DIR]... [--corpus DIR]...
#                               [--max-len N] [--runs N] [SECONDS]
#
#   PRODUCT      the fuzzer executable (cbor-fuzzer, serial-fuzzer, image-fuzzer, package-fuzzer,
#                suit-fuzzer, intel-hex-fuzzer)
#   --hex FILE   seeds, one input per line as hex (lines starting with '#' and blank lines skipped)
#   --seeds DIR  seeds, one input per file (binary files, e.g. images made by imgtool)
#   --corpus DIR inputs libFuzzer runs first, e.g. a regression corpus of past findings
#   --max-len N  libFuzzer's -max_len (default 4096)
#   --runs N     stop after N executions instead of after SECONDS (the long runs of docs/fuzzing.md)
#   SECONDS      how long to fuzz (default: $FUZZ_SECONDS, else 30)
#
# Environment: FUZZ_CONFIGURATION=release builds optimised (the long runs; default debug, as CI);
# FUZZ_CORPUS=DIR keeps the corpus libFuzzer grows in DIR (default: a temporary folder).
#
# Every fuzzer is built with -sanitize=fuzzer and all fuzzing defines (each target only reads its
# own: CBOR_FUZZING, SERIAL_FUZZING, IMAGE_FUZZING, PACKAGE_FUZZING, SUIT_FUZZING, HEX_FUZZING), so the targets
# share one build configuration in their own scratch path (.build-fuzz, or $FUZZ_SCRATCH_PATH;
# .build-fuzz-release for release) and never disturb .build nor rebuild each other.
# A crashing input is kept in fuzz-artifacts/ at the package root; reproduce it with
#   .build-fuzz/debug/PRODUCT fuzz-artifacts/crash-…      (the fuzz build), or
#   swift build --product PRODUCT && .build/debug/PRODUCT fuzz-artifacts/crash-…
# and add it to the target's fuzz-regressions/ once fixed.
set -euo pipefail

usage() {
    sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 1 ] || usage
product="$1"
shift
hex_files=()
seed_dirs=()
corpora=()
max_len=4096
runs=""
seconds="${FUZZ_SECONDS:-30}"
while [ $# -gt 0 ]; do
    case "$1" in
        --hex) [ $# -ge 2 ] || usage; hex_files+=("$2"); shift 2 ;;
        --seeds) [ $# -ge 2 ] || usage; seed_dirs+=("$2"); shift 2 ;;
        --corpus) [ $# -ge 2 ] || usage; corpora+=("$2"); shift 2 ;;
        --max-len) [ $# -ge 2 ] || usage; max_len="$2"; shift 2 ;;
        --runs) [ $# -ge 2 ] || usage; runs="$2"; shift 2 ;;
        -*) usage ;;
        *) seconds="$1"; shift ;;
    esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
configuration="${FUZZ_CONFIGURATION:-debug}"
case "$configuration" in
    debug) scratch="${FUZZ_SCRATCH_PATH:-$root/.build-fuzz}" ;;
    release) scratch="${FUZZ_SCRATCH_PATH:-$root/.build-fuzz-release}" ;;
    *) echo "fuzz-smoke: FUZZ_CONFIGURATION must be debug or release, not $configuration" >&2; exit 2 ;;
esac
cd "$root"

flags=(--product "$product" --scratch-path "$scratch" -c "$configuration" -Xswiftc -sanitize=fuzzer
    -Xswiftc -DCBOR_FUZZING -Xswiftc -DSERIAL_FUZZING -Xswiftc -DIMAGE_FUZZING -Xswiftc -DPACKAGE_FUZZING
    -Xswiftc -DSUIT_FUZZING -Xswiftc -DHEX_FUZZING)
echo "fuzz-smoke: building $product ($configuration) with libFuzzer"
swift build "${flags[@]}"
fuzzer="$(swift build "${flags[@]}" --show-bin-path)/$product"

work="$(mktemp -d "${TMPDIR:-/tmp}/$product.XXXXXX")"
trap 'rm -rf "$work"' EXIT
corpus="${FUZZ_CORPUS:-$work/corpus}"
mkdir -p "$corpus" "$work/seeds" "$root/fuzz-artifacts"

# One seed file per hex line (comments and blank lines skipped).
count=0
for list in ${hex_files[@]+"${hex_files[@]}"}; do
    name="$(basename "$list")"
    while IFS= read -r hex; do
        case "$hex" in ''|'#'*) continue ;; esac
        printf '%b' "$(printf '%s' "$hex" | sed 's/../\\x&/g')" > "$work/seeds/${name%.hex}-$count"
        count=$((count + 1))
    done < "$list"
done
for folder in ${seed_dirs[@]+"${seed_dirs[@]}"}; do
    count=$((count + $(find "$folder" -maxdepth 1 -type f ! -name '*.md' | wc -l)))
done
inputs=0
for folder in ${corpora[@]+"${corpora[@]}"}; do
    inputs=$((inputs + $(find "$folder" -type f ! -name '*.md' | wc -l)))
done
if [ -n "$runs" ]; then
    limit=(-runs="$runs")
    budget="$runs runs"
else
    limit=(-max_total_time="$seconds")
    budget="${seconds}s"
fi
echo "fuzz-smoke: $count seeds, $inputs regression inputs, $budget"

# Let libFuzzer, not Swift's backtracer, handle a crash, so that it saves the input.
export SWIFT_BACKTRACE=enable=no
status=0
started=$(date +%s)
"$fuzzer" "$corpus" "$work/seeds" ${seed_dirs[@]+"${seed_dirs[@]}"} ${corpora[@]+"${corpora[@]}"} \
    "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$root/fuzz-artifacts/" -print_final_stats=1 2>"$work/log" || status=$?
elapsed=$(( $(date +%s) - started ))

summary='^(INFO: seed corpus|#[0-9]+[[:space:]]+(INITED|DONE))|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb|new_units_added)'
grep -E "$summary" "$work/log" || true
echo "fuzz-smoke: wall time ${elapsed}s, corpus $(find "$corpus" -type f | wc -l) inputs"
if [ "$status" -ne 0 ]; then
    tail -n 60 "$work/log"
    echo "fuzz-smoke: $product FAILED (libFuzzer exit status $status); inputs kept in fuzz-artifacts/:" >&2
    ls -1 "$root/fuzz-artifacts" >&2 || true
    exit 1
fi
rmdir "$root/fuzz-artifacts" 2>/dev/null || true
echo "fuzz-smoke: $product passed, no crash in $budget"
