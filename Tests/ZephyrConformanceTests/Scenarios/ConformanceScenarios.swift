import Crypto
import Foundation
import SMPTestSupport

/// THE scenario list: every test class (one per fixture, and the virtual device configured like a
/// fixture) runs the scenarios of its areas that apply to its fixture.
enum ConformanceScenarios {
    static let all: [ConformanceScenario] =
        os + reset + limits + statistics + settings + fileSystem + fileSystemEdges + shell + enumeration + zephyrBasic + image + recovery

    /// The scenarios one test method runs.
    static func of(_ area: ConformanceArea, for fixture: ZephyrFixture, onVirtualDevice: Bool) -> [ConformanceScenario] {
        all.filter { $0.area == area && $0.applies(fixture) && (!onVirtualDevice || $0.onVirtualDevice) }
    }

    /// The largest SMP message the link carries: buf_size, and on UDP at most one unfragmented
    /// datagram (smpctl's link limit: 1472 bytes over IPv4, 1452 over IPv6).
    static func messageLimit(_ fixture: ZephyrFixture) -> Int {
        guard fixture.transport == "udp" else { return fixture.bufSize }
        return min(fixture.bufSize, fixture.ipFamily == "ipv6" ? 1452 : 1472)
    }

    /// The longest echo text whose request fills the message limit (header and CBOR around it take 14–16 bytes).
    static func fillingEcho(_ context: ScenarioContext) -> String { String(repeating: "x", count: messageLimit(context.fixture) - 20) }

    // MARK: os

    static let os: [ConformanceScenario] = [
        ConformanceScenario(
            name: "os echo, short", area: .os,
            steps: [ScenarioStep(["os", "echo", "hello", "--json"], check: Expect.echo("hello"))]),
        ConformanceScenario(
            name: "os echo filling buf_size (buf_size − 20 characters), within 5 s", area: .os,
            steps: [
                ScenarioStep({ ["os", "echo", fillingEcho($0), "--json"] }) { run, context in
                    Expect.success { json, context in Expect.equal(json["echo"] as? String, fillingEcho(context), "echo") }(run, context)
                        // A lost multi-line request must not cost three full timeouts.
                        + Expect.that(run.seconds <= 5, String(format: "the echo took %.1f s (at most 5 s)", run.seconds))
                }
            ]),
        ConformanceScenario(
            name: "os params: the manifest's buf_size and buf_count", area: .os, applies: { $0.config != "serial_noparams" },
            steps: [
                ScenarioStep(["os", "params", "--json"], check: Expect.success { json, context in
                    Expect.equal(json["bufferSize"] as? Int, context.fixture.bufSize, "bufferSize")
                        + Expect.equal(json["bufferCount"] as? Int, context.fixture.bufCount, "bufferCount")
                })
            ]),
        ConformanceScenario(
            name: "os info", area: .os, applies: { $0.bufSize >= answersFit },
            steps: [
                ScenarioStep(["os", "info", "--json"], check: Expect.success { json, context in
                    let output = json["output"] as? String ?? ""
                    return Expect.that(!output.isEmpty, "os info printed no output")
                        + Expect.that(context.isVirtual || output.contains("Zephyr"), "os info does not name Zephyr: \(output)")
                })
            ]),
        ConformanceScenario(
            name: "os taskstat", area: .os, applies: { $0.bufSize >= answersFit },
            steps: [
                ScenarioStep(["os", "taskstat", "--json"], check: Expect.success { json, _ in
                    Expect.that(!((json["tasks"] as? [Any]) ?? []).isEmpty, "no tasks listed")
                })
            ]),
        ConformanceScenario(
            name: "os info and taskstat on a tiny buffer: the device's EMSGSIZE, named, exit 2", area: .os,
            applies: { $0.bufSize < answersFit },
            steps: [
                ScenarioStep(["os", "info", "--json"], check: Expect.deviceError("MGMT_ERR_EMSGSIZE")),
                ScenarioStep(["os", "taskstat", "--json"], check: Expect.deviceError("MGMT_ERR_EMSGSIZE")),
            ]),
    ]

    /// The smallest buffer the answers of os info and taskstat fit in (serial_buf96 answers EMSGSIZE).
    static let answersFit = 256

    // MARK: reset

    static let reset: [ConformanceScenario] = [
        ConformanceScenario(
            name: "os reset, the device comes back, echo again", area: .reset,
            steps: [
                ScenarioStep(["os", "echo", "before-reset", "--json"], check: Expect.echo("before-reset")),
                ScenarioStep(resetsDevice: true, ["os", "reset", "--json"], check: Expect.success()),
                ScenarioStep(["os", "echo", "after-reset", "--json"], check: Expect.echo("after-reset")),
            ]),
        ConformanceScenario(
            name: "a file written before a reset is there after it", area: .reset, applies: { $0.offers("fs") }, freshDevice: true,
            steps: [
                ScenarioStep({ ["fs", "put", try $0.file("kept.bin", size: 300).path, "/lfs1/kept.bin", "--json"] }, check: Expect.success()),
                ScenarioStep(resetsDevice: true, ["os", "reset", "--json"], check: Expect.success()),
                ScenarioStep(["fs", "stat", "/lfs1/kept.bin", "--json"], check: Expect.success { json, _ in
                    Expect.equal(json["size"] as? Int, 300, "size")
                }),
            ]),
    ]

    // MARK: limits

    static let limits: [ConformanceScenario] = [
        ConformanceScenario(
            name: "os echo 200 bytes above buf_size (or the UDP link limit) is refused before it is sent", area: .limits,
            steps: [
                ScenarioStep(timeout: 20, { ["os", "echo", String(repeating: "x", count: messageLimit($0.fixture) + 200), "--json"] },
                    check: Expect.refusedBeforeSending(within: 5) { messageLimit($0.fixture) })
            ]),
        ConformanceScenario(
            name: "os echo of 1500 bytes is refused before it is sent", area: .limits, applies: { $0.bufSize < 1400 },
            steps: [
                ScenarioStep(timeout: 20, ["os", "echo", String(repeating: "y", count: 1500), "--json"],
                    check: Expect.refusedBeforeSending(within: 5) { messageLimit($0.fixture) })
            ]),
    ]

    // MARK: statistics

    static let statistics: [ConformanceScenario] = [
        ConformanceScenario(
            name: "stat list, then stat show of one group", area: .statistics,
            steps: [
                ScenarioStep(["stat", "list", "--json"], check: Expect.success { json, context in
                    let groups = json["groups"] as? [String] ?? []
                    return Expect.that(!groups.isEmpty, "no statistics groups")
                        + Expect.that(context.isVirtual || groups.contains("smp_svr_stats"), "smp_svr_stats is not listed: \(groups)")
                }),
                ScenarioStep({ ["stat", "show", firstStatGroup($0), "--json"] }) { run, context in
                    Expect.success { json, context in
                        let shown = (json["groups"] as? [[String: Any]])?.first
                        return Expect.equal(shown?["name"] as? String, firstStatGroup(context), "group name")
                            + Expect.that(!((shown?["fields"] as? [String: Any]) ?? [:]).isEmpty, "no counters shown")
                    }(run, context)
                },
            ]),
        ConformanceScenario(
            name: "stat all prints every group it got and names each that failed", area: .statistics,
            steps: [
                ScenarioStep(["stat", "list", "--json"], check: Expect.success()),
                ScenarioStep(["stat", "all", "--json"]) { run, context in
                    let groups = context.previousJSON?["groups"] as? [String] ?? []
                    var problems = groups.filter { !run.stdout.contains($0) && !run.stderr.contains($0) }
                        .map { "stat all neither printed nor named \($0)" }
                    if run.status == 75 || run.timedOut { problems.append("stat all timed out") }
                    if run.status != 0 && run.stdout.isEmpty { problems.append("stat all failed and printed nothing it got") }
                    // A group too large for the device's buffer is a note, and exit 0 (docs/exit-codes.md, "Partial results").
                    let failures = run.stderr.split(separator: "\n").filter { !$0.hasPrefix("note: ") }
                    if run.status == 0 && !failures.isEmpty { problems.append("stat all reported failures but exited 0") }
                    return problems
                },
            ]),
    ]

    /// The group to show: the sample's own `smp_svr_stats` on real firmware (the flash simulator's
    /// groups do not fit a 384-byte buffer), else the first group `stat list` listed.
    static func firstStatGroup(_ context: ScenarioContext) -> String {
        if !context.isVirtual { return "smp_svr_stats" }
        return (context.previous.first?.lastJSONObject?["groups"] as? [String])?.first ?? "smp_svr_stats"
    }

    // MARK: settings

    /// The fixtures register no settings handler: writes and reads of any name are refused by root key.
    static let settings: [ConformanceScenario] = [
        ConformanceScenario(
            name: "settings write/read/delete of a name without a handler: typed device errors", area: .settings,
            onVirtualDevice: false,
            steps: [
                ScenarioStep(["settings", "write", "conformance/value", "hello", "--as", "string", "--json"],
                    check: Expect.deviceError("SETTINGS_MGMT_ERR_ROOT_KEY_NOT_FOUND")),
                ScenarioStep(["settings", "read", "conformance/value", "--json"], check: Expect.deviceError("SETTINGS_MGMT_ERR_ROOT_KEY_NOT_FOUND")),
                ScenarioStep(["settings", "delete", "conformance/value", "--json"], check: Expect.deviceError("SETTINGS_MGMT_ERR_KEY_NOT_FOUND")),
            ]),
    ]

    // MARK: file system

    static let fileSystem: [ConformanceScenario] = [
        fileRoundTrip(name: "a file of buf_size bytes", size: { $0.fixture.bufSize }),
        // Many buffers, and no more than one block of the fixtures' 16 KiB LittleFS (4 blocks:
        // 2 of metadata, 2 of data). 8000 bytes, which fill both data blocks, failed in 2 of 6
        // runs of the serial fixture on a busy machine ("No more free space" after an upload
        // restarted from 0, "writing the file failed" at 6246 bytes), most likely because
        // LittleFS's copy-on-write then finds no spare block; not proven.
        fileRoundTrip(name: "a 4000-byte file (many buffers)", size: { _ in 4000 }),
    ] + FileUploadStateScenarios.all

    /// fs put with default options, stat, sha256 hash and fs get of one file, compared byte by byte.
    static func fileRoundTrip(name: String, size: @escaping @Sendable (ScenarioContext) -> Int) -> ConformanceScenario {
        let remote = "/lfs1/conformance.bin"
        @Sendable func local(_ context: ScenarioContext) throws -> URL { try context.file("put-\(size(context)).bin", size: size(context)) }
        return ConformanceScenario(
            name: "fs put/stat/hash/get of \(name), default options", area: .fileSystem, freshDevice: true,
            steps: [
                ScenarioStep(timeout: 30, { ["fs", "put", try local($0).path, remote, "--json"] }, check: Expect.success { json, context in
                    Expect.equal(json["event"] as? String, "done", "last event") + Expect.equal(json["size"] as? Int, size(context), "size")
                }),
                ScenarioStep(["fs", "stat", remote, "--json"], check: Expect.success { json, context in
                    Expect.equal(json["size"] as? Int, size(context), "size on the device")
                }),
                ScenarioStep(["fs", "hash", remote, "--type", "sha256", "--json"], check: Expect.success { json, context in
                    let data = (try? Data(contentsOf: local(context))) ?? Data()
                    let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
                    return Expect.equal(json["hash"] as? String, digest, "sha256")
                }),
                ScenarioStep(timeout: 30, { ["fs", "get", remote, $0.scratch.appendingPathComponent("got.bin").path, "--json"] }) { run, context in
                    Expect.success()(run, context)
                        + Expect.that(
                            (try? Data(contentsOf: context.scratch.appendingPathComponent("got.bin"))) == (try? Data(contentsOf: local(context))),
                            "the file read back differs from the file written")
                },
            ])
    }

    // MARK: shell

    static let shell: [ConformanceScenario] = [
        ConformanceScenario(
            name: "shell exec kernel uptime", area: .shell,
            steps: [
                ScenarioStep(["shell", "exec", "--json", "--", "kernel", "uptime"], check: Expect.success { json, context in
                    let output = json["output"] as? String ?? ""
                    return Expect.equal(json["returnCode"] as? Int, 0, "returnCode")
                        + Expect.that(output.hasPrefix("Uptime: "), "the plain output does not start with the uptime: \(output.prefix(200))")
                })
            ]),
        ConformanceScenario(
            name: "shell exec output: sent with CR LF and colours, plain into a pipe, --raw as sent", area: .shell,
            steps: [
                ScenarioStep(["shell", "exec", "--raw", "--", "nosuch"], check: { run, _ in
                    Expect.equal(run.status, 248, "exit status")
                        + Expect.equal(run.stdout, "\r\n\u{1B}[1;31mnosuch: command not found\r\n\u{1B}[m\n", "raw output")
                }),
                ScenarioStep(["shell", "exec", "--", "nosuch"], check: { run, _ in
                    Expect.equal(run.status, 248, "exit status") + Expect.equal(run.stdout, "nosuch: command not found\n", "plain output")
                }),
            ]),
    ]

    // MARK: enumeration

    static let enumeration: [ConformanceScenario] = [
        ConformanceScenario(
            name: "enum list names the manifest's groups, enum count agrees", area: .enumeration,
            steps: [
                ScenarioStep(["enum", "list", "--json"], check: Expect.success { json, context in
                    let listed = Set(json["groups"] as? [Int] ?? [])
                    let expected = Set(context.fixture.firmwareGroups.compactMap { manifestGroupIDs[$0] })
                    return Expect.that(expected.isSubset(of: listed), "enum list \(listed.sorted()) lacks \(expected.subtracting(listed).sorted())")
                }),
                ScenarioStep(["enum", "count", "--json"], check: Expect.success { json, context in
                    Expect.equal(json["count"] as? Int, (context.previousJSON?["groups"] as? [Int])?.count ?? -1, "count")
                }),
            ]),
    ]

    // MARK: Zephyr basic

    static let zephyrBasic: [ConformanceScenario] = [
        ConformanceScenario(
            name: "zephyr erase-storage", area: .zephyrBasic,
            steps: [
                ScenarioStep(["zephyr", "erase-storage", "--yes", "--json"], check: Expect.success { json, _ in
                    Expect.equal(json["erased"] as? Bool, true, "erased")
                })
            ]),
    ]

    // MARK: image

    static let image: [ConformanceScenario] = [
        ConformanceScenario(
            name: "image list shows the running image", area: .image,
            steps: [ScenarioStep(["image", "list", "--json"], check: Expect.success { json, _ in imageListProblems(json) })]),
        ConformanceScenario(
            name: "image upload of a signed 2.0.0 application to the running app", area: .image,
            applies: { $0.target == "mps2_an385" },
            steps: [
                ScenarioStep(timeout: imageUploadGuard, { ["image", "upload", try signedImage($0).path, "--json"] }, check: Expect.success()),
                ScenarioStep(["image", "list", "--json"], check: Expect.success { json, _ in
                    let images = json["images"] as? [[String: Any]] ?? []
                    return Expect.that(images.contains { $0["version"] as? String == "2.0.0" }, "no 2.0.0 image listed: \(json)")
                }),
            ]),
        // Issue 13, items 6 and 7: img_mgmt lists the SHA-256 TLV it reads from the slot, so a
        // slot holding other bytes behind the same TLV reports the file's hash; MCUboot refuses
        // it at boot. smpctl refuses to send such a file unless forced.
        ConformanceScenario(
            name: "image upload refuses a damaged image; forced, its slot reports the TLV hash and MCUboot refuses it at boot",
            area: .image, applies: { $0.target == "mps2_an385" },
            steps: [
                ScenarioStep({ ["image", "upload", try damagedImage($0).path, "--json"] }, check: Expect.dataError("image hash mismatch")),
                ScenarioStep(timeout: imageUploadGuard, { ["image", "upload", try damagedImage($0).path, "--force", "--json"] }, check: Expect.success()),
                ScenarioStep(["image", "list", "--json"], check: Expect.success { json, context in
                    let tlv = context.previousJSON?["imageHash"] as? String
                    let slot1 = (json["images"] as? [[String: Any]] ?? []).first { ($0["slot"] as? Int) == 1 }
                    return Expect.that(tlv != nil, "the forced upload named no image hash") + Expect.equal(slot1?["imageHash"] as? String, tlv ?? "", "slot 1 hash")
                }),
                ScenarioStep(resetsDevice: true, ["os", "reset", "--json"], check: Expect.success()),
                ScenarioStep(["image", "list", "--json"], check: Expect.success { json, _ in
                    let images = json["images"] as? [[String: Any]] ?? []
                    return Expect.that(!images.contains { $0["version"] as? String == "2.0.0" }, "MCUboot kept the damaged 2.0.0 image: \(json)")
                }),
            ]),
    ]

    /// The signed 2.0.0 image with one byte of its body changed: its SHA-256 TLV no longer matches.
    static func damagedImage(_ context: ScenarioContext) throws -> URL {
        let url = context.scratch.appendingPathComponent("damaged-2.0.0.bin")
        if !FileManager.default.fileExists(atPath: url.path) {
            var bytes = [UInt8](try Data(contentsOf: try signedImage(context)))
            bytes[bytes.count / 2] ^= 0xFF
            try Data(bytes).write(to: url)
        }
        return url
    }

    static func imageListProblems(_ json: [String: Any]) -> [String] {
        let images = json["images"] as? [[String: Any]] ?? []
        return Expect.that(!images.isEmpty, "no images listed")
            + Expect.that(
                images.contains { ($0["slot"] as? Int) == 0 && !(($0["version"] as? String) ?? "").isEmpty }, "no image in slot 0 with a version")
    }

    /// How long an upload of the 132 KB signed image may take before the step is stopped as hung.
    /// 15 s when the guest keeps up; on a loaded machine QEMU's UART loses bytes, and the slowest
    /// pacing smpctl falls back to (4 bytes every 2776 µs) needs 92 s, so the guard is twice that.
    static let imageUploadGuard: TimeInterval = 190

    static func signedImage(_ context: ScenarioContext) throws -> URL {
        try SignedTestImage.make(for: context.fixture, in: context.fixtures, version: "2.0.0", scratch: context.scratch)
    }

    // MARK: MCUboot serial recovery

    static let recovery: [ConformanceScenario] = [
        ConformanceScenario(
            name: "MCUboot serial recovery: params, image upload with aligned acknowledgements, back to the application",
            area: .recovery, applies: { $0.serialRecovery == true },
            steps: [
                ScenarioStep(resetsDevice: true, ["os", "reset", "--boot-mode", "bootloader", "--json"], check: Expect.success()),
                ScenarioStep(["os", "params", "--json"], check: Expect.success { json, context in
                    Expect.equal(json["bufferSize"] as? Int, context.fixture.recoveryBufSize ?? -1, "recovery bufSize")
                        + Expect.equal(json["bufferCount"] as? Int, context.fixture.recoveryBufCount ?? -1, "recovery bufCount")
                }),
                // MCUboot writes whole flash units and acknowledges less than each chunk carried.
                ScenarioStep(timeout: imageUploadGuard, { ["image", "upload", try signedImage($0).path, "--json"] }, check: Expect.success { json, _ in
                    Expect.that((json["learnedAlignment"] as? Int ?? 0) >= 2, "no write unit learned from MCUboot's answers: \(json)")
                }),
                // The bootloader wrote the image to slot 0 (QEMU's loader puts the original back on
                // the next reset, so the new image is checked here, before it).
                ScenarioStep(["image", "list", "--json"], check: Expect.success { json, _ in
                    let slot0 = (json["images"] as? [[String: Any]] ?? []).first { ($0["slot"] as? Int) == 0 }
                    return Expect.equal(slot0?["version"] as? String, "2.0.0", "version in slot 0 after the recovery upload")
                }),
                ScenarioStep(resetsDevice: true, ["os", "reset", "--json"], check: Expect.success()),
                ScenarioStep(["os", "params", "--json"], check: Expect.success { json, context in
                    Expect.equal(json["bufferSize"] as? Int, context.fixture.bufSize, "the application's bufSize after leaving recovery")
                }),
            ]),
    ]
}
