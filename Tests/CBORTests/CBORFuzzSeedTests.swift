import CBOR
import Foundation
import SMPTestSupport
import XCTest

/// The fuzzer's seed files and regression corpus in `Tests/Scripts/cbor`, checked here so that
/// they cannot drift from the test vectors and every past fuzzer finding stays fixed.
final class CBORFuzzSeedTests: XCTestCase {
    private let directory = ExternalTool.packageRoot.appendingPathComponent("Tests/Scripts/cbor")

    private func hexLines(_ name: String) throws -> [String] {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    func testAppendixASeedsAreTheTestVectors() throws {
        XCTAssertEqual(try hexLines("rfc8949-appendix-a.hex"), RFC8949.allEncodings.map(\.hex))
    }

    func testAppendixFSeedsAreTheNotWellFormedExamples() throws {
        let lines = try hexLines("rfc8949-appendix-f.hex")
        XCTAssertEqual(lines, RFC8949NotWellFormedTests.exampleHexes)
        for line in lines { XCTAssertNotNil(decodingError([UInt8](hex: line)), line) }
    }

    /// The regression inputs the decoder must reject, each with its error; every other one must
    /// decode. None yet: both past findings (README.md there) are well-formed items.
    private static let expectedRejections: [String: CBORDecodingError] = [:]

    /// Every input the fuzzer ever failed on: each decodes, or fails with the error listed for it
    /// in ``expectedRejections``; what decodes must survive the fuzzer's round-trip check (the
    /// property of `Sources/CBORFuzzer`).
    func testRegressionCorpusPassesTheFuzzerCheck() throws {
        let regressions = directory.appendingPathComponent("fuzz-regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: regressions.path).sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names where !name.hasPrefix(".") && !name.hasSuffix(".md") {
            let data = try Data(contentsOf: regressions.appendingPathComponent(name))
            let item: CBOR
            do {
                item = try CBORDecoder().decode([UInt8](data))
                XCTAssertNil(Self.expectedRejections[name], "\(name) decoded to \(item)")
            } catch {
                XCTAssertEqual(error, Self.expectedRejections[name], "\(name) was rejected")
                continue
            }
            let encoded = item.encoded()
            let again = try CBORDecoder().decode(encoded)
            XCTAssertEqual(again, item, name)
            XCTAssertEqual(again.encoded(), encoded, name)
            var writer = CBORWriter(indefiniteContainers: true)
            writer.write(item)
            XCTAssertEqual(try CBORDecoder().decode(writer.bytes), item, name)
        }
    }
}
