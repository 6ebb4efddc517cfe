#!/usr/bin/env bash
# Builds the SUIT envelope libFuzzer target (suit-fuzzer, Sources/SUITEnvelopeFuzzer) and fuzzes it
# briefly; exits non-zero on a crash or a violated property.
#
#   Tests/Scripts/suit/fuzz-smoke.sh [--runs N] [SECONDS]     (default: $FUZZ_SECONDS, else 15)
#
# Seeds: fuzz-seeds/, the envelopes of make_suit_set.py (with and without resources, a damaged digest), made by ../firmware/make_fuzz_seeds.py; and the regression corpus
# fuzz-regressions/, which libFuzzer runs first. The build, the run and where a crashing input
# goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" suit-fuzzer \
    --seeds "$here/fuzz-seeds" --corpus "$here/fuzz-regressions" --max-len 4096 "${FUZZ_SECONDS:-15}" "$@"
