#!/usr/bin/env bash
# Builds the firmware package (ZIP) libFuzzer target (package-fuzzer, Sources/FirmwarePackageFuzzer) and fuzzes it
# briefly; exits non-zero on a crash or a violated property.
#
#   Tests/Scripts/package/fuzz-smoke.sh [--runs N] [SECONDS]     (default: $FUZZ_SECONDS, else 15)
#
# Seeds: fuzz-seeds/, NCS-like dfu_application.zip (single, multi-image, DirectXIP, MCUboot, stored and deflated) and dfu_suit.zip archives, made by ../firmware/make_fuzz_seeds.py;
# nRF5 SDK Nordic DFU packages and init packets (nordic-*), made by make-nordic-dfu-package.py --small; and the regression corpus
# fuzz-regressions/, which libFuzzer runs first. The build, the run and where a crashing input
# goes are described in ../fuzz-smoke.sh, which does the work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/../fuzz-smoke.sh" package-fuzzer \
    --seeds "$here/fuzz-seeds" --corpus "$here/fuzz-regressions" --max-len 8192 "${FUZZ_SECONDS:-15}" "$@"
