#!/usr/bin/env bash
# SMP over DTLS 1.2 against plain UDP, whole processes, in the same run:
#  - against smpctl's virtual device (`simulate --udp`, plain, DTLS with a PSK, DTLS with a certificate):
#    `os echo` (a connection, its handshake and one round trip) and a 100 KiB image upload;
#  - against the real native_sim `udp` fixture, plain and behind Tests/Scripts/dtls/dtls_front.py, a
#    DTLS server we did not write (python-mbedtls, i.e. Mbed TLS 2.28 as in Zephyr, with Zephyr's cipher
#    suites): `os echo` and an 8,000-byte `fs put` (the fixture's LittleFS holds about 8 KB).
# "handshake" is the time smpctl's DTLS handshake took inside the process (its `-v` log line); the
# other figures are whole processes. Each figure is the median of REPEATS runs (default 5).
#   Benchmarks/run-dtls.sh [--smoke]   (after .ci/setup --tests; builds a release smpctl; smoke: once each)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
require_tools openssl
"$python" -c 'import mbedtls' 2>/dev/null || fail "no python-mbedtls next to $python: run .ci/setup --tests"
repeats="${REPEATS:-$(sized 5 1)}"
size=$(sized 102400 16384)

bench_binaries smpctl
start_work
bash Tests/Scripts/dtls/make-certs.sh "$work/certs"
certs="$work/certs"
psk="dtls=1&psk-id=smpctl-test&psk-file=$certs/psk.hex"
cert="dtls=1&ca=$certs/ca.pem&server-name=localhost"

"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(1).randbytes($size - 0x200 - 40))" >"$work/app.bin"
"$python" -m imgtool.main sign --version 1.2.3 --header-size 0x200 --pad-header --align 4 --slot-size 0x80000 \
    "$work/app.bin" "$work/image.bin" >/dev/null
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(2).randbytes(8000))" >"$work/file.bin"

# median_run LABEL COMMAND…: runs COMMAND REPEATS times; prints the median wall time in seconds.
median_run() {
    local label=$1 start times=()
    shift
    for _ in $(seq "$repeats"); do
        start=$(now)
        "$@" >"$work/out" 2>&1 || { echo "$label failed:" >&2; cat "$work/out" >&2; exit 1; }
        times+=("$(since "$start")")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# handshake_ms LABEL CONNECTION: the median handshake time smpctl logs with -v, in milliseconds.
handshake_ms() {
    local times=()
    for _ in $(seq "$repeats"); do
        "$bin/smpctl" -v os echo hi -c "$2" >/dev/null 2>"$work/verbose" || { echo "$1 failed:" >&2; cat "$work/verbose" >&2; exit 1; }
        times+=("$(sed -n 's/.*handshakeTime=\([0-9.e-]*\) seconds.*/\1/p' "$work/verbose")")
    done
    [ -n "${times[0]}" ] || fail "$1: no handshakeTime in smpctl's -v log"
    printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 * 1000 } END { printf "%.1f", v[int((NR + 1) / 2)] }'
}
# row WHAT PLAIN DTLS: one line of the table with the overhead ratio.
row() { awk -v w="$1" -v p="$2" -v d="$3" 'BEGIN { printf "%-46s %8.3f s %8.3f s %6.2f× %+8.1f ms\n", w, p, d, d / p, (d - p) * 1000 }'; }
printf '%-46s %10s %10s %7s %11s\n' work "plain UDP" DTLS ratio difference

# simulator PORT [OPTION…]: a virtual device on 127.0.0.1:PORT (1 image, 512 KiB slots).
simulator() {
    local log="$work/sim-$1.log"
    "$bin/smpctl" simulate --udp "127.0.0.1:$1" --images 1 --slot-size 524288 "${@:2}" >"$log" 2>&1 &
    started+=("$!")
    wait_for "$log" "listening on"
}
plain_port=$(free_port) psk_port=$(free_port) cert_port=$(free_port)
simulator "$plain_port"
simulator "$psk_port" --dtls-psk-id smpctl-test --dtls-psk-file "$certs/psk.hex"
simulator "$cert_port" --dtls-cert "$certs/device.pem" --dtls-key "$certs/device.key"

echo_on() { "$bin/smpctl" os echo hello -c "$1"; }
upload_to() { "$bin/smpctl" image upload "$work/image.bin" --restart -c "$1"; }
plain=$(median_run "plain echo" echo_on "udp:127.0.0.1:$plain_port")
row "os echo, simulator, PSK" "$plain" "$(median_run "PSK echo" echo_on "udp:127.0.0.1:$psk_port?$psk")"
row "os echo, simulator, certificate (P-256)" "$plain" "$(median_run "certificate echo" echo_on "udp:127.0.0.1:$cert_port?$cert")"
echo "handshake, simulator: PSK $(handshake_ms "PSK handshake" "udp:127.0.0.1:$psk_port?$psk") ms," \
    "certificate $(handshake_ms "certificate handshake" "udp:127.0.0.1:$cert_port?$cert") ms"
plain=$(median_run "plain upload" upload_to "udp:127.0.0.1:$plain_port")
row "image upload $((size / 1024)) KiB, simulator, PSK" "$plain" "$(median_run "PSK upload" upload_to "udp:127.0.0.1:$psk_port?$psk")"
row "image upload $((size / 1024)) KiB, simulator, certificate" "$plain" \
    "$(median_run "certificate upload" upload_to "udp:127.0.0.1:$cert_port?$cert")"

# The native_sim udp fixture (port 1337) behind python-mbedtls.
find_fixtures
udp_1337_free || fail "UDP port 1337 is busy; the udp fixture needs it"
fixture="$fixtures/$(manifest_field artifact udp)"
mkdir -p "$work/udp"
(cd "$work/udp" && exec "$fixture" --flash="$work/udp/flash.bin" -flash_erase) >"$work/udp/log" 2>&1 &
started+=("$!")
wait_for "$work/udp/log" "smp_udp: Started"
# front MODE OPTION…: a python-mbedtls DTLS front for the fixture; sets $front_port.
front() {
    "$python" Tests/Scripts/dtls/dtls_front.py --upstream 127.0.0.1:1337 "$@" >"$work/front.out" 2>"$work/front.err" &
    started+=("$!")
    wait_for "$work/front.out" READY
    front_port=$(awk '/READY/ { print $2 }' "$work/front.out")
}
front --psk-id smpctl-test --psk-file "$certs/psk.hex"
front_psk=$front_port
front --cert "$certs/device.pem" --key "$certs/device.key"
front_cert=$front_port
put_to() { "$bin/smpctl" fs put "$work/file.bin" /lfs1/b.bin -c "$1"; }
plain=$(median_run "fixture echo" echo_on udp:127.0.0.1:1337)
row "os echo, native_sim udp, python-mbedtls PSK" "$plain" "$(median_run "front PSK echo" echo_on "udp:127.0.0.1:$front_psk?$psk")"
row "os echo, native_sim udp, python-mbedtls cert." "$plain" \
    "$(median_run "front certificate echo" echo_on "udp:127.0.0.1:$front_cert?$cert")"
echo "handshake, python-mbedtls: PSK $(handshake_ms "front PSK handshake" "udp:127.0.0.1:$front_psk?$psk") ms," \
    "certificate $(handshake_ms "front certificate handshake" "udp:127.0.0.1:$front_cert?$cert") ms"
plain=$(median_run "fixture fs put" put_to udp:127.0.0.1:1337)
row "fs put 8,000 B, native_sim udp, python-mbedtls PSK" "$plain" "$(median_run "front PSK fs put" put_to "udp:127.0.0.1:$front_psk?$psk")"
