#!/usr/bin/env bash
# Builds the CBOR libFuzzer target and fuzzes it briefly; exits non-zero on a crash.
#
#   Tests/Scripts/cbor/fuzz-smoke.sh [SECONDS]     (default: $FUZZ_SECONDS, else 30)
#
# Seeds: RFC 8949 Appendix A and F (rfc8949-appendix-*.hex) and the regression corpus
# fuzz-regressions/, which libFuzzer runs first. The build, the run and where a crashing input
# goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" cbor-fuzzer \
    --hex "$here/rfc8949-appendix-a.hex" --hex "$here/rfc8949-appendix-f.hex" \
    --corpus "$here/fuzz-regressions" "$@"
