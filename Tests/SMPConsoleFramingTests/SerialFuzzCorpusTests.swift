import Foundation
import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// The serial fuzzer's seeds (`Tests/Scripts/serial/fuzz-seeds.hex`) and regression corpus
/// (`fuzz-regressions/`) pass the fuzzer's checks, replayed by the normal build of `serial-fuzzer`
/// (the same checks as under libFuzzer, Sources/SerialFramingFuzzer/FramingCheck.swift).
final class SerialFuzzCorpusTests: XCTestCase {
    private let directory = ExternalTool.packageRoot.appendingPathComponent("Tests/Scripts/serial")

    private func seeds() throws -> [[UInt8]] {
        try String(contentsOf: directory.appendingPathComponent("fuzz-seeds.hex"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { Framing.bytes(hex: String($0)) }
    }

    func testSeedsAreWellFormed() throws {
        let seeds = try seeds()
        XCTAssertGreaterThanOrEqual(seeds.count, 10)
        XCTAssertEqual(seeds.first, SerialFrameEncoder().encode(Framing.echoRequest), "the first seed is docs/protocol/examples.md §21.2")
        let delivered = seeds.map { Framing.decode($0).messages.count }
        XCTAssertGreaterThan(delivered.filter { $0 > 0 }.count, seeds.count / 2, "most seeds hold a good frame")
    }

    func testReplayDriverPassesSeedsAndRegressions() throws {
        let fuzzer = try ExternalTool.builtProduct("serial-fuzzer")
        let seedDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("serial-seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: seedDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: seedDirectory) }
        let seeds = try seeds()
        for (index, seed) in seeds.enumerated() {
            try Data(seed).write(to: seedDirectory.appendingPathComponent(String(format: "seed-%03d", index)))
        }
        let regressions = directory.appendingPathComponent("fuzz-regressions").path
        let result = try ProcessRunner.run(fuzzer, [seedDirectory.path, regressions], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("inputs passed"), result.stdout)
    }
}
