# Sourced by the benchmark scripts (after find-python.sh): smoke mode, building and waiting helpers.

# Smoke mode, `--smoke` as a script's first argument (docs/benchmarks.md, "Smoke mode"): tiny sizes
# and one run of every step, the peers' included, on the binaries already built in .build/debug
# (or in $SMPCTL_BENCH_BIN); a check, in seconds, that the script still works end to end. Its
# figures mean nothing.
smoke=
if [ "${1:-}" = --smoke ]; then smoke=1; shift; fi
# sized FULL SMOKE: FULL, or SMOKE in smoke mode.
sized() { if [ -n "$smoke" ]; then echo "$2"; else echo "$1"; fi; }
# In smoke mode and in CI a measurement that cannot be made (a busy port, a missing peer)
# fails the script instead of being left out; the Python parts read SMPCTL_BENCH_STRICT.
export SMPCTL_BENCH_STRICT=0
# CI as the tests read it (ExternalTool.meansCI): any value but empty, false and 0.
ci=$(tr -d '[:space:]' <<<"${CI:-}" | tr '[:upper:]' '[:lower:]')
if [ -n "$smoke" ] || { [ -n "$ci" ] && [ "$ci" != false ] && [ "$ci" != 0 ]; }; then SMPCTL_BENCH_STRICT=1; fi
# not_measured TEXT: a measurement left out: says so, or fails (see above).
not_measured() {
    [ "$SMPCTL_BENCH_STRICT" = 0 ] || fail "$* (a failure in smoke mode and under CI=true)"
    echo "$*"
}
# require_tools TOOL…: each must be on the PATH.
require_tools() {
    local tool
    for tool in "$@"; do command -v "$tool" >/dev/null || fail "needs $tool: run .ci/setup --tests"; done
}
# peer_tool NAME: the path of a peer's command (smpmgr, imgtool) next to $python, which must exist.
peer_tool() {
    local tool
    tool="$(dirname "$python")/$1"
    [ -x "$tool" ] || fail "no $1 next to $python: run .ci/setup --tests"
    echo "$tool"
}

# The scripts Benchmarks/run-all.sh runs for the headline figures, in this order. Benchmarks/smoke.sh
# runs them through `run-all.sh --smoke` rather than one by one.
headline_scripts=(run-startup.sh run-fixtures.sh run-recovery.sh run-upload.sh run-fs.sh run-echo.sh run-serial.sh)

# How release binaries are built (as .ci/demo does): the Swift runtime and Foundation linked in
# statically (no shared libraries to load and relocate at start), symbols stripped.
release_flags=(-c release --static-swift-stdlib -Xlinker -s)

# build_release PRODUCT…: builds release products quietly; on failure prints the log and exits.
build_release() {
    local log="${TMPDIR:-/tmp}/smpctl-bench-build.log" product
    for product in "$@"; do
        swift build "${release_flags[@]}" --product "$product" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
    done
}

# wait_for FILE TEXT: waits up to 5 s until FILE contains TEXT (a server's announcement); else
# prints FILE and exits.
wait_for() {
    for _ in $(seq 100); do grep -q "$2" "$1" && return; sleep 0.05; done
    echo "no \"$2\" in $1 after 5 s:" >&2
    cat "$1" >&2
    exit 1
}

# find_fixtures: the Zephyr fixtures folder ($SMPCTL_ZEPHYR_FIXTURES or ../shared/zephyr-fixtures)
# into $fixtures, after checking the tools that run its QEMU images.
find_fixtures() {
    local folder="${SMPCTL_ZEPHYR_FIXTURES:-../shared/zephyr-fixtures}"
    fixtures=$(cd "$folder" 2>/dev/null && pwd) || fail "no Zephyr fixtures at $folder: set SMPCTL_ZEPHYR_FIXTURES"
    require_tools qemu-system-arm socat timeout
}

# bench_binaries PRODUCT…: sets $bin, the folder holding the products — built in release (the
# default), in debug (SMPCTL_BENCH_BUILD=debug, while developing) or taken as they are from
# $SMPCTL_BENCH_BIN (SMPCTL_BENCH_BUILD=none; in smoke mode, the default, from .build/debug
# unless SMPCTL_BENCH_BIN says otherwise: nothing is built).
bench_binaries() {
    local product
    case "${SMPCTL_BENCH_BUILD:-$(sized release none)}" in
    none)
        bin=${SMPCTL_BENCH_BIN:-$(sized "" .build/debug)}
        [ -n "$bin" ] || fail "SMPCTL_BENCH_BUILD=none needs SMPCTL_BENCH_BIN, a folder with $*"
        for product in "$@"; do
            [ -x "$bin/$product" ] || fail "no $product in $bin: build it first (swift build --build-tests)"
        done
        ;;
    debug)
        for product in "$@"; do swift build --product "$product" >/dev/null; done
        bin=.build/debug
        ;;
    *)
        build_release "$@"
        bin=.build/release
        ;;
    esac
}

# start_work: a scratch folder $work, removed on exit, with the results file $results; the cache
# (what smpctl learns about links) inside it, so that nothing learned before the run counts and the
# user's cache is untouched; and started=(), every process the script starts, stopped on exit.
start_work() {
    work=$(mktemp -d)
    export XDG_CACHE_HOME="$work/cache"
    results="$work/results"
    : >"$results"
    started=()
    trap stop_work EXIT
    trap 'exit 130' INT TERM
}
stop_work() {
    local pid
    for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
    # What ignores SIGTERM for a while (ser2net busy with hundreds of ports) gets SIGKILL after 2 s.
    for _ in $(seq 20); do
        for pid in "${started[@]}"; do kill -0 "$pid" 2>/dev/null && break; done || break
        sleep 0.1
    done
    for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${started[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}

# json_field KEY [FILE]: the value of KEY in the JSON object on the last line of FILE (or of
# standard input); fails, saying so, when that line is not JSON or has no KEY (a renamed key must
# not give an empty figure). Assign it (x=$(json_field …)): a failure inside an argument is lost.
json_field() {
    local text
    if [ $# -gt 1 ]; then text=$(tail -1 "$2"); else text=$(tail -1); fi
    "$python" -c '
import json, sys
try:
    print(json.loads(sys.argv[2])[sys.argv[1]])
except (ValueError, KeyError, TypeError):
    sys.exit(f"no {sys.argv[1]!r} in the JSON line {sys.argv[2][:300]!r}")' "$1" "$text"
}

# small_image FILE: an 8 KiB MCUboot image of version 2.0.0 (imgtool), loaded where the fixtures'
# mps2_an385 application runs: what smoke mode uploads in place of a large image or application.
small_image() {
    "$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(3).randbytes(8192 - 0x200 - 40))" >"$1.body"
    "$python" -m imgtool.main sign --version 2.0.0 --header-size 0x200 --pad-header --align 4 --slot-size 0x80000 \
        --load-addr 0x20240000 "$1.body" "$1" >/dev/null
    rm -f "$1.body"
}

# record FIELD…: one measurement, a line of the results file.
record() { echo "$*" >>"$results"; }
# figure NAME VALUE: a figure for Benchmarks/run-all.sh's summary, the line "NAME<tab>VALUE" of
# the file $SMPCTL_BENCH_FIGURES, which run-all.sh sets (unset, nothing is written). The scripts'
# Python parts append to the same file: open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a").
figure() { [ -z "${SMPCTL_BENCH_FIGURES:-}" ] || printf '%s\t%s\n' "$1" "$2" >>"$SMPCTL_BENCH_FIGURES"; }
# now: nanoseconds; since START: the seconds since START (from now).
now() { date +%s%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }
# fail TEXT: the script's name and TEXT on standard error; exits 1.
fail() { echo "$(basename "$0"): $*" >&2; exit 1; }
# free_port: a TCP port on loopback that nothing listens on.
free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# manifest_field FIELD CONFIG [TARGET]: a fixture's field in manifest.json (TARGET native_sim
# unless given), e.g. `manifest_field artifact serial_fs`.
manifest_field() {
    "$python" - "$fixtures/manifest.json" "$1" "$2" "${3:-native_sim}" <<'PY'
import json, sys
print(next(f[sys.argv[2]] for f in json.load(open(sys.argv[1])) if f["config"] == sys.argv[3] and f["target"] == sys.argv[4]))
PY
}

# udp_1337_free: succeeds when UDP port 1337 of 127.0.0.1 is free (the only port smpmgr reaches).
udp_1337_free() {
    "$python" -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(("127.0.0.1", 1337))' 2>/dev/null
}

# start_udp_simulator SMPCTL: `SMPCTL simulate` on UDP loopback, stopped on exit (after
# start_work) — on port 1337 when it is free, as smpmgr can be told no other port, else on any;
# sets $port.
start_udp_simulator() {
    local log="$work/udp-simulator.log" wanted
    wanted=0
    if udp_1337_free; then wanted=1337; fi
    "$1" simulate --udp "127.0.0.1:$wanted" >"$log" 2>&1 &
    started+=("$!")
    wait_for "$log" "listening on"
    port=$(sed -n 's/.*listening on udp:127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$port" ] || { echo "simulator did not start:" >&2; cat "$log" >&2; exit 1; }
}
