#!/usr/bin/env bash
# What RFC 2217 costs: the native_sim `serial_fs` fixture reached three ways in the same run, whole
# smpctl processes each time:
#  - its pty (a local serial port),
#  - ser2net 4 serving the pty raw (`serial:tcp://`),
#  - ser2net 4 serving the pty with RFC 2217 (`serial:rfc2217://`: telnet negotiation and port
#    settings on every connection, 0xFF doubled in the data);
# `os echo` (a connection and one round trip) and an 8,000-byte `fs put` (the fixture's LittleFS
# holds about 8 KB). smpmgr's echo on the pty is the peer's reference: no Python SMP client
# (smpclient, smpmgr) opens `rfc2217://` — they open ports with pyserial's Serial(), which takes
# no URL. Each figure is the median of REPEATS runs (default 7).
#   Benchmarks/run-rfc2217.sh [--smoke]   (after .ci/setup --tests; builds a release smpctl; smoke: once each)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
require_tools ser2net
smpmgr=$(peer_tool smpmgr)
repeats="${REPEATS:-$(sized 7 1)}"

bench_binaries smpctl
start_work
find_fixtures
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(3).randbytes(8000))" >"$work/file.bin"

# The fixture, with its flash in a file so that its file system lives through the run.
mkdir -p "$work/device"
(cd "$work/device" && exec "$fixtures/$(manifest_field artifact serial_fs)" --flash="$work/device/flash.bin" -flash_erase) \
    >"$work/device/log" 2>&1 &
started+=("$!")
wait_for "$work/device/log" "pseudotty"
pty=$(sed -n 's/.*pseudotty: \(\/dev\/pts\/[0-9]*\).*/\1/p' "$work/device/log" | head -1)

# ser2net: one connection of each kind in front of the pty (used one at a time).
telnet_port=$(free_port) raw_port=$(free_port)
cat >"$work/ser2net.yaml" <<YAML
connection: &rfc2217
  accepter: telnet(rfc2217),tcp,127.0.0.1,$telnet_port
  connector: serialdev,$pty,115200n81,local
connection: &raw
  accepter: tcp,127.0.0.1,$raw_port
  connector: serialdev,$pty,115200n81,local
YAML
ser2net -n -d -u -P "$work/ser2net.pid" -c "$work/ser2net.yaml" >"$work/ser2net.log" 2>&1 &
started+=("$!")
for _ in $(seq 100); do
    "$python" -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 0.2)" "$raw_port" 2>/dev/null && break
    sleep 0.05
done

# median_run LABEL COMMAND…: runs COMMAND REPEATS times; prints the median wall time in seconds.
median_run() {
    local label=$1 start times=()
    shift
    for _ in $(seq "$repeats"); do
        start=$(now)
        "$@" >"$work/out" 2>&1 || { echo "$label failed:" >&2; cat "$work/out" >&2; cat "$work/ser2net.log" >&2; exit 1; }
        times+=("$(since "$start")")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo_on() { "$bin/smpctl" os echo hello -c "$1"; }
put_to() { "$bin/smpctl" fs put "$work/file.bin" /lfs1/b.bin -c "$1"; }
mgr_echo() { "$smpmgr" --port "$pty" os echo hello; }

local_pty="serial:$pty" raw="serial:tcp://127.0.0.1:$raw_port" telnet="serial:rfc2217://127.0.0.1:$telnet_port"
printf '%-34s %10s %12s %14s %9s\n' work "local pty" "tcp:// (raw)" "rfc2217://" "rfc/pty"
# row WHAT LOCAL RAW RFC2217
row() { awk -v w="$1" -v l="$2" -v r="$3" -v t="$4" 'BEGIN { printf "%-34s %8.3f s %10.3f s %12.3f s %8.2f×\n", w, l, r, t, t / l }'; }
row "os echo (smpctl)" "$(median_run "pty echo" echo_on "$local_pty")" "$(median_run "raw echo" echo_on "$raw")" \
    "$(median_run "rfc2217 echo" echo_on "$telnet")"
row "fs put 8,000 B (smpctl)" "$(median_run "pty fs put" put_to "$local_pty")" "$(median_run "raw fs put" put_to "$raw")" \
    "$(median_run "rfc2217 fs put" put_to "$telnet")"
echo "peer: smpmgr os echo on the local pty: $(median_run "smpmgr echo" mgr_echo) s (no Python SMP client opens rfc2217://)"
