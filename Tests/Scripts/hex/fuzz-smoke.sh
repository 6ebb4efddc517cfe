#!/usr/bin/env bash
# Builds the Intel HEX libFuzzer target (intel-hex-fuzzer, Sources/IntelHexFuzzer) and fuzzes it
# briefly; exits non-zero on a crash or a violated property.
#
#   Tests/Scripts/hex/fuzz-smoke.sh [--runs N] [SECONDS]     (default: $FUZZ_SECONDS, else 15)
#
# Seeds: fuzz-seeds/, small imgtool-signed images (../image/fuzz-seeds) written as Intel HEX by
# Python's intelhex (at 0xc000, across a 64 KiB boundary, high in the address space, two ranges)
# and a few hand-made files (segment addresses, CR LF, a bad checksum); and the regression corpus
# fuzz-regressions/, which libFuzzer runs first. The build, the run and where a crashing input
# goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" intel-hex-fuzzer \
    --seeds "$here/fuzz-seeds" --corpus "$here/fuzz-regressions" --max-len 8192 "${FUZZ_SECONDS:-15}" "$@"
