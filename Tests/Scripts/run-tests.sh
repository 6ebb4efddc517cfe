#!/usr/bin/env bash
# Runs every XCTest test of the built package in three processes side by side (README, Development):
#   - the real-firmware suites and the tests that serve on UDP port 1337 (the native_sim UDP
#     fixture's and smpmgr's only port), one after the other, straight from the test bundle;
#   - the two MCUboot serial recovery suites on QEMU, likewise;
#   - everything else, at a lower priority.
# Each process runs the test bundle with a list of classes. `swift test --skip` used to run the
# rest, but it hands the bundle every test it keeps by name in one argument, and with 1,900 tests
# that argument outgrew the kernel's limit for one (128 KiB: "Argument list too long").
# Most of the real-firmware time is spent waiting on emulated UARTs and boots, so the three overlap
# well on two cores. Every log is kept (.build/test.log, .build/test-firmware.log,
# .build/test-recovery.log); failures of the bundle runs are repeated at the end, and the last
# line counts the tests of all three, as XCTest does.
# Usage: Tests/Scripts/run-tests.sh   (after `swift build --build-tests`)
set -uo pipefail
cd "$(dirname "$0")/../.."

bundle=.build/debug/smpctlPackageTests.xctest
[ -x "$bundle" ] || { echo "error: $bundle is not built; run: swift build --build-tests" >&2; exit 1; }

# Which classes run beside the rest: ZephyrConformanceTests and the classes that need port 1337
# or the fixtures (smpmgr's interop tests, the doc transcripts, Intel HEX of the fixtures); the two
# QEMU recovery suites (about 7 minutes) in a process of their own, so that no process is the long
# pole. Emulated boards keep real time only when they get the CPU when they need it (a starved
# native_sim drops UART fragments, a starved QEMU guest reads its UART so late that an upload
# crawls), so both run at the normal priority: only the rest, which starts no emulator, is
# lowered.
firmware='^ZephyrConformanceTests\.|^[A-Za-z0-9_]+\.(DocTranscriptTests|InteropSMPMgrTests|FileSystemInteropTests|BLECommandTests|ShellInteropTests|ImageInteropTests|IntelHexCommandTests)$'
recovery='^ZephyrConformanceTests\.(MPS2AN385SerialRecoveryConformanceTests|MPS2AN385SerialRecoveryRawConformanceTests)$'

classes=$("$bundle" --list-tests | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' | sed 's#/.*##' | sort -u) \
    || { echo "error: could not list the tests of $bundle" >&2; exit 1; }
recovery_classes=$(grep -E "$recovery" <<<"$classes")
firmware_classes=$(grep -E "$firmware" <<<"$classes" | grep -vE "$recovery")
[ "$(wc -l <<<"$recovery_classes")" -eq 2 ] || { echo "error: the two QEMU recovery suites were not found" >&2; exit 1; }
[ -n "$firmware_classes" ] || { echo "error: no real-firmware test classes matched" >&2; exit 1; }
rest_classes=$(grep -vxF -f <(printf '%s\n%s\n' "$firmware_classes" "$recovery_classes") <<<"$classes")

groups=(firmware recovery) pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for group in "${groups[@]}"; do
    list=${group}_classes
    echo "$group suites run beside the rest: $(wc -l <<<"${!list}") classes, log .build/test-$group.log"
    "$bundle" "$(paste -sd, - <<<"${!list}")" >".build/test-$group.log" 2>&1 &
    pids+=($!)
done

echo "the rest runs at a lower priority: $(wc -l <<<"$rest_classes") classes, log .build/test.log"
nice -n 10 "$bundle" "$(paste -sd, - <<<"$rest_classes")" 2>&1 | tee .build/test.log | grep -vE "^Test Case '.*' (started|passed)"
main_status=${PIPESTATUS[0]}
status=0
[ "$main_status" -eq 0 ] || status=1
declare -A statuses=([.build/test.log]=$main_status)
for index in "${!groups[@]}"; do
    group=${groups[$index]}
    wait "${pids[$index]}"
    statuses[.build/test-$group.log]=$?
    [ "${statuses[.build/test-$group.log]}" -eq 0 ] || status=1
    echo "==> $group suites (.build/test-$group.log):"
    grep -vE "^Test Case '.*' (started|passed)|^Test Suite '.*' (started|passed)" ".build/test-$group.log" | grep -v "^	 Executed" || true
done
trap - EXIT

# XCTest's closing line of each log: "Executed N tests, with F failures (U unexpected) in S (S) seconds".
total_tests=0 total_failures=0 total_unexpected=0
for log in .build/test.log .build/test-firmware.log .build/test-recovery.log; do
    line=$(grep -E '^\s+Executed [0-9]+ tests?, with' "$log" | tail -n 1)
    [[ $line =~ Executed\ ([0-9]+)\ tests?,\ with\ ([0-9]+)\ failures?\ \(([0-9]+)\ unexpected\) ]] || {
        echo "error: $log has no closing count: the test process ended early (status ${statuses[$log]})" >&2
        exit 1
    }
    total_tests=$((total_tests + BASH_REMATCH[1]))
    total_failures=$((total_failures + BASH_REMATCH[2]))
    total_unexpected=$((total_unexpected + BASH_REMATCH[3]))
done
printf '\t Executed %d tests, with %d failures (%d unexpected), in three processes\n' "$total_tests" "$total_failures" "$total_unexpected"
exit "$status"
