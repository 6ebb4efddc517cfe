#!/usr/bin/env bash
# 1 MiB image upload benchmark against the virtual device: smpctl (one chunk in flight, and the
# default window buf_count − 1 = 3) next to smpmgr 0.19.1 in the same run, over UDP loopback, over
# an unpaced pseudo-terminal and over a pseudo-terminal paced like a 1 Mbaud UART; the paced
# goodput as a share of the wire ceiling; the peak memory (max RSS) of `smpctl image upload`.
#
# The image is a real MCUboot image made by imgtool (1 MiB exactly: 0x200 header, body, 40-byte
# TLV area). Every smpctl run uses --restart; smpmgr's uploads always start at offset 0 (the
# device forgets a finished upload). Each figure is the median of REPEATS runs (default 3; the
# paced serial runs, ~16 s each, run REPEATS times for smpctl's default window and once otherwise).
# Over serial smpctl sends 380-byte messages unless told the device's buffer (`?mtu=2044`); one paced
# run with that shows what the larger messages gain.
#
# "upload" is the upload phase: for smpctl the `seconds` of its JSON result (from the first chunk
# to the last answer); smpmgr prints no timing, so for it the same loop is timed in Python
# (Benchmarks/smpclient_upload.py: SMPClient.upload of smpclient 7.3.0, which `smpmgr image
# upload` runs, on the transport smpmgr builds from the same options, without its progress bar).
# "wall" is the whole process: `smpctl image upload` and `smpmgr image upload`.
#
#   Benchmarks/run-upload.sh [--smoke]    (after .ci/setup --tests; builds release binaries; smoke: 32 KiB, once)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
smpmgr=$(peer_tool smpmgr)
repeats="${REPEATS:-$(sized 3 1)}"
baud=1000000
size=$(sized 1048576 32768)

bench_binaries smpctl smpctl-bench

start_work
sim=

# A 1 MiB image: the body fills what the 0x200 header and the SHA-256 TLV area (4 + 36 bytes) leave.
image="$work/image.bin"
"$python" -c "import random, sys; sys.stdout.buffer.write(random.Random(1).randbytes($size - 0x200 - 40))" >"$work/app.bin"
"$python" -m imgtool.main sign --version 1.2.3 --header-size 0x200 --pad-header --align 4 --slot-size 0x120000 \
    "$work/app.bin" "$image" >/dev/null
[ "$(stat -c %s "$image")" = "$size" ] || fail "imgtool made $(stat -c %s "$image") bytes, not $size"

# Starts the virtual device (1 image, 1.125 MiB slots, buf_size 2048, buf_count 4) with the given
# transport options; sets $sim and prints its JSON announcement.
start_device() {
    "$bin/smpctl" simulate --images 1 --slot-size 1179648 --buf-size 2048 --buf-count 4 --json "$@" >"$work/sim.json" 2>&1 &
    sim=$!
    started+=("$sim")
    wait_for "$work/sim.json" listening
}
stop_device() { kill "$sim"; wait "$sim" 2>/dev/null || true; sim=; }

# record LINK TOOL WINDOW WALL_NS [UPLOAD_SECONDS]: one measurement. (record, in support.sh)

# smpctl_upload LINK CONNECTION WINDOW(default|N): one upload, recorded.
smpctl_upload() {
    local link=$1 connection=$2 window=$3 start end seconds
    local options=(image upload "$image" --restart -c "$connection" --json)
    case $window in default | mtu2044) ;; *) options+=(--window "$window") ;; esac
    start=$(date +%s%N)
    "$bin/smpctl" "${options[@]}" >"$work/out.json" || fail "smpctl ${options[*]} failed"
    end=$(date +%s%N)
    [ "$(json_field match "$work/out.json")" = True ] || fail "smpctl ${options[*]}: the image does not match: $(tail -1 "$work/out.json")"
    seconds=$(json_field seconds "$work/out.json")
    record "$link" smpctl "$window" $((end - start)) "$seconds"
}

# forget CONNECTION: erase the device's upload slot, so that smpmgr's next upload of the same file
# is a real one (a device with IMG_ENABLE_IMAGE_CHECK, like ours, answers a first chunk whose sha
# the slot already holds with "off = len, match" and no transfer).
forget() { "$bin/smpctl" image erase --yes -c "$1" >/dev/null; }

# smpmgr_run LINK ARGUMENTS…: one `smpmgr … image upload`, recorded with its wall time.
smpmgr_run() {
    local link=$1 start end
    shift
    start=$(date +%s%N)
    "$smpmgr" "$@" image upload "$image" >"$work/smpmgr.out" 2>&1 || { echo "smpmgr $* failed:" >&2; cat "$work/smpmgr.out" >&2; exit 1; }
    end=$(date +%s%N)
    record "$link" smpmgr 1 $((end - start))
}

# smpclient_upload LINK ARGUMENTS…: the upload phase of smpmgr (smpclient's loop), recorded.
smpclient_upload() {
    local link=$1 seconds
    shift
    seconds=$("$python" Benchmarks/smpclient_upload.py "$1" "$image" "${@:2}" | json_field seconds)
    record "$link" smpclient 1 0 "$seconds"
}

# peak_rss LINK CONNECTION: max RSS (KiB) of one `smpctl image upload` with the default window.
peak_rss() {
    /usr/bin/time -f %M -o "$work/rss" "$bin/smpctl" image upload "$image" --restart -c "$2" --json >/dev/null
    record "$1" smpctl-rss default 0 "$(cat "$work/rss")"
}

# 1. UDP loopback and the unpaced pseudo-terminal, on one device. smpmgr can only use UDP port 1337.
free_1337=0
if udp_1337_free; then free_1337=1337; else not_measured "UDP port 1337 is busy: smpmgr, fixed to it, is not measured over UDP"; fi
start_device --udp "127.0.0.1:$free_1337" --serial-link "$work/tty"
udp="udp:127.0.0.1:$(json_field port "$work/sim.json")"
pty=$(json_field pty "$work/sim.json")
for _ in $(seq "$repeats"); do
    smpctl_upload udp "$udp" 1
    smpctl_upload udp "$udp" default
    if [ "$free_1337" = 1337 ]; then
        forget "$udp"
        smpmgr_run udp --ip 127.0.0.1
        forget "$udp"
        smpclient_upload udp udp
    fi
    smpctl_upload pty "serial:$pty" 1
    smpctl_upload pty "serial:$pty" default
done
# smpmgr over a pseudo-terminal takes ~12 ms a request; with its default frames (2 lines of 128
# bytes: ~170-byte chunks) 1 MiB takes 75 s, so it gets the device's whole 2048-byte buffer
# (16 lines of 128), as smpctl sizes its messages from buf_size, and runs once.
smpmgr_serial=(--baudrate "$baud" --line-length 128 --line-buffers 16)
forget "serial:$pty"
smpmgr_run pty --port "$pty" "${smpmgr_serial[@]}"
forget "serial:$pty"
smpclient_upload pty serial "$pty" "$baud" 128 16
peak_rss udp "$udp"
peak_rss pty "serial:$pty"
# The ceilings of smpctl's default serial messages (buf_size − 4, from the device's parameters)
# and with an explicit ?mtu=2044 (the same here). One chunk in flight: the same chunks, and none
# sent twice.
ceiling=$("$bin/smpctl-bench" upload-ceiling "$image" "serial:$pty?baud=$baud" "$baud" 1)
ceiling_2044=$("$bin/smpctl-bench" upload-ceiling "$image" "serial:$pty?baud=$baud&mtu=2044" "$baud" 1)
stop_device

# 2. The pseudo-terminal paced at 1 Mbaud.
start_device --serial-link "$work/tty" --baud "$baud"
pty=$(json_field pty "$work/sim.json")
for _ in $(seq "$repeats"); do smpctl_upload paced "serial:$pty?baud=$baud" default; done
smpctl_upload paced "serial:$pty?baud=$baud" 1
smpctl_upload paced "serial:$pty?baud=$baud&mtu=2044" mtu2044
forget "serial:$pty?baud=$baud"
smpmgr_run paced --port "$pty" "${smpmgr_serial[@]}"
forget "serial:$pty?baud=$baud"
smpclient_upload paced serial "$pty" "$baud" 128 16
stop_device

echo "$((size / 1024)) KiB MCUboot image upload to the virtual device (buf_size 2048, buf_count 4), $(nproc) cores, median of $repeats"
"$python" - "$results" "$ceiling" "$ceiling_2044" "$size" "$baud" <<'PY'
import json, os, statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
ceilings = {"default": json.loads(sys.argv[2]), "mtu2044": json.loads(sys.argv[3])}
size, baud = int(sys.argv[4]), int(sys.argv[5])
MiB = 1 << 20

def median(link, tool, window, column):
    values = [float(r[column]) for r in rows if r[:3] == [link, tool, window]]
    return statistics.median(values) if values else None

def rates(link, tool, window):
    """(upload-phase MiB/s, whole-process MiB/s, runs) for one tool on one link."""
    wall = median(link, tool, window, 3)
    if wall is None:
        return None
    wall /= 1e9
    upload = median(link, "smpclient" if tool == "smpmgr" else tool, window, 4)
    runs = sum(1 for r in rows if r[:3] == [link, tool, window])
    return size / upload / MiB, size / wall / MiB, runs

names = {"udp": "UDP loopback", "pty": "pty, unpaced", "paced": f"pty, paced at {baud} baud"}
print(f"{'link':<29}{'tool':<34}{'upload MiB/s':>13}{'wall MiB/s':>12}{'runs':>6}")
table = {}
for link in ("udp", "pty", "paced"):
    for tool, window, label in (("smpctl", "1", "smpctl --window 1"), ("smpctl", "default", "smpctl (window 3)"),
                                ("smpctl", "mtu2044", "smpctl (window 3, mtu=2044)"), ("smpmgr", "1", "smpmgr 0.19.1 (smpclient 7.3.0)")):
        r = rates(link, tool, window)
        if r is None:
            continue
        table[(link, label)] = r
        print(f"upload {link}, {label}, upload MiB/s\t{r[0]}\nupload {link}, {label}, wall MiB/s\t{r[1]}", file=figures)
        print(f"{names[link]:<29}{label:<34}{r[0]:>13.3f}{r[1]:>12.3f}{r[2]:>6}")
for link in ("udp", "pty", "paced"):
    peer = table.get((link, "smpmgr 0.19.1 (smpclient 7.3.0)"))
    if peer is None:
        print(f"{names[link]}: smpmgr not measured (UDP port 1337 was busy)")
        continue
    ours, single = table[(link, "smpctl (window 3)")], table[(link, "smpctl --window 1")]
    print(f"{names[link]}: smpctl/smpmgr {ours[0] / peer[0]:.1f}x upload phase ({ours[1] / peer[1]:.1f}x wall); "
          f"window 1 {single[0] / peer[0]:.1f}x")
for name, ceiling in ceilings.items():
    print(f"wire ceiling at {baud} baud ({name}): {ceiling['ceiling'] / MiB:.4f} MiB/s ({ceiling['ceiling']:.0f} B/s): "
          f"{ceiling['requests']} requests of at most {ceiling['maximumMessage']} bytes carry {size} image bytes in "
          f"{ceiling['wireBytes']} wire bytes ({ceiling['imageShareOfWire'] * 100:.1f}%)")
for label, name in (("smpctl (window 3)", "default"), ("smpctl --window 1", "default"),
                    ("smpctl (window 3, mtu=2044)", "mtu2044"), ("smpmgr 0.19.1 (smpclient 7.3.0)", "default")):
    r, c = table.get(("paced", label)), ceilings[name]["ceiling"]
    if r:
        print(f"upload paced, {label}, share of wire ceiling\t{r[0] * MiB / c}", file=figures)
        print(f"paced {label}: {r[0] * MiB / c * 100:.1f}% of the {name} wire ceiling (upload phase), "
              f"{r[1] * MiB / c * 100:.1f}% wall")
for link in ("udp", "pty"):
    kib = median(link, "smpctl-rss", "default", 4)
    print(f"upload {link}, smpctl, peak MiB\t{kib / 1024}", file=figures)
    print(f"peak memory (max RSS) of smpctl image upload over {names[link]}: {kib / 1024:.1f} MiB")
PY
