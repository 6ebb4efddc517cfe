import Foundation

/// How fs_mgmt keeps an upload open between requests (docs/file-system.md), and that `fs put`
/// never builds on what it kept: run against the real firmware and the virtual device alike.
enum FileUploadStateScenarios {
    static let all: [ConformanceScenario] = [staleOffset, putOverOpenUpload, restartSendsEverything]

    static let remote = "/lfs1/state.bin"

    /// Data bytes per raw chunk: the request stays below 150 bytes, which the stock serial
    /// configuration's two receive line buffers take in one burst (`raw` does not pace lines).
    static let chunk = 60

    /// A first chunk (offset 0, `len`) of `count` bytes of `total` as a raw `fs` upload request.
    static func firstChunk(total: Int, count: Int, fill: UInt8) -> [String] {
        let payload = RawCBOR.map([
            ("off", RawCBOR.unsigned(0)), ("len", RawCBOR.unsigned(UInt64(total))), ("name", RawCBOR.text(remote)),
            ("data", RawCBOR.bytes([UInt8](repeating: fill, count: count))),
        ])
        return ["raw", "--group", "fs", "--command", "0", "--op", "write", "--cbor", payload, "--json"]
    }

    /// The `off` of a raw answer.
    static func answeredOffset(_ run: SMPCtlInvocation) -> Int? {
        (run.lastJSONObject?["response"] as? [String: Any])?["off"] as? Int
    }

    static func offset(_ expected: Int) -> StepCheck {
        { run, _ in
            guard run.status == 0 else { return ["expected success (exit 0)"] }
            return Expect.equal(answeredOffset(run), expected, "answered off")
        }
    }

    /// Zephyr answers a second offset-0 chunk of a file it still holds open with the old offset
    /// plus the chunk (it never resets its count at offset 0); close resets it.
    static let staleOffset = ConformanceScenario(
        name: "fs upload state: offset 0 again on the open file counts on from the old offset; fs close resets it",
        area: .fileSystem, freshDevice: true,
        steps: [
            ScenarioStep(firstChunk(total: 600, count: chunk, fill: 0x41), check: offset(chunk)),
            ScenarioStep(firstChunk(total: 600, count: chunk, fill: 0x42), check: offset(2 * chunk)),
            ScenarioStep(["fs", "close", "--json"], check: Expect.success()),
            ScenarioStep(firstChunk(total: 600, count: chunk, fill: 0x43), check: offset(chunk)),
            ScenarioStep(["fs", "close", "--json"], check: Expect.success()),
        ])

    /// An upload interrupted after its first chunk leaves the file open; `fs put` of another
    /// file to the same path right after must store exactly that file.
    static let putOverOpenUpload = ConformanceScenario(
        name: "fs put over an upload the device still holds open stores exactly the new file",
        area: .fileSystem, freshDevice: true,
        steps: [
            ScenarioStep(firstChunk(total: 1500, count: chunk, fill: 0x5A), check: offset(chunk)),
            ScenarioStep(timeout: 30, { ["fs", "put", try $0.file("state-1500.bin", size: 1500).path, remote, "--json"] },
                check: Expect.success { json, _ in Expect.equal(json["resumedFrom"] is NSNull, true, "resumedFrom is null") }),
            ScenarioStep(timeout: 30, { ["fs", "get", remote, $0.scratch.appendingPathComponent("state-got.bin").path, "--json"] }) { run, context in
                Expect.success()(run, context)
                    + Expect.that(
                        (try? Data(contentsOf: context.scratch.appendingPathComponent("state-got.bin")))
                            == (try? Data(contentsOf: context.file("state-1500.bin", size: 1500))),
                        "the file read back differs from the file put")
            },
        ])
}

extension FileUploadStateScenarios {
    /// A put of a file the device already holds sends nothing (checked by hash); `--restart`
    /// sends all of it again from offset 0.
    static let restartSendsEverything = ConformanceScenario(
        name: "fs put of a file the device holds sends nothing; --restart sends it all again",
        area: .fileSystem, freshDevice: true,
        steps: [
            ScenarioStep(timeout: 30, { ["fs", "put", try $0.file("state-1200.bin", size: 1200).path, remote, "--json"] }, check: Expect.success()),
            ScenarioStep(timeout: 30, { ["fs", "put", try $0.file("state-1200.bin", size: 1200).path, remote, "--json"] },
                check: Expect.success { json, _ in
                    Expect.equal(json["resumedFrom"] as? Int, 1200, "resumedFrom")
                        + Expect.equal((json["verified"] as? [String: Any])?["match"] as? Bool, true, "verified.match")
                }),
            ScenarioStep(timeout: 30, { ["fs", "put", try $0.file("state-1200.bin", size: 1200).path, remote, "--restart", "--json"] },
                check: Expect.success { json, _ in
                    Expect.equal(json["resumedFrom"] is NSNull, true, "resumedFrom is null") + Expect.that((json["chunks"] as? Int ?? 0) >= 1, "no chunk sent")
                }),
            ScenarioStep(timeout: 30, { ["fs", "get", remote, $0.scratch.appendingPathComponent("restart-got.bin").path, "--json"] }) { run, context in
                Expect.success()(run, context)
                    + Expect.that(
                        (try? Data(contentsOf: context.scratch.appendingPathComponent("restart-got.bin")))
                            == (try? Data(contentsOf: context.file("state-1200.bin", size: 1200))),
                        "the file read back differs from the file put")
            },
        ])
}

/// Just enough CBOR, in hex, for raw requests: definite-length maps, text and byte strings,
/// unsigned integers.
enum RawCBOR {
    static func head(_ major: UInt8, _ value: UInt64) -> String {
        let type = major << 5
        switch value {
        case 0..<24: return String(format: "%02x", type | UInt8(value))
        case 24..<256: return String(format: "%02x%02x", type | 24, value)
        case 256..<65536: return String(format: "%02x%04x", type | 25, value)
        default: return String(format: "%02x%08x", type | 26, value)
        }
    }

    static func unsigned(_ value: UInt64) -> String { head(0, value) }
    static func bytes(_ value: [UInt8]) -> String { head(2, UInt64(value.count)) + value.map { String(format: "%02x", $0) }.joined() }
    static func text(_ value: String) -> String { head(3, UInt64(value.utf8.count)) + value.utf8.map { String(format: "%02x", $0) }.joined() }
    static func map(_ pairs: [(String, String)]) -> String { head(5, UInt64(pairs.count)) + pairs.map { text($0.0) + $0.1 }.joined() }
}
