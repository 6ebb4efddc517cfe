# Sourced by the benchmark scripts (after find-python.sh): building and waiting helpers.

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

# The Zephyr fixtures folder ($SMPCTL_ZEPHYR_FIXTURES or ../shared/zephyr-fixtures) into
# $fixtures, after checking the tools that run its QEMU images; $1 names the calling script.
find_fixtures() {
    fixtures=$(cd "${SMPCTL_ZEPHYR_FIXTURES:-../shared/zephyr-fixtures}" && pwd)
    for tool in qemu-system-arm socat timeout; do
        command -v "$tool" >/dev/null || { echo "$1 needs $tool" >&2; exit 1; }
    done
}

# bench_binaries PRODUCT…: sets $bin, the folder holding the products — built in release (the
# default), in debug (SMPCTL_BENCH_BUILD=debug, while developing) or taken as they are from
# $SMPCTL_BENCH_BIN (SMPCTL_BENCH_BUILD=none).
bench_binaries() {
    local product
    case "${SMPCTL_BENCH_BUILD:-release}" in
    none) bin=${SMPCTL_BENCH_BIN:?SMPCTL_BENCH_BUILD=none needs SMPCTL_BENCH_BIN, a folder with $*} ;;
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
    for pid in "${started[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}

# record FIELD…: one measurement, a line of the results file.
record() { echo "$*" >>"$results"; }
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

# start_udp_simulator SMPCTL: `SMPCTL simulate` on UDP loopback, stopped on exit (after
# start_work) — on port 1337 when it is free, as smpmgr can be told no other port, else on any;
# sets $port.
start_udp_simulator() {
    local log="$work/udp-simulator.log" wanted
    wanted=$("$python" -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(("127.0.0.1", 1337)); print(1337)' 2>/dev/null || echo 0)
    "$1" simulate --udp "127.0.0.1:$wanted" >"$log" 2>&1 &
    started+=("$!")
    wait_for "$log" "listening on"
    port=$(sed -n 's/.*listening on udp:127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$port" ] || { echo "simulator did not start:" >&2; cat "$log" >&2; exit 1; }
}
