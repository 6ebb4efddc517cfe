#!/usr/bin/env bash
# Upgrading many devices: `smpctl simulate --count N` (N = 1, 10, 100) on UDP loopback, each device
# upgraded with the same 64 KiB MCUboot image (imgtool, version 1.2.3; the devices run 1.0.0):
#
#   loop   what users do today: a shell loop of single-device `smpctl upgrade IMG -c udp:127.0.0.1:PORT`,
#          one device after another;
#   many   one `smpctl upgrade IMG -c udp:127.0.0.1:FIRST-LAST --jobs N --report FILE` (a range of
#          one port for N = 1, so that it is the same many-device run);
#   smpmgr the peer's baseline for N = 1 and 10: a loop of `smpmgr --ip 127.0.0.1 upgrade IMG` (upload,
#          mark for test, reset: no confirm). smpmgr reaches UDP port 1337 only, so each of its devices
#          is a fresh `simulate` on 1337, started before and stopped after its timed run (skipped when
#          1337 is busy).
#
# Two kinds of device: "instant" (the simulator's defaults: flash takes no time, the device answers
# 250 ms after a reset and boots at once), where the host's own work is what is measured; and
# "flash" (erase 64 KiB/s, write 128 KiB/s, 1 s to boot after the reset: about an nRF52's internal
# flash and MCUboot), where a device is busy for seconds, as real ones are.
# Every measurement gets fresh devices (simulate is restarted), so none is already up to date.
# Columns: wall time of the whole run, relative to the same method at N = 1, CPU time (user +
# system of every smpctl/smpmgr process the run started) and peak memory (the largest max RSS of
# one of those processes); then the simulator's own peak memory for each N.
#
#   Benchmarks/run-fleet.sh [--smoke] [COUNT…]   (default 1 10 100, smoke 1; after .ci/setup --tests;
#                                                builds the release binary)
#
# SMPCTL_BENCH_BUILD=debug measures a debug build, SMPCTL_BENCH_BUILD=none the smpctl in $SMPCTL_BENCH_BIN.
# Smoke mode: N = 1 (a many-device run of a range of one port) and a 16 KiB image.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
counts=("$@")
[ $# -gt 0 ] || read -r -a counts <<<"$(sized "1 10 100" 1)"
for count in "${counts[@]}"; do
    [[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] && [ "$count" -le 1000 ] || fail "COUNT must be from 1 to 1000, not $count"
done
smpmgr=$(peer_tool smpmgr)
imgtool=$(peer_tool imgtool)
image_size=$(sized 65536 16384)

bench_binaries smpctl
smpctl="$bin/smpctl"
start_work

# A 64 KiB image: the body fills what the 0x200 header and the SHA-256 TLV area (4 + 36 bytes) leave.
image="$work/image.bin"
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(1).randbytes($image_size - 0x200 - 40))" >"$work/app.bin"
"$imgtool" sign --version 1.2.3 --header-size 0x200 --pad-header --align 4 --slot-size 0x40000 "$work/app.bin" "$image" >/dev/null

echo "Upgrade of N virtual devices over UDP loopback, $((image_size / 1024)) KiB image, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
"$python" - "$smpctl" "$smpmgr" "$image" "$work" "${counts[@]}" <<'PY'
import json, os, random, signal, socket, subprocess, sys, tempfile, time

smpctl, smpmgr, image, work = sys.argv[1:5]
counts = [int(n) for n in sys.argv[5:]]

def free_consecutive_udp_ports(count):
    """A first port whose `count` consecutive UDP ports on loopback are free now."""
    for _ in range(200):
        first = random.randrange(20000, 60000 - count)
        sockets = []
        try:
            for port in range(first, first + count):
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                sockets.append(s)
                s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    sys.exit(f"no {count} consecutive free UDP ports")

PROFILES = [("instant", []), ("flash", ["--erase-speed", "64", "--write-speed", "128", "--boot-time", "1000"])]

class Simulator:
    """`smpctl simulate --count N` on loopback, from `first` (0: free ports), with `timing`
    options; `ports` once it listens."""
    def __init__(self, count, first, timing):
        argv = [smpctl, "simulate", "--udp", f"127.0.0.1:{first}", "--json"] + (["--count", str(count)] if count > 1 else []) + timing
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("{"):
            self.process.kill()
            sys.exit(f"simulate did not start: {line}{self.process.stderr.read()}")
        document = json.loads(line)
        if "listening" not in document:
            self.process.wait()
            sys.exit(f"simulate did not start: {line}")
        self.ports = [d["port"] for d in document.get("devices", [])] or [document["port"]]

    def peak_mib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) / 1024

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

def measure(argv, devices):
    """Runs argv, which must succeed within 60 s + 10 s per device: wall seconds, CPU seconds (user +
    system, its children included) and peak RSS in MiB (the largest of it and its children)."""
    start = time.perf_counter()
    argv = ["timeout", "--kill-after=5", str(60 + 10 * devices)] + argv
    # Standard error into a file: a pipe read only at the end fills up (64 KiB) and stops the writer.
    with tempfile.TemporaryFile() as log:
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        log.seek(0)
        errors = log.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}:\n{errors[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

rows, simulator_memory = [], {}
for profile, timing in PROFILES:
    for n in counts:
        simulator = Simulator(n, 0, timing)
        # Each upgrade within 60 s: a hang fails the run at once instead of stalling it.
        loop = " && ".join(f'timeout 60 "$0" upgrade "$1" -c udp:127.0.0.1:{port} >/dev/null' for port in simulator.ports)
        try:
            rows.append((profile, n, "smpctl loop", measure(["bash", "-c", loop, smpctl, image], n)))
            simulator_memory[(profile, n, "loop")] = simulator.peak_mib()
        finally:
            simulator.stop()
        first = free_consecutive_udp_ports(n)
        simulator = Simulator(n, first, timing)
        target = f"udp:127.0.0.1:{first}-{first + n - 1}"
        report = os.path.join(work, f"report-{profile}-{n}.json")
        try:
            rows.append((profile, n, "smpctl, one run", measure([smpctl, "upgrade", image, "-c", target, "--jobs", str(min(n, 256)), "--report", report], n)))
            simulator_memory[(profile, n, "many")] = simulator.peak_mib()
        finally:
            simulator.stop()
        if n in (1, 10):
            total = [0.0, 0.0, 0.0]
            for _ in range(n):
                try:
                    simulator = Simulator(1, 1337, timing)
                except SystemExit as error:
                    if os.environ.get("SMPCTL_BENCH_STRICT") == "1":
                        sys.exit(f"smpmgr cannot be measured for N={n}: port 1337: {error} (a failure in smoke mode and under CI=true)")
                    print(f"smpmgr not measured for N={n}: port 1337: {error}")
                    break
                try:
                    wall, cpu, peak = measure([smpmgr, "--ip", "127.0.0.1", "upgrade", image], 1)
                finally:
                    simulator.stop()
                total = [total[0] + wall, total[1] + cpu, max(total[2], peak)]
            else:
                rows.append((profile, n, "smpmgr loop", tuple(total)))

base = {(profile, method): wall for profile, n, method, (wall, _, _) in rows if n == 1}
print()
print("| devices | N | method | wall s | × N=1 | s per device | CPU s | peak MiB |")
print("|---|---:|---|---:|---:|---:|---:|---:|")
for profile, n, method, (wall, cpu, peak) in rows:
    relative = f"{wall / base[(profile, method)]:.2f}" if (profile, method) in base else "-"
    print(f"| {profile} | {n} | {method} | {wall:.2f} | {relative} | {wall / n:.3f} | {cpu:.2f} | {peak:.1f} |")
if simulator_memory:
    print()
    print("simulate --count N, its peak RSS: "
          + ", ".join(f"{profile} N={n} after the {method}: {mib:.1f} MiB" for (profile, n, method), mib in simulator_memory.items()))
PY
