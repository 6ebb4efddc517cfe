#!/usr/bin/env bash
# Builds the serial framing libFuzzer target (serial-fuzzer, Sources/SerialFramingFuzzer) and
# fuzzes it briefly; exits non-zero on a crash.
#
#   Tests/Scripts/serial/fuzz-smoke.sh [SECONDS]     (default: $FUZZ_SECONDS, else 30)
#
# Seeds: fuzz-seeds.hex (frames of both line styles, console noise, broken frames) and the
# regression corpus fuzz-regressions/, which libFuzzer runs first. The build, the run and where a
# crashing input goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" serial-fuzzer \
    --hex "$here/fuzz-seeds.hex" --corpus "$here/fuzz-regressions" "$@"
