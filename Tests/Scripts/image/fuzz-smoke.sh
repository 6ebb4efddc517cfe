#!/usr/bin/env bash
# Builds the MCUboot image libFuzzer target (image-fuzzer, Sources/MCUbootImageFuzzer) and fuzzes it
# briefly; exits non-zero on a crash or a violated property.
#
#   Tests/Scripts/image/fuzz-smoke.sh [--runs N] [SECONDS]     (default: $FUZZ_SECONDS, else 15)
#
# Seeds: fuzz-seeds/, imgtool-signed images (make_images.py's, and small ones: signed, padded, ROM_FIXED, protected TLVs), made by ../firmware/make_fuzz_seeds.py; and the regression corpus
# fuzz-regressions/, which libFuzzer runs first. The build, the run and where a crashing input
# goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" image-fuzzer \
    --seeds "$here/fuzz-seeds" --corpus "$here/fuzz-regressions" --max-len 8192 "${FUZZ_SECONDS:-15}" "$@"
