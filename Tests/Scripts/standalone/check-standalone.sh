#!/usr/bin/env bash
# Proves that the package graph is as light as declared: the `SMP` product and a UDP-only
# program (Examples/UDPEcho: products SMP and SMPUDP) build, link and run without the system
# libraries of the other transports: libudev (serial port discovery) and libdbus (Bluetooth)
# (OpenSSL, which SMPUDP uses for DTLS, stays).
#
#   Tests/Scripts/standalone/check-standalone.sh
#
# 0. Every target's declared dependencies match its imports (check-dependencies.py): nothing
#    declared and unused, nothing reached only through another target.
# 1. In a user and mount namespace (`unshare -rm`, no root needed), every file of the packages
#    libudev-dev and libdbus-1-dev (as `dpkg -L` lists them) is hidden: headers become a header
#    that stops with #error, libraries and pkg-config files become /dev/null; PKG_CONFIG_LIBDIR
#    points at an empty folder. There, `swift build --product P` must succeed for SMP,
#    udp-echo-example, SMPSerial (the serial transport needs no libudev: discovery is apart) and
#    SMPSimulator (no serial transport), in their own scratch folder (.build/standalone, or
#    $SMPCTL_STANDALONE_SCRATCH) where this project's modules are rebuilt every run (the
#    dependencies' builds are kept). .ci/test runs it before the full build with the usual .build
#    as the scratch folder, so that nothing is compiled twice.
# 2. Each verbose build log must show the product's own modules compiled, and no CUdev or CDBus
#    module, no SMPSerialDiscovery or SMPBluetooth, no -ludev or -ldbus-1 (and, but for SMPSerial,
#    no serial transport); `ldd` of the example lists neither library.
# 3. The example sends `os echo` to `smpctl simulate` (built in the usual .build) on a loopback
#    UDP port and must print the text back.
#
# Without user namespaces the hiding is impossible: locally the script says so and goes on with
# the log and ldd checks only; with CI=true that is a failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
scratch="${SMPCTL_STANDALONE_SCRATCH:-$root/.build/standalone}"
logs="$scratch/logs"

fail() { echo "check-standalone: FAIL: $*" >&2; exit 1; }

products=(SMP udp-echo-example SMPSerial SMPSimulator)
own_modules=(JSON CBOR SMP SMPUDP UDPEchoExample DescriptorIO SMPConsoleFraming SMPSerial SMPSimulator)
# The modules each build must compile (proof that the check looked at something).
declare -A compiles=(
    [SMP]="JSON CBOR SMP" [udp-echo-example]="DescriptorIO SMPUDP UDPEchoExample"
    [SMPSerial]="SMPConsoleFraming SMPSerial" [SMPSimulator]="SMPSimulator"
)

# The build, run inside the namespace (or without it, see above).
build_standalone() {
    local empty
    empty="$(mktemp -d)"
    # OpenSSL (DTLS in SMPUDP) stays visible: the UDP transport needs it.
    local openssl_pc
    openssl_pc="$(pkg-config --variable pcfiledir openssl)" || fail "pkg-config does not find openssl (install libssl-dev)"
    ln -s "$openssl_pc"/openssl.pc "$openssl_pc"/libssl.pc "$openssl_pc"/libcrypto.pc "$empty"/
    export PKG_CONFIG_LIBDIR="$empty" PKG_CONFIG_PATH=""
    if pkg-config --exists libudev 2>/dev/null || pkg-config --exists dbus-1 2>/dev/null; then
        fail "pkg-config still finds libudev or dbus-1"
    fi
    # This project's modules are rebuilt every run, so that the logs show how they are built.
    local module product
    for module in "${own_modules[@]}"; do
        rm -rf "$scratch"/*/debug/"$module".build "$scratch"/*/debug/Modules/"$module".swiftmodule
    done
    rm -f "$scratch"/*/debug/udp-echo-example
    mkdir -p "$logs"
    for product in "${products[@]}"; do
        echo "==> swift build --product $product"
        swift build --scratch-path "$scratch" --product "$product" -v >"$logs/$product.log" 2>&1 \
            || { tail -40 "$logs/$product.log" >&2; fail "swift build --product $product failed (log: $logs/$product.log)"; }
    done
    rm -rf "$empty"
}

# Every file of the two -dev packages replaced by something unusable, then the build.
hidden_build() {
    local poison
    poison="$(mktemp -d)"
    printf '#error "hidden by check-standalone.sh: this build must not need libudev-dev or libdbus-1-dev"\n' >"$poison/hidden.h"
    local package file count=0
    for package in libudev-dev libdbus-1-dev; do
        dpkg -s "$package" >/dev/null 2>&1 || { echo "    ($package is not installed: nothing to hide)"; continue; }
        while IFS= read -r file; do
            [[ -f "$file" ]] || continue
            case "$file" in
                /usr/share/*) continue ;;
                *.h) mount --bind "$poison/hidden.h" "$file" ;;
                *) mount --bind /dev/null "$file" ;;
            esac
            count=$((count + 1))
        done < <(dpkg -L "$package")
    done
    echo "    hid $count files of libudev-dev and libdbus-1-dev"
    local header
    for header in /usr/include/libudev.h /usr/include/dbus-1.0/dbus/dbus.h; do
        if [[ -e "$header" ]] && ! grep -q 'hidden by check-standalone' "$header"; then
            fail "$header is still usable inside the namespace"
        fi
    done
    build_standalone
}

if [[ "${1:-}" != "--inside" ]]; then
    echo "==> declared dependencies against the imports"
    swift package dump-package 2>/dev/null | python3 "$root/Tests/Scripts/standalone/check-dependencies.py"
fi

if [[ "${1:-}" == "--inside" ]]; then
    hidden_build
    exit 0
fi

echo "==> building ${products[*]} without libudev-dev and libdbus-1-dev"
if unshare -rm true 2>/dev/null; then
    SMPCTL_STANDALONE_SCRATCH="$scratch" unshare -rm bash "${BASH_SOURCE[0]}" --inside
else
    # CI as ExternalTool.meansCI reads it: any value but empty, false and 0.
    ci="$(tr -d '[:space:]' <<<"${CI:-}" | tr '[:upper:]' '[:lower:]')"
    [[ -n "$ci" && "$ci" != false && "$ci" != 0 ]] && fail "unshare -rm (user namespaces) is not available, so the libraries cannot be hidden"
    echo "    (unshare -rm is not available here: the libraries stay visible; only the log and ldd checks follow)"
    build_standalone
fi

echo "==> the build logs"
# SwiftPM asks pkg-config about every system library target while planning (its "you may be able
# to install" warnings are expected); the commands it then runs must not touch them.
for product in "${products[@]}"; do
    log="$logs/$product.log"
    forbidden='Sources/(CUdev|CDBus)|-module-name (SMPSerialDiscovery|SMPBluetooth|SMPKit) |-ludev|-ldbus-1|libudev\.so|libdbus-1\.(so|a)'
    [[ "$product" == SMPSerial ]] || forbidden="$forbidden|-module-name SMPSerial "
    if grep -vE '^(warning: |    apt-get )' "$log" | grep -nE "$forbidden" >&2; then
        fail "the build of $product compiles or links what it must not (lines above; log: $log)"
    fi
    for module in ${compiles[$product]}; do
        grep -q -- "-module-name $module " "$log" || fail "the build of $product shows no compilation of $module: the check proves nothing"
    done
done
echo "    ${products[*]}: no CUdev/CDBus module compiled, no -ludev/-ldbus-1 linked; the simulator without the serial transport"

example="$(swift build --scratch-path "$scratch" --show-bin-path)/udp-echo-example"
[[ -x "$example" ]] || fail "$example was not built"
if ldd "$example" | grep -E 'libudev|libdbus' >&2; then fail "the example links libudev or libdbus"; fi
echo "    ldd $example: neither libudev nor libdbus"

echo "==> the example against smpctl simulate"
swift build --product smpctl >"$logs/smpctl.log" 2>&1 || { tail -40 "$logs/smpctl.log" >&2; fail "building smpctl failed"; }
smpctl="$(swift build --show-bin-path)/smpctl"
out="$(mktemp)"
"$smpctl" simulate --udp 127.0.0.1:0 --json >"$out" 2>&1 &
simulator=$!
trap 'kill "$simulator" 2>/dev/null || true; rm -f "$out"' EXIT
port=""
for _ in $(seq 1 100); do
    port="$(grep -oE '"port" *: *[0-9]+' "$out" | grep -oE '[0-9]+$' || true)"
    [[ -n "$port" ]] && break
    kill -0 "$simulator" 2>/dev/null || { cat "$out" >&2; fail "smpctl simulate ended before listening"; }
    sleep 0.1
done
[[ -n "$port" ]] || { cat "$out" >&2; fail "smpctl simulate did not say its port within 10 s"; }
reply="$("$example" 127.0.0.1 "$port" "standalone check")" || fail "udp-echo-example failed"
[[ "$reply" == "standalone check" ]] || fail "udp-echo-example answered '$reply', not 'standalone check'"
echo "    udp-echo-example 127.0.0.1 $port 'standalone check' → $reply"
echo "check-standalone: OK"
