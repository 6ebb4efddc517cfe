#!/usr/bin/env bash
# A labgrid lab against the same boards reached locally, whole smpctl processes in the same run: a
# coordinator and two exporters ("host-a", "host-b") on loopback, each publishing half of PLACES
# virtual boards (`smpctl simulate --serial-link … --count PLACES`, served raw by one ser2net:
# labgrid NetworkSerialPort resources), one place per board. Then, with --jobs JOBS:
#  - `os echo` and a 32 KiB `image upload` over every board through their ptys (a targets file),
#  - the same over every place (`labgrid:bench-*`: each place acquired, its port reached through
#    ser2net, released),
# and the mean time of the report's `acquire` phase. No other SMP tool drives labgrid places: the
# peer is the local run. Each figure is one run (a run is many devices already).
#   Benchmarks/run-labgrid.sh [--smoke]   PLACES=32 JOBS=8 (after .ci/setup --tests; builds a release smpctl)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
require_tools ser2net
labgrid=$(pwd)/.venv-labgrid/bin
[ -x "$labgrid/labgrid-coordinator" ] || fail "no labgrid in .venv-labgrid: run .ci/setup --tests"
places="${PLACES:-$(sized 32 4)}"
jobs="${JOBS:-$(sized 8 2)}"
[ $((places % 2)) -eq 0 ] || fail "PLACES must be even (half on each exporter)"

bench_binaries smpctl
start_work
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(4).randbytes(32768 - 0x200 - 40))" >"$work/app.bin"
"$python" -m imgtool.main sign --version 2.0.0 --header-size 0x200 --pad-header --align 4 --slot-size 0x20000 \
    "$work/app.bin" "$work/image.bin" >/dev/null

export LG_COORDINATOR="127.0.0.1:$(free_port)"
# The places, written where the coordinator reads them at its start (creating each with
# labgrid-client takes about a second).
for i in $(seq "$places"); do
    exporter=host-a
    [ "$i" -le $((places / 2)) ] || exporter=host-b
    printf 'bench-%s:\n  acquired: null\n  acquired_resources: []\n  aliases: []\n  allowed: []\n  changed: 0\n  comment: ""\n  created: 0\n  matches:\n  - {cls: "*", exporter: %s, group: board-%s, name: null, rename: null}\n  reservation: null\n  tags: {}\n' \
        "$i" "$exporter" "$i"
done >"$work/places.yaml"
(cd "$work" && exec "$labgrid/labgrid-coordinator" -l "$LG_COORDINATOR") >"$work/coordinator.log" 2>&1 &
started+=("$!")

"$bin/smpctl" simulate --serial-link "$work/tty" --count "$places" --images 1 --slot-size 131072 >"$work/simulate.log" 2>&1 &
started+=("$!")
for _ in $(seq 100); do [ -e "$work/tty-$places" ] && break; sleep 0.1; done
[ -e "$work/tty-$places" ] || fail "smpctl simulate made no $work/tty-$places: $(cat "$work/simulate.log")"
: >"$work/ser2net.yaml" >"$work/host-a.yaml" >"$work/host-b.yaml" >"$work/local.txt"
for i in $(seq "$places"); do
    port=$(free_port) exporter=host-a
    [ "$i" -le $((places / 2)) ] || exporter=host-b
    printf 'connection: &b%s\n  accepter: tcp,127.0.0.1,%s\n  connector: serialdev,%s,115200n81,local\n  options:\n    kickolduser: true\n\n' \
        "$i" "$port" "$work/tty-$i" >>"$work/ser2net.yaml"
    printf 'board-%s:\n  NetworkSerialPort:\n    host: 127.0.0.1\n    port: %s\n    protocol: raw\n    speed: 115200\n' "$i" "$port" >>"$work/$exporter.yaml"
    echo "serial:$work/tty-$i" >>"$work/local.txt"
done
ser2net -n -d -u -P "$work/ser2net.pid" -c "$work/ser2net.yaml" >"$work/ser2net.log" 2>&1 &
started+=("$!")
for exporter in host-a host-b; do
    "$labgrid/labgrid-exporter" -c "$LG_COORDINATOR" -n "$exporter" --hostname 127.0.0.1 "$work/$exporter.yaml" >"$work/$exporter.log" 2>&1 &
    started+=("$!")
done
for _ in $(seq 200); do
    [ "$("$labgrid/labgrid-client" resources 2>/dev/null | grep -c '^host-[ab]/')" -ge "$places" ] && break
    sleep 0.3
done
export SMPCTL_LABGRID_PYTHON="$labgrid/python"

# run LABEL COMMAND…: one smpctl run over many devices with a report; prints its seconds and checks
# that every device succeeded.
run() {
    local label=$1 start seconds
    shift
    start=$(now)
    "$bin/smpctl" "$@" --jobs "$jobs" --progress none --report "$work/run.json" >"$work/out" 2>&1 \
        || { echo "$label failed:" >&2; cat "$work/out" >&2; exit 1; }
    seconds=$(since "$start")
    [ "$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["succeeded"])' "$work/run.json")" = "$places" ] \
        || { echo "$label: not every device succeeded:" >&2; cat "$work/out" >&2; exit 1; }
    echo "$seconds"
}
# acquire_mean: the mean `acquire` phase of the last report, in seconds.
acquire_mean() {
    "$python" -c 'import json, sys; d = json.load(open(sys.argv[1]))["devices"]; a = [p["seconds"] for x in d for p in x["phases"] if p["name"] == "acquire"]; print("%.3f" % (sum(a) / len(a)))' "$work/run.json"
}
printf '%-40s %10s %10s %7s %14s\n' "work ($places boards, --jobs $jobs)" local labgrid ratio "mean acquire"
row() { awk -v w="$1" -v l="$2" -v g="$3" -v a="$4" 'BEGIN { printf "%-40s %8.2f s %8.2f s %6.2f× %12s s\n", w, l, g, g / l, a }'; }
local_echo=$(run "local echo" os echo hi --targets "$work/local.txt")
lab_echo=$(run "labgrid echo" os echo hi -c 'labgrid:bench-*')
row "os echo" "$local_echo" "$lab_echo" "$(acquire_mean)"
local_upload=$(run "local upload" image upload "$work/image.bin" --targets "$work/local.txt")
lab_upload=$(run "labgrid upload" image upload "$work/image.bin" -c 'labgrid:bench-*')
row "image upload 32 KiB" "$local_upload" "$lab_upload" "$(acquire_mean)"
held=$("$labgrid/labgrid-client" places --acquired 2>/dev/null | wc -l)
echo "places left acquired after the runs: $held"
[ "$held" -eq 0 ] || fail "places were left acquired"
