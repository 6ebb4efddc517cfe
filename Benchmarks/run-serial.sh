#!/usr/bin/env bash
# Serial goodput benchmark: large echo requests over a pseudo-terminal paced like a UART by the
# virtual device (`smpctl simulate --serial-link … --baud …`), smpctl against smpclient (PyPI) on
# the same link in the same run, as a fraction of the wire ceiling.
#
# The ceiling for a message of M bytes is baud/10 bytes per second times M / W, where W is what the
# message takes on the wire: base64 of length + message + CRC (4/3), plus a 2-byte marker and a
# newline per line. Both tools send the same 380-byte requests (Zephyr's default buf_size 384 − 4),
# which take 527 bytes on the wire. The client → device direction is what counts; the echoes come
# back on the other direction of the full-duplex line.
#
#   Benchmarks/run-serial.sh [--smoke] [BAUD…]   (default: 115200 1000000, smoke 1000000; builds release binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
rates=("$@")
[ ${#rates[@]} -gt 0 ] || read -r -a rates <<<"$(sized "115200 1000000" 1000000)"
smpmgr=$(peer_tool smpmgr)
bench_binaries smpctl smpctl-bench

link="${TMPDIR:-/tmp}/smpctl-bench-serial-$$"
log=$(mktemp)
sim=
cleanup() { [ -n "$sim" ] && kill "$sim" 2>/dev/null; wait 2>/dev/null; rm -f "$log"; }
trap cleanup EXIT

results=()
# smpmgr, the CLI on smpclient, runs one command per process: five echoes of the largest text its
# default framing sends (--line-length 128 --line-buffers 2 allow 169-byte messages: 150 characters).
smpmgr_runs=$(sized 5 1)
smpmgr_goodput() {
    local baud=$1 text start seconds
    text=$(printf 'x%.0s' $(seq 150))
    start=$(date +%s%N)
    for _ in $(seq "$smpmgr_runs"); do
        "$smpmgr" --port "$link" --baudrate "$baud" os echo "$text" >/dev/null 2>&1 || { echo "smpmgr failed" >&2; exit 1; }
    done
    seconds=$(( $(date +%s%N) - start ))
    "$python" -c "import json,sys; b=$baud; n=$smpmgr_runs; m=8+1+2+1+2+150; w=(2+m+2+2)//3*4+3; g=n*m/($seconds/1e9); c=b/10*m/w
print(json.dumps({'tool':'smpmgr','window':1,'baud':b,'count':n,'goodput':g,'ceiling':c,'ratio':g/c}))"
}

for baud in "${rates[@]}"; do
    # About 5 s of traffic per run for smpctl (a tenth of a second in smoke mode); smpclient, half
    # as fast, gets half the requests.
    count=$(( baud / 10 * $(sized 50 1) / 527 / 10 ))
    "$bin/smpctl" simulate --serial-link "$link" --baud "$baud" >"$log" 2>&1 &
    sim=$!
    wait_for "$log" "listening on"
    results+=("$("$bin/smpctl-bench" serial-goodput "$link" "$baud" "$count" 3)")
    results+=("$("$bin/smpctl-bench" serial-goodput "$link" "$baud" "$(( count / 2 ))" 1)")
    results+=("$("$python" Benchmarks/smpclient_serial_echo.py "$link" "$baud" "$(( count / 2 ))")")
    results+=("$(smpmgr_goodput "$baud")")
    kill "$sim"; wait "$sim" 2>/dev/null || true; sim=
done

decoding=$("$bin/smpctl-bench" frame-decoding "$(sized 32 1)")
echo "Serial goodput, 380-byte echo requests over a paced pseudo-terminal (virtual device), $(nproc) cores"
"$python" - "$decoding" "${results[@]}" <<'PY'
import json, os, sys
decoding = json.loads(sys.argv[1])
rows = [json.loads(a) for a in sys.argv[2:]]
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
print(f"{'baud':>9}  {'tool':<22}{'requests':>9}{'message B/s':>13}{'ceiling B/s':>13}{'of ceiling':>12}")
for r in rows:
    name = f"{r['tool']} ({r['window']} in flight)"
    print(f"serial {r['baud']}, {name}, share of ceiling\t{r['ratio']}", file=figures)
    print(f"{r['baud']:>9}  {name:<22}{r['count']:>9}{r['goodput']:>13.0f}{r['ceiling']:>13.0f}{r['ratio'] * 100:>11.1f}%")
for baud in sorted({r['baud'] for r in rows}):
    by = {(r['tool'], r['window']): r for r in rows if r['baud'] == baud}
    ours, single, peer, cli = by[('smpctl', 3)], by[('smpctl', 1)], by[('smpclient', 1)], by[('smpmgr', 1)]
    print(f"{baud} baud: smpctl reaches {ours['ratio'] * 100:.1f}% of the ceiling with 3 in flight "
          f"({ours['goodput'] / peer['goodput']:.2f}x smpclient, {ours['goodput'] / cli['goodput']:.0f}x smpmgr); "
          f"one at a time {single['ratio'] * 100:.1f}% against smpclient's {peer['ratio'] * 100:.1f}% "
          f"({single['goodput'] / peer['goodput']:.2f}x)")
print(f"frame decoding alone: {decoding['megabytesPerSecond']:.0f} MB/s ({decoding['packets']} packets with log lines between them)")
print(f"serial frame decoding, MB/s\t{decoding['megabytesPerSecond']}", file=figures)
# No tool can carry more than the wire: a share above the ceiling means the simulated line's pacing
# (PTYSimulatorOptions.baudRate) let bytes through too fast, and every figure above is wrong.
outran = [r for r in rows if r['ratio'] > 1.03]
for r in outran:
    print(f"error: {r['tool']} ({r['window']} in flight) carried {r['ratio'] * 100:.1f}% of the {r['baud']} baud ceiling: "
          "the simulated line lets bytes through faster than its baud rate", file=sys.stderr)
sys.exit(1 if outran else 0)
PY
