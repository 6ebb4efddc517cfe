#!/usr/bin/env bash
# The headline figures in one run (docs/benchmarks.md, "All headline figures"): runs the scripts in
# $headline_scripts (Benchmarks/support.sh) one after the other on the same binaries, each with
# smpctl and its Python peer (smpmgr 0.19.1, smpclient 7.3.0) in the same run, then prints one
# summary table: row, smpctl's figure, the peer's, the ratio, the goal of issue 29 and whether it
# is met. Each script's own output is printed as it runs, so every figure of the summary can be
# traced to its table. The run starts and ends with the machine's state (date, kernel, cores, load
# average), the commit and the build.
#
#   SMPCTL_PYTHON=/path/to/python Benchmarks/run-all.sh    (release build: what the README quotes)
#   SMPCTL_BENCH_BUILD=debug Benchmarks/run-all.sh          (debug build, while developing)
#   SMPCTL_BENCH_BUILD=none SMPCTL_BENCH_BIN=DIR …          (binaries already built in DIR)
#   Benchmarks/run-all.sh --smoke                           (every script in smoke mode; smoke.sh runs this)
#
# A script that fails does not stop the run: its rows say "not measured" and the run fails at the
# end. In smoke mode and under CI=true a row of the summary without its figures fails the run too
# (a renamed figure must not leave a row empty); rows that smoke mode does not measure (the raw
# recovery, 115,200 baud, qemu_cortex_m0) are not checked there.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh

build=${SMPCTL_BENCH_BUILD:-$(sized release none)}
bench_binaries smpctl smpctl-bench
# Binaries taken as they are: their folder says which build they are, where it can.
if [ "$build" = none ]; then case $bin in */release) build=release ;; */debug) build=debug ;; esac; fi
start_work
# The scripts take the binaries built here, as they are, and write their figures into one file.
export SMPCTL_BENCH_BUILD=none SMPCTL_BENCH_BIN="$(cd "$bin" && pwd)" SMPCTL_BENCH_FIGURES="$work/figures"
: >"$SMPCTL_BENCH_FIGURES"

# machine: the date, the kernel, the cores and the load average, on one line.
machine() { echo "$(date -u +%FT%TZ), Linux $(uname -r), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit (with uncommitted changes)"
peers=$("$python" -c 'import importlib.metadata as m; print(", ".join(f"{p} {m.version(p)}" for p in ("smpmgr", "smpclient")))')
echo "run-all.sh${smoke:+ --smoke} start: $(machine)"
echo "commit $commit; build: $build ($SMPCTL_BENCH_BIN); $peers"

failed=()
total=$(now)
for script in "${headline_scripts[@]}"; do
    echo
    echo "=== $script${smoke:+ --smoke}"
    start=$(now)
    if bash "Benchmarks/$script" ${smoke:+--smoke}; then
        printf "=== %s: %.1f s\n" "$script" "$(since "$start")"
    else
        printf "=== %s: failed after %.1f s\n" "$script" "$(since "$start")" >&2
        failed+=("$script")
    fi
done

echo
echo "run-all.sh end: $(machine), $(awk -v s="$(since "$total")" 'BEGIN { printf "%.0f", s }') s in all"
echo "commit $commit; build: $build; $peers${smoke:+; smoke mode: the figures mean nothing}"
"$python" - "$SMPCTL_BENCH_FIGURES" "$build" "${smoke:-0}" <<'PY'
import os, sys
from collections import defaultdict

figures = defaultdict(list)
for line in open(sys.argv[1]):
    name, value = line.rstrip("\n").split("\t")
    figures[name].append(float(value))
build, smoke = sys.argv[2], sys.argv[3] == "1"

def last(name):
    """The figure NAME (the last written, where a script writes one per run), or None."""
    return figures[name][-1] if figures[name] else None

def seconds(value):
    return f"{value:.3f} s" if value >= 0.1 else f"{value * 1000:.1f} ms"

# Each row: its label, smpctl's figure, the peer's, the ratio, the goal and whether it is met (None:
# no goal), or None when a figure is missing.
def speed(a, b, goal=None):
    """Whole-process seconds (lower is better): ratio peer ÷ smpctl, goal: ratio at least `goal`."""
    ours, peer = last(a), last(b)
    if ours is None or peer is None:
        return None
    ratio = peer / ours
    failures = last(b.replace(", wall", ", failed runs"))
    return (seconds(ours), seconds(peer) + (f" ({failures:.0f} runs failed)" if failures else ""), f"{ratio:.1f}x",
            f">= {goal}x" if goal else "-", None if goal is None else ratio >= goal)

def rate(a, b, unit, scale=1.0):
    """Rates (higher is better): ratio smpctl ÷ peer, no goal."""
    ours, peer = last(a), last(b)
    if ours is None or peer is None:
        return None
    return f"{ours * scale:.1f} {unit}", f"{peer * scale:.1f} {unit}", f"{ours / peer:.1f}x", "-", None

def share(a, b, goal=None):
    """Shares of a ceiling (higher is better)."""
    ours = last(a)
    if ours is None:
        return None
    peer = last(b) if b else None
    return (f"{ours:.2f}", "-" if peer is None else f"{peer:.2f}", "-" if not peer else f"{ours / peer:.1f}x",
            f">= {goal}" if goal else "-", None if goal is None else ours >= goal)

def round_trips(prefix):
    """Requests smpctl sent against the chunks of the file, the worst run; goal: chunks + at most 2."""
    requests, chunks = figures[f"{prefix}, requests"], figures[f"{prefix}, chunks"]
    if not requests or not chunks:
        return None
    extra = max(r - c for r, c in zip(requests, chunks))
    worst = max(requests)
    return (f"{worst:.0f} requests, {max(chunks):.0f} chunks", "-", "-", "<= chunks + 2", extra <= 2)

def startup(what, limit, unit):
    ours, peer = last(f"startup, smpctl, {what}"), last(f"startup, smpmgr, {what}")
    if ours is None:
        return None
    text = (lambda v: f"{v:.1f} {unit}")
    return (text(ours), "-" if peer is None else text(peer), "-" if peer is None else f"{peer / ours:.0f}x",
            f"<= {limit} {unit}" if limit else "-", None if limit is None else ours <= limit)

def binary_size():
    size = last("startup, smpctl, binary bytes")
    if size is None:
        return None
    release = build == "release"
    return (f"{size:,.0f} B ({size / 1e6:.1f} MB)", "-", "-", "<= 30 MB" if release else f"- ({build} build)",
            size <= 30e6 if release else None)

def value(name, unit):
    """A figure of smpctl's alone."""
    ours = last(name)
    return None if ours is None else (f"{ours:.1f} {unit}", "-", "-", "-", None)

# (label, figures, measured in smoke mode too), and headings
rows = [
    "Issue 29 goals",
    ("fs put 8,000 B, serial_fs (pty), process", speed("serial_fs fs put, smpctl, wall", "serial_fs fs put, smpmgr, wall", 10), True),
    ("  same, learned pacing given (?burst)", speed("serial_fs fs put, smpctl ?burst, wall", "serial_fs fs put, smpmgr, wall"), True),
    ("fs put 8,000 B, udp, process", speed("udp fs put, smpctl, wall", "udp fs put, smpmgr, wall", 9), True),
    ("fs put 8,000 B, udp, round trips", round_trips("udp fs put, smpctl"), True),
    ("fs get 8,000 B, udp, process", speed("udp fs get, smpctl, wall", "udp fs get, smpmgr, wall", 12), True),
    ("recovery upload, console: share of ceiling", share("serial_recovery upload, smpctl, share of ceiling",
                                                          "serial_recovery upload, smpmgr, share of ceiling", 0.68), True),
    ("  same, process", speed("serial_recovery upload, smpctl, wall", "serial_recovery upload, smpmgr, wall"), True),
    ("recovery upload, raw: share of ceiling", share("serial_recovery_raw upload, smpctl, share of ceiling", None, 0.95), False),
    ("--version, process", startup("--version ms", 8, "ms"), True),
    ("--version, peak RSS", startup("--version MiB", None, "MiB"), True),
    ("os echo over UDP, process", startup("os echo ms", 28, "ms"), True),
    ("os echo over UDP, peak RSS", startup("os echo MiB", None, "MiB"), True),
    ("release binary size", binary_size(), True),
    "README claims",
    ("image upload 1 MiB, UDP, upload phase", rate("upload udp, smpctl (window 3), upload MiB/s",
                                                     "upload udp, smpmgr 0.19.1 (smpclient 7.3.0), upload MiB/s", "MiB/s"), True),
    ("  same, process", rate("upload udp, smpctl (window 3), wall MiB/s",
                             "upload udp, smpmgr 0.19.1 (smpclient 7.3.0), wall MiB/s", "MiB/s"), True),
    ("image upload 1 MiB, 1 Mbaud pty: share of wire", share("upload paced, smpctl (window 3), share of wire ceiling",
                                                             "upload paced, smpmgr 0.19.1 (smpclient 7.3.0), share of wire ceiling"), True),
    ("image upload 1 MiB, UDP, smpctl peak RSS", value("upload udp, smpctl, peak MiB", "MiB"), True),
    ("fs put 1 MiB, UDP, transfer", rate("fs put, smpctl (window 3), transfer MiB/s",
                                         "fs put, smpmgr 0.19.1 (smpclient 7.3.0), transfer MiB/s", "MiB/s"), True),
    ("fs get 1 MiB, UDP, transfer", rate("fs get, smpctl (window 3), transfer MiB/s",
                                         "fs get, smpmgr 0.19.1 (smpclient 7.3.0), transfer MiB/s", "MiB/s"), True),
    ("echo over UDP, 1 in flight (vs smpclient)", rate("echo, smpctl (1 in flight), requests/s",
                                                       "echo, smpclient 7.3.0 (1 in flight), requests/s", "k/s", 1e-3), True),
    ("echo over UDP, 4 in flight (vs smpclient)", rate("echo, smpctl (4 in flight), requests/s",
                                                       "echo, smpclient 7.3.0 (1 in flight), requests/s", "k/s", 1e-3), True),
    ("serial 380 B echoes, 115,200 baud: share", share("serial 115200, smpctl (3 in flight), share of ceiling",
                                                       "serial 115200, smpclient (1 in flight), share of ceiling"), False),
    ("serial 380 B echoes, 1 Mbaud: share", share("serial 1000000, smpctl (3 in flight), share of ceiling",
                                                  "serial 1000000, smpclient (1 in flight), share of ceiling"), True),
    ("image upload 132 KB, mps2_an385 app (QEMU)", speed("mps2_an385 app image upload, smpctl, wall",
                                                         "mps2_an385 app image upload, smpmgr, wall"), True),
    ("  same, share of the raw UART ceiling", share("mps2_an385 app image upload, smpctl, share of raw ceiling", None), True),
    ("image upload 49,692 B, qemu_cortex_m0", speed("qemu_cortex_m0 image upload, smpctl, wall",
                                                    "qemu_cortex_m0 image upload, smpmgr, wall"), False),
    ("os echo, serial fixture, process", speed("serial echo 5 B (one process each), smpctl, wall",
                                               "serial echo 5 B (one process each), smpmgr, wall"), True),
]
print()
print(f"{'row':<47}{'smpctl':<26}{'smpmgr / peer':<32}{'ratio':>7}  {'goal':<15}met")
missing = []
for entry in rows:
    if isinstance(entry, str):
        print(f"-- {entry}")
        continue
    label, row, in_smoke = entry
    if row is None:
        print(f"{label:<47}not measured")
        if in_smoke or not smoke:
            missing.append(label.strip())
        continue
    ours, peer, ratio, goal, met = row
    print(f"{label:<47}{ours:<26}{peer:<32}{ratio:>7}  {goal:<15}{'-' if met is None else 'met' if met else 'NOT MET'}")
print("ratio: peer ÷ smpctl for times, smpctl ÷ peer for rates and shares; the peer is smpmgr 0.19.1, or smpclient "
      "7.3.0 where named (its upload and fs loops time smpmgr's transfer phase)")
if missing and os.environ.get("SMPCTL_BENCH_STRICT") == "1":
    sys.exit(f"run-all.sh: no figures for {'; '.join(missing)} (a failure in smoke mode and under CI=true)")
PY
[ ${#failed[@]} -eq 0 ] || fail "failed: ${failed[*]} (see above)"
