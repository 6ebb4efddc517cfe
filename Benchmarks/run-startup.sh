#!/usr/bin/env bash
# Start-up cost of the whole smpctl process: `smpctl --version` and one `os echo` over UDP loopback
# against the virtual device, wall time and peak memory (max RSS), median of RUNS runs each, with
# smpmgr doing the same echo in the same run; then the size of the binary. The echo is measured
# twice: with -c, and through a profile (-p) of a config file with ten profiles, which adds reading
# and checking the YAML file.
#
#   Benchmarks/run-startup.sh [--smoke] [RUNS]    (after .ci/setup --tests; builds the release binary)
#
# SMPCTL_BIN=path measures that binary instead of building one; SMPCTL_BASELINE=path adds a
# second smpctl binary (an older build, say) to the same run, on the same virtual device.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
runs="${1:-$(sized 41 1)}"
smpmgr=$(peer_tool smpmgr)
bin="${SMPCTL_BIN:-}"
if [ -z "$bin" ]; then
    bench_binaries smpctl
    bin=$bin/smpctl
fi
[ -x "$bin" ] || { echo "no smpctl binary at $bin" >&2; exit 1; }
baseline="${SMPCTL_BASELINE:-}"
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "SMPCTL_BASELINE: no binary at $baseline" >&2; exit 1; }

start_work
start_udp_simulator "$bin"
config="$work/config.yaml"
{
    echo "defaults:"
    echo "  retries: 2"
    echo "profiles:"
    for n in 1 2 3 4 5 6 7 8 9; do printf '  rack%s:\n    connection: "serial:/dev/ttyACM%s?baud=1000000"\n    window: 8\n' "$n" "$n"; done
    printf '  bench:\n    connection: "udp:127.0.0.1:%s"\n    timeout: 3\n' "$port"
} > "$config"
export SMPCTL_CONFIG="$config"

echo "Start-up, whole process, median of $runs runs, virtual device on udp:127.0.0.1:$port, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
"$python" - "$runs" "$port" "$bin" "$baseline" "$smpmgr" <<'PY'
import os, statistics, subprocess, sys, time

runs, port, ours, baseline, smpmgr = int(sys.argv[1]), sys.argv[2], *sys.argv[3:6]

def measure(argv, count):
    """Medians of `count` runs of argv, which must succeed: wall time (ms), CPU time (user + system,
    ms; steadier than wall time on a loaded machine) and peak RSS (MiB)."""
    times, cpu, peaks = [], [], []
    for _ in range(count):
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        times.append((time.perf_counter() - start) * 1000)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"failed: {' '.join(argv)}: {child.stderr.read().decode(errors='replace')}")
        child.stderr.close()
        cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(times), statistics.median(cpu), statistics.median(peaks)

# (name in the table, name in the figures for run-all.sh, --version, echo, binary size)
rows = []
for name, binary in (("smpctl", ours), ("smpctl (baseline)", baseline)):
    if not binary:
        continue
    version = measure([binary, "--version"], runs)
    echo = measure([binary, "-c", f"udp:127.0.0.1:{port}", "os", "echo", "hi"], runs)
    rows.append((name, name, version, echo, os.path.getsize(binary)))
    profile = measure([binary, "-p", "bench", "os", "echo", "hi"], runs)
    rows.append((name + " -p (config)", name + " -p", version, profile, None))
if port == "1337":
    count = max(min(3, runs), runs // 8)
    rows.append((f"smpmgr 0.19.1 ({count} runs)", "smpmgr", measure([smpmgr, "--version"], count),
                 measure([smpmgr, "--ip", "127.0.0.1", "os", "echo", "hi"], count), None))
elif os.environ.get("SMPCTL_BENCH_STRICT") == "1":
    sys.exit("port 1337 busy: smpmgr, fixed to port 1337, cannot be measured (a failure in smoke mode and under CI=true)")
else:
    print("port 1337 busy: smpmgr, fixed to port 1337, not measured")

print(f"{'':<26}{'--version':>24}{'os echo over UDP':>26}")
print(f"{'tool':<26}{'ms':>8}{'CPU ms':>8}{'MiB':>8}{'ms':>10}{'CPU ms':>8}{'MiB':>8}{'binary MiB':>12}")
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
for name, key, (vt, vc, vm), (et, ec, em), size in rows:
    for what, value in (("--version ms", vt), ("--version MiB", vm), ("os echo ms", et), ("os echo MiB", em), ("binary bytes", size)):
        if value is not None:
            print(f"startup, {key}, {what}\t{value}", file=figures)
    size_text = f"{size / 1048576:.1f}" if size is not None else "-"
    print(f"{name:<26}{vt:>8.1f}{vc:>8.1f}{vm:>8.1f}{et:>10.1f}{ec:>8.1f}{em:>8.1f}{size_text:>12}")
PY
