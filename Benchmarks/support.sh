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
