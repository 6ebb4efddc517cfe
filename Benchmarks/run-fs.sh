#!/usr/bin/env bash
# 1 MiB file put and get over UDP loopback against the virtual device's file system (buf_size
# 2048, buf_count 4): smpctl (one request in flight, and the default window buf_count − 1 = 3)
# next to smpmgr 0.19.1 in the same run. Each figure is the median of REPEATS runs (default 5).
#
# "transfer" is the transfer phase: for smpctl the `seconds` of its JSON result (from the first
# request to the last answer); smpmgr prints no timing, so for it the same transfer is timed in
# Python (Benchmarks/smpclient_file.py: smpclient 7.3.0's upload_file / download_file, which
# `smpmgr file upload/download` run). "wall" is the whole process: `smpctl fs put/get` (its
# resume check and final close included) and `smpmgr file upload/download`. Every smpctl put uses
# --restart (no resume check); every get starts without a .part file. Each transfer is checked
# byte for byte.
#
#   Benchmarks/run-fs.sh [--smoke]    (after .ci/setup --tests; builds a release binary; smoke: 32 KiB, once)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
smpmgr=$(peer_tool smpmgr)
repeats="${REPEATS:-$(sized 5 1)}"
mib=1048576
size=$(sized $mib 32768)

bench_binaries smpctl

start_work
sim=

file="$work/file.bin"
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(8).randbytes($size))" >"$file"

# smpmgr can only reach UDP port 1337.
udp_1337_free || fail "UDP port 1337 is busy; smpmgr can reach no other port"
"$bin/smpctl" simulate --udp 127.0.0.1:1337 --images 0 --buf-size 2048 --buf-count 4 --fs-capacity $((4 * mib)) --json >"$work/sim.json" 2>&1 &
sim=$!
started+=("$sim")
wait_for "$work/sim.json" listening
udp=udp:127.0.0.1:1337

# record DIRECTION TOOL WINDOW WALL_NS TRANSFER_SECONDS: one measurement. (record, in support.sh)
same() { cmp -s "$file" "$1" || { echo "$2: the bytes differ" >&2; exit 1; }; }

smpctl_run() {
    local direction=$1 window=$2 start end seconds options=()
    [ "$window" = default ] || options=(--window "$window")
    rm -f "$work/back.bin" "$work/back.bin.part"
    start=$(now)
    if [ "$direction" = put ]; then
        "$bin/smpctl" fs put "$file" /lfs1/s.bin --restart --json -c "$udp" "${options[@]}" >"$work/out.json"
    else
        "$bin/smpctl" fs get /lfs1/s.bin "$work/back.bin" --json -c "$udp" "${options[@]}" >"$work/out.json"
    fi
    end=$(now)
    seconds=$(json_field seconds "$work/out.json")
    record "$direction" smpctl "$window" $((end - start)) "$seconds"
    [ "$direction" = put ] || same "$work/back.bin" "smpctl fs get"
}

smpmgr_run() {
    local direction=$1 start end phase seconds
    rm -f "$work/back.bin"
    start=$(now)
    if [ "$direction" = put ]; then
        "$smpmgr" --ip 127.0.0.1 file upload "$file" /lfs1/m.bin >/dev/null
    else
        "$smpmgr" --ip 127.0.0.1 file download /lfs1/m.bin "$work/back.bin" >/dev/null
        same "$work/back.bin" "smpmgr file download"
    fi
    end=$(now)
    if [ "$direction" = put ]; then
        phase=$("$python" Benchmarks/smpclient_file.py upload "$file" /lfs1/m.bin)
    else
        phase=$("$python" Benchmarks/smpclient_file.py download /lfs1/m.bin "$work/back.bin")
        same "$work/back.bin" "smpclient download_file"
    fi
    seconds=$(json_field seconds <<<"$phase")
    record "$direction" smpmgr 1 $((end - start)) "$seconds"
}

for _ in $(seq "$repeats"); do
    for direction in put get; do
        smpctl_run "$direction" 1
        smpctl_run "$direction" default
        smpmgr_run "$direction"
    done
done
"$bin/smpctl" fs hash /lfs1/s.bin --type sha256 -c "$udp" >/dev/null

echo "$((size / 1024)) KiB file over UDP loopback to the virtual device (buf_size 2048, buf_count 4), $(nproc) cores, median of $repeats"
"$python" - "$results" "$size" <<'PY'
import os, statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
size, MiB = int(sys.argv[2]), 1 << 20
print(f"{'direction':<11}{'tool':<34}{'transfer MiB/s':>15}{'wall MiB/s':>12}")
table = {}
for direction in ("put", "get"):
    for tool, window, label in (("smpctl", "1", "smpctl --window 1"), ("smpctl", "default", "smpctl (window 3)"),
                                ("smpmgr", "1", "smpmgr 0.19.1 (smpclient 7.3.0)")):
        mine = [r for r in rows if r[:3] == [direction, tool, window]]
        transfer = size / statistics.median(float(r[4]) for r in mine) / MiB
        wall = size / (statistics.median(float(r[3]) for r in mine) / 1e9) / MiB
        table[(direction, label)] = (transfer, wall)
        print(f"fs {direction}, {label}, transfer MiB/s\t{transfer}\nfs {direction}, {label}, wall MiB/s\t{wall}", file=figures)
        print(f"{direction:<11}{label:<34}{transfer:>15.2f}{wall:>12.2f}")
for direction in ("put", "get"):
    ours, peer = table[(direction, "smpctl (window 3)")], table[(direction, "smpmgr 0.19.1 (smpclient 7.3.0)")]
    print(f"{direction}: smpctl/smpmgr {ours[0] / peer[0]:.1f}x transfer ({ours[1] / peer[1]:.1f}x wall)")
PY
