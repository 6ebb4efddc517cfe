#!/usr/bin/env bash
# Runs every XCTest test of the built package in three processes side by side (README, Development):
#   - firmware: the real-firmware suites and the tests that serve on UDP port 1337 (the native_sim
#     UDP fixture's and smpmgr's only port), one after the other, straight from the test bundle;
#   - qemu: the two MCUboot serial recovery suites and the bootloader upgrades on QEMU, likewise;
#   - rest: everything else, at a lower priority.
# Each process runs the test bundle with a list of classes. `swift test --skip` used to run the
# rest, but it hands the bundle every test it keeps by name in one argument, and with 1,900 tests
# that argument outgrew the kernel's limit for one (128 KiB: "Argument list too long").
# Most of the emulators' time is spent waiting on emulated UARTs and boots, so the three overlap
# well on two cores. Emulated boards keep real time only when they get the CPU when they need it (a
# starved native_sim drops UART fragments, a starved QEMU guest reads its UART so late that an
# upload crawls), so the two emulator processes run at the normal priority and the rest, which
# starts no emulator, is lowered. (A fourth process for the tests that wait on Python peers saved
# 3 minutes, but two lowered processes starved the rest's simulated serial line buffers:
# TransferLinePacingTests failed in three full runs out of three.)
# Every log is kept (.build/test.log for the rest, .build/test-GROUP.log for the others);
# failures of the bundle runs are repeated at the end, and the last line counts the tests of all
# three, as XCTest does.
# Usage: Tests/Scripts/run-tests.sh   (after `swift build --build-tests`)
set -uo pipefail
cd "$(dirname "$0")/../.."

bundle=.build/debug/smpctlPackageTests.xctest
[ -x "$bundle" ] || { echo "error: $bundle is not built; run: swift build --build-tests" >&2; exit 1; }

# A class belongs to the first group whose pattern it matches; the rest takes the others.
qemu='^ZephyrConformanceTests\.(MPS2AN385SerialRecoveryConformanceTests|MPS2AN385SerialRecoveryRawConformanceTests|BootloaderUpgradeTests)$'
firmware='^ZephyrConformanceTests\.|^[A-Za-z0-9_]+\.(DocTranscriptTests|InteropSMPMgrTests|FileSystemInteropTests|BLECommandTests|ShellInteropTests|ImageInteropTests|IntelHexCommandTests|DTLSZephyrFixtureTests)$'

classes=$("$bundle" --list-tests | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' | sed 's#/.*##' | sort -u) \
    || { echo "error: could not list the tests of $bundle" >&2; exit 1; }
qemu_classes=$(grep -E "$qemu" <<<"$classes")
firmware_classes=$(grep -E "$firmware" <<<"$classes" | grep -vE "$qemu")
[ "$(wc -l <<<"$qemu_classes")" -eq 3 ] || { echo "error: the QEMU recovery and bootloader suites were not all found" >&2; exit 1; }
[ -n "$firmware_classes" ] || { echo "error: no real-firmware test classes matched" >&2; exit 1; }
rest_classes=$(grep -vxF -f <(printf '%s\n%s\n' "$qemu_classes" "$firmware_classes") <<<"$classes")

groups=(firmware qemu) pids=()
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
for log in .build/test.log .build/test-firmware.log .build/test-qemu.log; do
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
