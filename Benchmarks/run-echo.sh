#!/usr/bin/env bash
# Echo benchmark over UDP loopback against the virtual device: smpctl against smpclient (PyPI)
# in the same run, on the same simulator process, plus the whole-process time of `smpctl os echo`.
#
#   Benchmarks/run-echo.sh [--smoke] [COUNT]     (after .ci/setup --tests; builds release binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
count="${1:-$(sized 3000 100)}"
smpmgr=$(peer_tool smpmgr)
bench_binaries smpctl smpctl-bench

start_work
start_udp_simulator "$bin/smpctl"

echo "Echo round trips, UDP loopback, virtual device on port $port, $count requests of 8 bytes, $(nproc) cores"
ours=$("$bin/smpctl-bench" echo "udp:127.0.0.1:$port" "$count" 1)
peer=$("$python" Benchmarks/smpclient_echo.py 127.0.0.1 "$port" "$count" 1)
window=$("$bin/smpctl-bench" echo "udp:127.0.0.1:$port" "$((count * 4))" 4)

"$python" - "$ours" "$peer" "$window" <<'PY'
import json, os, sys
ours, peer, window = (json.loads(a) for a in sys.argv[1:4])
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
print(f"{'tool':<28}{'req/s':>10}{'p50 µs':>10}{'p99 µs':>10}")
for name, r in (("smpctl (1 in flight)", ours), ("smpclient 7.3.0 (1 in flight)", peer), ("smpctl (4 in flight)", window)):
    print(f"echo, {name}, requests/s\t{r['rps']}\necho, {name}, p50 µs\t{r['p50_us']}", file=figures)
    print(f"{name:<28}{r['rps']:>10.0f}{r['p50_us']:>10.0f}{r['p99_us']:>10.0f}")
print(f"ratio smpctl/smpclient: {ours['rps'] / peer['rps']:.2f}x requests per second, "
      f"{peer['p50_us'] / ours['p50_us']:.2f}x lower p50, {peer['p99_us'] / ours['p99_us']:.2f}x lower p99; "
      f"with 4 in flight {window['rps'] / peer['rps']:.2f}x")
PY

mean_ms() {  # mean wall time in ms of RUNS runs of a command, which must succeed
    local runs=$1; shift
    local start=$(date +%s%N)
    for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }; done
    echo $(( ($(date +%s%N) - start) / runs / 1000000 ))
}
runs=$(sized 20 1) peer_runs=$(sized 5 1)
smpctl_ms=$(mean_ms "$runs" "$bin/smpctl" -c "udp:127.0.0.1:$port" os echo hi)
figure "echo, smpctl, one process ms" "$smpctl_ms"
if [ "$port" = 1337 ]; then
    smpmgr_ms=$(mean_ms "$peer_runs" "$smpmgr" --ip 127.0.0.1 os echo hi)
    figure "echo, smpmgr, one process ms" "$smpmgr_ms"
    echo "whole process, one echo: smpctl ${smpctl_ms} ms (mean of $runs), smpmgr 0.19.1 ${smpmgr_ms} ms (mean of $peer_runs): $("$python" -c "print(f'{$smpmgr_ms / max(1, $smpctl_ms):.0f}')")x"
else
    not_measured "whole process, one echo: smpctl ${smpctl_ms} ms (mean of $runs); port 1337 busy, so smpmgr (fixed to 1337) not measured"
fi
