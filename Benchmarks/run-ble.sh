#!/usr/bin/env bash
# Image upload over Bluetooth LE through our mock org.bluez (Tests/Fixtures/bluez) paced like a real
# connection: at most N ATT packets per connection interval in each direction, at a given ATT MTU.
# For each setting it uploads a 256 KiB MCUboot image with `smpctl image upload --restart` over
# `ble:` to the virtual device behind the mock, and prints the goodput and the share of the link's
# packet capacity used: (ATT writes the upload needed) ÷ (elapsed × packets per second).
# In the same run, through the same mock and setting, it times smpmgr's upload loop (smpclient 7.3.0
# over bleak, Benchmarks/smpclient_upload.py ble) after erasing the slot (see run-upload.sh: forget).
#   Benchmarks/run-ble.sh [--smoke]   (after .ci/setup --tests; needs dbus-daemon and python3-dbus;
#                                      smoke: a 16 KiB image, the first setting only)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
require_tools dbus-daemon
/usr/bin/python3 -c 'import dbus' 2>/dev/null || fail "the mock BlueZ needs python3-dbus: run .ci/setup --tests"

bench_binaries smpctl
start_work

size=$(sized 262144 16384)
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(2).randbytes($size - 0x200 - 40))" >"$work/app.bin"
"$python" -m imgtool.main sign --version 2.0.0 --header-size 0x200 --pad-header --align 4 --slot-size 0x60000 \
    "$work/app.bin" "$work/image.bin" >/dev/null

dbus-daemon --config-file=Tests/Fixtures/bluez/private-system-bus.conf --nofork --print-address=1 >"$work/bus" 2>/dev/null &
started+=($!)
wait_for "$work/bus" unix:
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/bus")

"$bin/smpctl" simulate --udp 127.0.0.1:0 --images 1 --slot-size 393216 --buf-size 2475 --buf-count 4 --json >"$work/sim.json" 2>&1 &
started+=($!)
wait_for "$work/sim.json" listening
port=$(json_field port "$work/sim.json")

# writes: the mock's ATT writes so far (fails when its statistics name neither kind of write).
writes() {
    /usr/bin/python3 Tests/Fixtures/bluez/control.py "$DBUS_SYSTEM_BUS_ADDRESS" GetStats \
        | awk -F= '$1 == "writes_value" || $1 == "writes_acquired" { s += $2; n++ } END { if (n != 2) exit 1; print s }' \
        || fail "the mock's GetStats has no writes_value and writes_acquired"
}

# report TOOL SECONDS WRITES: one line of the table.
report() {
    "$python" -c "
mtu, interval, packets, size = $mtu, $interval, $packets, $size
tool, seconds, writes = '$1', float('$2'), int('$3')
per_second = packets * 1000 / interval
capacity = per_second * (mtu - 3) / 1024
used = writes / (seconds * per_second)
print(f'{mtu:>4} B, {interval} ms, {packets} per interval  {tool:<10} {size / seconds / 1024:9.1f} {capacity:9.1f} KiB/s {used * 100:8.1f} %')
"
}

printf '%-34s %-10s %9s %15s %10s\n' "link (MTU, interval, packets)" tool "KiB/s" "capacity" "used"
read -r -a settings <<<"$(sized "247,15,4 498,15,4 498,15,6 23,15,4" "247,15,4")"
for setting in "${settings[@]}"; do
    setting=${setting//,/ }
    read -r mtu interval packets <<<"$setting"
    /usr/bin/python3 Tests/Fixtures/bluez/mock_bluez.py --cached --device "C0:FF:EE:00:00:01,Zephyr,$port" \
        --mtu "$mtu" --interval-ms "$interval" --packets-per-interval "$packets" >"$work/mock.out" 2>"$work/mock.err" &
    mock=$!
    started+=("$mock")
    wait_for "$work/mock.out" READY
    "$bin/smpctl" image upload "$work/image.bin" --restart -c ble:C0:FF:EE:00:00:01 --json >"$work/out.json"
    smpctl_writes=$(writes)
    [ "$(json_field match "$work/out.json")" = True ] || fail "smpctl's upload does not match: $(tail -1 "$work/out.json")"
    seconds=$(json_field seconds "$work/out.json")
    report smpctl "$seconds" "$smpctl_writes"
    "$bin/smpctl" image erase --yes -c "udp:127.0.0.1:$port" >/dev/null
    seconds=$("$python" Benchmarks/smpclient_upload.py ble "$work/image.bin" C0:FF:EE:00:00:01 2>"$work/smpclient.err" \
        | json_field seconds) \
        || { echo "smpclient over bleak failed:" >&2; cat "$work/smpclient.err" >&2; exit 1; }
    all_writes=$(writes)
    report smpmgr "$seconds" $((all_writes - smpctl_writes))
    kill "$mock"; wait "$mock" 2>/dev/null || true
done
