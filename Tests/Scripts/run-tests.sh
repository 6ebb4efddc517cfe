#!/usr/bin/env bash
# Runs every XCTest test of the built package in two processes side by side (README, Development):
#   - the real-firmware suites and the tests that serve on UDP port 1337 (the native_sim UDP
#     fixture's and smpmgr's only port), one after the other, straight from the test bundle;
#   - everything else through `swift test`.
# Most of the real-firmware time is spent waiting on emulated UARTs and boots, so the two overlap
# well on two cores. Both logs are kept (.build/test.log, .build/test-firmware.log); failures of
# either are repeated at the end, and the last line counts the tests of both, as XCTest does.
# Usage: Tests/Scripts/run-tests.sh   (after `swift build --build-tests`)
set -uo pipefail
cd "$(dirname "$0")/../.."

bundle=.build/debug/smpctlPackageTests.xctest
[ -x "$bundle" ] || { echo "error: $bundle is not built; run: swift build --build-tests" >&2; exit 1; }

# Which classes run in the firmware process: ZephyrConformanceTests, and the classes that need
# port 1337 or the fixtures (smpmgr's interop tests, the doc transcripts, Intel HEX of the fixtures).
# Two QEMU suites run in the main process instead, so that both take about as long.
firmware='^ZephyrConformanceTests\.|^[A-Za-z0-9_]+\.(DocTranscriptTests|InteropSMPMgrTests|FileSystemInteropTests|BLECommandTests|ShellInteropTests|ImageInteropTests|IntelHexCommandTests)$'
beside='^ZephyrConformanceTests\.(MPS2AN385SerialRecoveryConformanceTests|MPS2AN385SerialRecoveryRawConformanceTests)$'

classes=$("$bundle" --list-tests | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' | sed 's#/.*##' | sort -u) \
    || { echo "error: could not list the tests of $bundle" >&2; exit 1; }
firmware_classes=$(grep -E "$firmware" <<<"$classes" | grep -vE "$beside")
[ -n "$firmware_classes" ] || { echo "error: no real-firmware test classes matched" >&2; exit 1; }
# `swift test --skip` takes a regular expression over Module.Class/test.
skip="^($(sed 's/\./\\./' <<<"$firmware_classes" | paste -sd'|' -))/"

echo "real-firmware suites run beside the rest: $(wc -l <<<"$firmware_classes") classes, log .build/test-firmware.log"
"$bundle" "$(paste -sd, - <<<"$firmware_classes")" >.build/test-firmware.log 2>&1 &
firmware_pid=$!
trap 'kill "$firmware_pid" 2>/dev/null' EXIT

# The rest runs at a lower priority: the emulated boards keep real time only when they get the CPU
# when they need it (a starved native_sim drops UART fragments, a starved QEMU UART bytes).
nice -n 10 swift test --skip-build --disable-swift-testing --skip "$skip" 2>&1 | tee .build/test.log | grep -vE "^Test Case '.*' (started|passed)"
main_status=${PIPESTATUS[0]}
wait "$firmware_pid"
firmware_status=$?
trap - EXIT

echo "==> real-firmware suites (.build/test-firmware.log):"
grep -vE "^Test Case '.*' (started|passed)|^Test Suite '.*' (started|passed)" .build/test-firmware.log | grep -v "^	 Executed" || true

# XCTest's closing line of each log: "Executed N tests, with F failures (U unexpected) in S (S) seconds".
total_tests=0 total_failures=0 total_unexpected=0
for log in .build/test.log .build/test-firmware.log; do
    line=$(grep -E '^\s+Executed [0-9]+ tests?, with' "$log" | tail -n 1)
    [[ $line =~ Executed\ ([0-9]+)\ tests?,\ with\ ([0-9]+)\ failures?\ \(([0-9]+)\ unexpected\) ]] || {
        echo "error: $log has no closing count: the test process ended early (status $([ "$log" = .build/test.log ] && echo "$main_status" || echo "$firmware_status"))" >&2
        exit 1
    }
    total_tests=$((total_tests + BASH_REMATCH[1]))
    total_failures=$((total_failures + BASH_REMATCH[2]))
    total_unexpected=$((total_unexpected + BASH_REMATCH[3]))
done
status=0
[ "$main_status" -eq 0 ] && [ "$firmware_status" -eq 0 ] || status=1
printf '\t Executed %d tests, with %d failures (%d unexpected), in both processes\n' "$total_tests" "$total_failures" "$total_unexpected"
exit "$status"
