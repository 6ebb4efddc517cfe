#!/usr/bin/env bash
# MCUboot serial recovery on the QEMU fixtures (mps2_an385 `serial_recovery`: console framing;
# `serial_recovery_raw`: MCUboot's raw protocol), smpctl against smpmgr 0.19.1 in the same run:
#
#   - the link ceiling of the recovery (Benchmarks/recovery_ceiling.py: 915-byte requests the
#     recovery rejects at once, one at a time);
#   - `smpctl image upload app-2.0.0.bin` in recovery (132,476 bytes, imgtool as the fixtures'
#     README says), wall and upload phase (JSON `seconds`), goodput and goodput ÷ ceiling;
#   - `smpmgr --port PTY image upload` through socat's pty (console framing only: smpmgr has no
#     raw framing);
#   - a whole recovery upgrade: `smpctl upgrade app-2.0.0.bin` in recovery (upload, reset, the
#     application answers with the new version), and smpmgr's nearest: image upload, os reset,
#     then `smpmgr os echo` until the application answers.
#
# QEMU runs under Tests/Scripts/qemu/persistent_flash.py (its memory survives resets, as a board's
# flash does; the UART is relayed on one TCP port), so that the upgrade's final check sees the
# version the recovery wrote. The upgrades install 3.0.0 (smpctl) and 4.0.0 (smpmgr), which no
# slot holds yet.
#
# The device is reset into the recovery with `smpctl os reset --boot-mode bootloader` before each
# run. Figures of one run each (they take 5–80 s); the machine's load moves them: compare tools
# from the same run.
#
#   SMPCTL_PYTHON=/path/to/python Benchmarks/run-recovery.sh      (release build)
#   SMPCTL_BENCH_BUILD=none SMPCTL_BENCH_BIN=DIR …                 (smpctl already built in DIR)
#   Benchmarks/run-recovery.sh --smoke                             (docs/benchmarks.md, "Smoke mode")
#
# In smoke mode each step runs once, on the console recovery only: the link ceiling, smpctl's image
# upload, smpmgr's (of an 8 KiB image: it takes 40 s for the application) and smpctl's upgrade;
# smpmgr's upgrade sequence (40 s) is left out, and so is the raw recovery, which
# ZephyrConformanceTests exercise (its upload once failed here: the device dropped requests written
# whole, docs/serial.md "Raw messages over TCP"). Any failed step fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/find-python.sh
. Benchmarks/support.sh
smpmgr=$(peer_tool smpmgr)
find_fixtures
bench_binaries smpctl
smpctl="$bin/smpctl"

start_work

manifest() { manifest_field "$2" "$1" mps2_an385; }  # manifest CONFIG FIELD

qemu= port= connection=
qemu_start() {  # qemu_start CONFIG: the application answers an echo
    local command
    port=$(free_port)
    command=$(manifest "$1" qemu_cmd)
    # (the supervisor serves $port and gives QEMU its own)
    # Under persistent_flash.py, as in the tests: QEMU's loader would put the original image back
    # into slot 0 at every reset, so the upgrade's final check could never see the new version.
    mkdir -p "$work/memory"
    # shellcheck disable=SC2086 # the manifest's command line is split into its words
    (cd "$fixtures" && exec "$python" "$OLDPWD/Tests/Scripts/qemu/persistent_flash.py" --port "$port" --scratch "$work/memory" \
        --region 0x0:0x400000 --region 0x20000000:0x400000 -- $command) >"$work/qemu.log" 2>&1 &
    qemu=$!
    started+=("$qemu")
    connection="serial:tcp://127.0.0.1:$port"
    [[ $1 == *raw ]] && connection="$connection?framing=raw"
    for _ in $(seq 60); do
        timeout 5 "$smpctl" os echo ready --timeout 1 --retries 0 -c "$connection" >/dev/null 2>&1 && return
        sleep 0.5
    done
    fail "$1 does not answer an echo"
}
qemu_stop() { kill "$qemu" 2>/dev/null || true; wait "$qemu" 2>/dev/null || true; qemu=; }
# in_recovery: the device answers its parameters with buf_count 1 (MCUboot's serial recovery); an
# answer without bufferCount ends the script.
in_recovery() {
    local answer count
    answer=$(timeout 5 "$smpctl" os params --json --timeout 1 --retries 0 -c "$connection" 2>/dev/null) || return 1
    count=$(json_field bufferCount <<<"$answer") || fail "os params --json: no bufferCount in $answer"
    [ "$count" = 1 ]
}
# to_recovery: resets the application into MCUboot's serial recovery and waits until it answers
# its parameters (buf_count 1); a device already in the recovery is left there.
to_recovery() {
    if in_recovery; then return; fi
    timeout 10 "$smpctl" os reset --boot-mode bootloader -c "$connection" >/dev/null
    for _ in $(seq 40); do
        in_recovery && return
        sleep 0.25
    done
    fail "no serial recovery after the reset"
}

# image CONFIG OUT VERSION: an application of that version for the fixture (the fixtures' README).
image() {
    "$python" - "$fixtures/$(manifest "$1" artifact | sed 's/\.hex$/.signed.bin/')" "$work/app.bin" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
size = struct.unpack("<I", data[12:16])[0]
open(sys.argv[2], "wb").write(data[0x200:0x200 + size])
PY
    "$python" -m imgtool.main sign --version "$3" --header-size 0x200 --pad-header --align 4 --slot-size 0x80000 \
        --load-addr 0x20240000 "$work/app.bin" "$2" >/dev/null
}

smpmgr_pty() {  # a pty for smpmgr, bridged to the fixture's socket
    socat "pty,link=$work/tty,raw,echo=0" "tcp:127.0.0.1:$port" &
    socat_pid=$!
    started+=("$socat_pid")
    for _ in $(seq 50); do [ -e "$work/tty" ] && break; sleep 0.1; done
}
smpmgr_pty_stop() { kill "$socat_pid" 2>/dev/null || true; wait "$socat_pid" 2>/dev/null || true; sleep 0.5; }

configs=(serial_recovery serial_recovery_raw)
[ -z "$smoke" ] || configs=(serial_recovery)
for config in "${configs[@]}"; do
    echo "$config…" >&2
    image "$config" "$work/$config.bin" 2.0.0
    peer_image="$work/$config.bin"
    if [ -n "$smoke" ]; then peer_image="$work/small-2.0.0.bin"; small_image "$peer_image"; fi
    # The upgrades install versions no slot holds yet, so that each one uploads.
    image "$config" "$work/$config-3.bin" 3.0.0
    [ -n "$smoke" ] || image "$config" "$work/$config-4.bin" 4.0.0
    qemu_start "$config"
    to_recovery
    framing=console; [[ $config == *raw ]] && framing=raw
    "$python" Benchmarks/recovery_ceiling.py "$port" "$framing" "$(sized 8 1)" >"$work/$config.ceiling"
    echo "$config ceiling $(cat "$work/$config.ceiling")" >>"$work/links"
    # smpctl image upload, twice (the recovery stays; each upload starts over).
    uploads=$(sized 2 1)
    for _ in $(seq "$uploads"); do
        to_recovery
        start=$(now)
        if timeout 300 "$smpctl" image upload "$work/$config.bin" --json -c "$connection" >"$work/out.json" 2>"$work/err"; then
            wall=$(since "$start")
            seconds=$(json_field seconds "$work/out.json")
            record "$config" upload smpctl "$wall" "$seconds"
        else
            echo "$config smpctl upload failed: $(tail -2 "$work/err")" | tee -a "$work/failures" >&2
        fi
    done
    if [ "$framing" = console ]; then
        to_recovery
        smpmgr_pty
        start=$(now)
        if timeout 600 "$smpmgr" --port "$work/tty" image upload "$peer_image" >"$work/mgr.log" 2>&1; then
            record "$config" upload smpmgr "$(since "$start")"
        else
            echo "$config smpmgr upload failed: $(tr '\r' '\n' <"$work/mgr.log" | grep -v '^ *$' | tail -1 | cut -c1-200)" | tee -a "$work/failures" >&2
        fi
        smpmgr_pty_stop
    fi
    # A whole recovery upgrade: smpctl upgrade (upload, reset, the new version runs).
    to_recovery
    start=$(now)
    if timeout 300 "$smpctl" upgrade "$work/$config-3.bin" --json -c "$connection" >"$work/upgrade.json" 2>"$work/err"; then
        record "$config" upgrade smpctl "$(since "$start")"
    else
        echo "$config smpctl upgrade failed: $(grep -v '"progress"' "$work/err" | tail -2 | cut -c1-300)" | tee -a "$work/failures" >&2
    fi
    if [ "$framing" = console ] && [ -z "$smoke" ]; then
        # smpmgr's nearest: upload, os reset, os echo until the application answers.
        to_recovery
        smpmgr_pty
        start=$(now)
        ok=0
        if timeout 600 "$smpmgr" --port "$work/tty" image upload "$work/$config-4.bin" >"$work/mgr.log" 2>&1 \
            && timeout 30 "$smpmgr" --port "$work/tty" os reset >>"$work/mgr.log" 2>&1; then
            for _ in $(seq 60); do
                if timeout 10 "$smpmgr" --port "$work/tty" os echo up >>"$work/mgr.log" 2>&1; then ok=1; break; fi
            done
        fi
        if [ $ok = 1 ]; then record "$config" upgrade smpmgr "$(since "$start")"
        else echo "$config smpmgr upgrade sequence failed: $(tr '\r' '\n' <"$work/mgr.log" | grep -v '^ *$' | tail -1 | cut -c1-200)" | tee -a "$work/failures" >&2
        fi
        smpmgr_pty_stop
    fi
    qemu_stop
done

echo
echo "MCUboot serial recovery (QEMU mps2_an385), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%RZ)"
touch "$work/failures"
"$python" - "$results" "$work/links" "$work/failures" "$(stat -c %s "$work/serial_recovery.bin")" <<'PY'
import json, os, statistics, sys
size = int(sys.argv[4])
figures = open(os.environ.get("SMPCTL_BENCH_FIGURES") or os.devnull, "a")
rows = {}
for line in open(sys.argv[1]):
    config, what, tool, wall, *phase = line.split()
    rows.setdefault((config, what, tool), []).append((float(wall), float(phase[0]) if phase else None))
ceilings = {}
for line in open(sys.argv[2]):
    config, _, rest = line.split(" ", 2)
    ceilings[config] = json.loads(rest)
print(f"{'fixture':<22}{'operation':<10}{'tool':<8}{'runs':>5}{'wall s':>9}{'phase s':>9}{'kB/s':>8}{'÷ ceiling':>11}")
medians = {}
for (config, what, tool), samples in rows.items():
    wall = statistics.median(s[0] for s in samples)
    phases = [s[1] for s in samples if s[1] is not None]
    phase = statistics.median(phases) if phases else None
    medians[(config, what, tool)] = wall
    timed = phase or wall
    rate = size / timed
    share = rate / ceilings[config]["bytesPerSecond"] if what == "upload" else None
    print(f"{config} {what}, {tool}, wall\t{wall}", file=figures)
    if share is not None:
        print(f"{config} {what}, {tool}, share of ceiling\t{share}", file=figures)
    print(f"{config:<22}{what:<10}{tool:<8}{len(samples):>5}{wall:>9.2f}{'' if phase is None else f'{phase:9.2f}':>9}"
          f"{rate / 1000:>8.1f}{'' if share is None else f'{share:11.2f}':>11}")
print()
for config, ceiling in ceilings.items():
    print(f"{config}: link ceiling {ceiling['bytesPerSecond']:.0f} B/s ({ceiling['framing']} requests of {ceiling['bytes']} bytes, "
          f"one at a time; segments {ceiling['segments']}): the image alone would take {size / ceiling['bytesPerSecond']:.1f} s")
for (config, what, tool), wall in medians.items():
    if tool == "smpmgr" and (config, what, "smpctl") in medians:
        print(f"{config} {what}: smpmgr ÷ smpctl (wall) {wall / medians[(config, what, 'smpctl')]:.1f}x")
for line in open(sys.argv[3]):
    print("failed:", line.strip())
PY
[ ! -s "$work/failures" ] || [ "$SMPCTL_BENCH_STRICT" = 0 ] || fail "$(wc -l <"$work/failures") step(s) failed (see above)"
