#!/usr/bin/env bash
# How far one smpctl process goes in a labgrid lab (docs/labs.md): a coordinator on loopback, one
# exporter publishing N virtual boards (smpctl simulate --serial-link … --count N behind one ser2net
# in raw mode), N places; then `smpctl os echo` over all places with --jobs J, timed.
#   Tests/Scripts/labgrid/measure-places.sh [N] [J]      (default 32 places, 8 at a time)
# Needs .venv-labgrid (.ci/setup --tests), ser2net and a built smpctl (swift build).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
count="${1:-32}"
jobs="${2:-8}"
bin="$root/.venv-labgrid/bin"
smpctl="$root/.build/debug/smpctl"
[ -x "$smpctl" ] || smpctl="$root/.build/release/smpctl"
work="$(mktemp -d)"
pids=()
# ser2net may keep retrying a port on SIGTERM: SIGKILL what is left after a second.
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 1
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

coordinator_port="$(free_port)"
export LG_COORDINATOR="127.0.0.1:$coordinator_port"
# Places written where the coordinator reads them at its start: creating N with labgrid-client takes N seconds.
for i in $(seq 1 "$count"); do
    printf 'bench-%s:\n  acquired: null\n  acquired_resources: []\n  aliases: []\n  allowed: []\n  changed: 0\n  comment: ""\n  created: 0\n  matches:\n  - {cls: "*", exporter: bench, group: board-%s, name: null, rename: null}\n  reservation: null\n  tags: {}\n' "$i" "$i"
done > "$work/places.yaml"
(cd "$work" && exec "$bin/labgrid-coordinator" -l "$LG_COORDINATOR" > coordinator.log 2>&1) & pids+=($!)

"$smpctl" simulate --serial-link "$work/tty" --count "$count" > "$work/simulate.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do [ -e "$work/tty-$count" ] && break; sleep 0.1; done
: > "$work/ser2net.yaml"
: > "$work/exporter.yaml"
for i in $(seq 1 "$count"); do
    port="$(free_port)"
    printf 'connection: &b%s\n  accepter: tcp,127.0.0.1,%s\n  connector: serialdev,%s,115200n81,local\n  options:\n    kickolduser: true\n\n' "$i" "$port" "$work/tty-$i" >> "$work/ser2net.yaml"
    printf 'board-%s:\n  NetworkSerialPort:\n    host: 127.0.0.1\n    port: %s\n    protocol: raw\n    speed: 115200\n' "$i" "$port" >> "$work/exporter.yaml"
done
/usr/sbin/ser2net -n -d -u -P "$work/ser2net.pid" -c "$work/ser2net.yaml" > "$work/ser2net.log" 2>&1 & pids+=($!)
"$bin/labgrid-exporter" -c "$LG_COORDINATOR" -n bench --hostname 127.0.0.1 "$work/exporter.yaml" > "$work/exporter.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do
    [ "$("$bin/labgrid-client" resources 2>/dev/null | grep -c '^bench/')" -ge "$count" ] && break
    sleep 0.3
done

export SMPCTL_LABGRID_PYTHON="$bin/python"
start=$(date +%s.%N)
"$smpctl" os echo hi -c 'labgrid:bench-*' --jobs "$jobs" --progress none --report "$work/run.json" > "$work/run.out" 2>&1 || true
end=$(date +%s.%N)
succeeded=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["succeeded"])' "$work/run.json")
held=$("$bin/labgrid-client" places --acquired 2>/dev/null | wc -l)
acquire=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["devices"]; a=[p["seconds"] for x in d for p in x["phases"] if p["name"]=="acquire"]; print("%.3f" % (sum(a)/len(a)))' "$work/run.json")
printf '%s places, --jobs %s: %s succeeded in %.1f s (smpctl start to exit); mean acquire phase %s s; places still acquired after: %s\n' \
    "$count" "$jobs" "$succeeded" "$(echo "$end - $start" | bc)" "$acquire" "$held"
