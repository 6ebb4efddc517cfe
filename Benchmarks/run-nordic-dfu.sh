#!/usr/bin/env bash
# Nordic DFU (nRF5 SDK bootloaders), whole processes, against smpctl's virtual DFU devices:
#  - Secure DFU over serial: `smpctl upgrade` of a signed package to `smpctl simulate --nordic-dfu
#    --serial-link` (a pseudo-terminal, no line rate), and the Secure DFU application over BLE through
#    the BlueZ mock (Tests/Fixtures/bluez) at ATT MTU 247 and 23, with the writes and control
#    requests the mock counted per 4 KiB object;
#  - legacy DFU over BLE: smpctl and nrf-ota 0.4.0 (Apache-2.0, bleak; the only independent DFU
#    client whose licence allows this use — nrfutil's is for Nordic hardware only) updating the same
#    virtual legacy bootloader with the same package, in the same run.
#   Benchmarks/run-nordic-dfu.sh [--smoke]   (after .ci/setup --tests; smoke: small images, MTU 247 only)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
require_tools dbus-daemon
/usr/bin/python3 -c 'import dbus' 2>/dev/null || fail "the mock BlueZ needs python3-dbus: run .ci/setup --tests"
"$python" -c 'import nrf_ota' 2>/dev/null || fail "no nrf-ota next to $python: run .ci/setup --tests"

bench_binaries smpctl
start_work
"$python" Tests/Scripts/package/make-nordic-dfu-package.py "$work/packages" >/dev/null
secure=$(sized secure-large.zip secure-signed.zip)
bytes() { "$python" -c "import json, sys; print(json.load(open('$work/packages/packages.json'))['$1']['images'][-1]['size'])"; }
# elapsed START: seconds since START (date +%s%N).
elapsed() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
# row WHAT TOOL SECONDS BYTES [NOTE]: one line of the table.
row() { awk -v w="$1" -v t="$2" -v s="$3" -v b="$4" -v n="${5:-}" 'BEGIN { printf "%-34s %-8s %8.2f s %9.1f KiB/s  %s\n", w, t, s, b / s / 1024, n }'; }
printf '%-34s %-8s %10s %15s  %s\n' "work" tool time speed "per 4 KiB object (counted on the mock)"

# Secure DFU over serial.
"$bin/smpctl" simulate --nordic-dfu --serial-link "$work/ttyDFU" --dfu-key "$work/packages/public.pem" >"$work/serial.log" 2>&1 &
started+=($!)
wait_for "$work/serial.log" "try:"
start=$(date +%s%N)
"$bin/smpctl" upgrade "$work/packages/$secure" -c "serial:$work/ttyDFU" --json >"$work/serial.json" \
    || fail "smpctl's Secure DFU over serial failed: $(tail -1 "$work/serial.json")"
row "Secure DFU, serial (pty), $(bytes "$secure") B" smpctl "$(elapsed "$start")" "$(bytes "$secure")" "64-byte writes, 3 requests"
echo "  (no independent Secure DFU client may run here: nrfutil and adafruit-nrfutil are licensed for Nordic hardware only)"

dbus-daemon --config-file=Tests/Fixtures/bluez/private-system-bus.conf --nofork --print-address=1 >"$work/bus" 2>/dev/null &
started+=($!)
wait_for "$work/bus" unix:
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/bus")
# characteristic_writes: the writes the mock counted on each characteristic, most first (the data
# characteristic's, then the control point's).
characteristic_writes() {
    /usr/bin/python3 Tests/Fixtures/bluez/control.py "$DBUS_SYSTEM_BUS_ADDRESS" GetStats \
        | awk -F= '$1 ~ /^writes:/ { print $2 }' | sort -rn | tr '\n' ' '
}

# mock KIND PORT [OPTION…]: (re)starts the mock with one DFU device C0:FF:EE:00:00:01.
mock() {
    if [ -n "${mock_pid:-}" ]; then kill "$mock_pid"; wait "$mock_pid" 2>/dev/null || true; fi
    /usr/bin/python3 Tests/Fixtures/bluez/mock_bluez.py --cached --dfu-device "C0:FF:EE:00:00:01,DfuTarg,$2,$1" "${@:3}" \
        >"$work/mock.out" 2>"$work/mock.err" &
    mock_pid=$!
    started+=("$mock_pid")
    wait_for "$work/mock.out" READY
}

# Secure DFU over BLE, a fresh bootloader each time.
read -r -a mtus <<<"$(sized "247 23" "247")"
for mtu in "${mtus[@]}"; do
    "$bin/smpctl" simulate --nordic-dfu --udp 127.0.0.1:0 --json >"$work/ble-secure.json" 2>&1 &
    simulator=$!
    started+=("$simulator")
    wait_for "$work/ble-secure.json" port
    mock secure "$(json_field port "$work/ble-secure.json")" --mtu "$mtu"
    package=$(sized secure-medium.zip secure-unsigned.zip)
    start=$(date +%s%N)
    "$bin/smpctl" upgrade "$work/packages/$package" -c ble:C0:FF:EE:00:00:01 --json >"$work/ble.json" \
        || fail "smpctl's Secure DFU over BLE at MTU $mtu failed: $(tail -1 "$work/ble.json")"
    seconds=$(elapsed "$start")
    size=$(bytes "$package")
    objects=$(( (size + 4095) / 4096 ))
    read -r writes requests _ <<<"$(characteristic_writes)"
    [ -n "${requests:-}" ] || fail "the mock counted no writes per characteristic"
    row "Secure DFU, BLE MTU $mtu, $size B" smpctl "$seconds" "$size" \
        "$(awk -v w="$writes" -v r="$requests" -v o="$objects" 'BEGIN { printf "%.0f writes, %.1f control requests", w / o, r / o }')"
    kill "$simulator"; wait "$simulator" 2>/dev/null || true
done

# Legacy DFU over BLE: smpctl, then nrf-ota, each on a fresh bootloader.
legacy=legacy-0.7.zip
size=$(bytes "$legacy")
for tool in smpctl nrf-ota; do
    "$bin/smpctl" simulate --nordic-dfu --dfu-legacy --dfu-soft-device 0x88 --udp 127.0.0.1:0 --json >"$work/ble-legacy.json" 2>&1 &
    simulator=$!
    started+=("$simulator")
    wait_for "$work/ble-legacy.json" port
    mock legacy "$(json_field port "$work/ble-legacy.json")" --mtu 247
    start=$(date +%s%N)
    if [ "$tool" = smpctl ]; then
        "$bin/smpctl" upgrade "$work/packages/$legacy" -c ble:C0:FF:EE:00:00:01 --json >"$work/legacy.json" \
            || fail "smpctl's legacy DFU over BLE failed: $(tail -1 "$work/legacy.json")"
    else
        "$python" -m nrf_ota "$work/packages/$legacy" --device C0:FF:EE:00:00:01 --prn 10 >"$work/nrf-ota.log" 2>&1 \
            || { cat "$work/nrf-ota.log" >&2; fail "nrf-ota failed"; }
    fi
    row "legacy DFU, BLE, $size B" "$tool" "$(elapsed "$start")" "$size" "20-byte packets, a receipt every 10"
    kill "$simulator"; wait "$simulator" 2>/dev/null || true
done
