import Foundation
import SMPTestSupport
import XCTest

/// The firmware fuzzers' seeds (`Tests/Scripts/{image,package,suit,hex}/fuzz-seeds`, real files
/// made by imgtool, zipfile, cbor2 and intelhex) and regression corpora pass the fuzzers' checks,
/// replayed by the normal builds of `image-fuzzer`, `package-fuzzer`, `suit-fuzzer` and
/// `intel-hex-fuzzer` (the same checks as under libFuzzer).
final class FirmwareFuzzCorpusTests: XCTestCase {
    private func replay(_ product: String, folder: String, minimumSeeds: Int) throws {
        let directory = ExternalTool.packageRoot.appendingPathComponent("Tests/Scripts/\(folder)")
        let seeds = directory.appendingPathComponent("fuzz-seeds").path
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds)
        XCTAssertGreaterThanOrEqual(names.count, minimumSeeds, "seeds in \(seeds)")
        let fuzzer = try ExternalTool.builtProduct(product)
        let regressions = directory.appendingPathComponent("fuzz-regressions").path
        let result = try ProcessRunner.run(fuzzer, [seeds, regressions], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("inputs passed"), result.stdout)
    }

    func testImageSeedsAndRegressionsPass() throws {
        try replay("image-fuzzer", folder: "image", minimumSeeds: 15)
    }

    func testPackageSeedsAndRegressionsPass() throws {
        try replay("package-fuzzer", folder: "package", minimumSeeds: 5)
    }

    func testSUITSeedsAndRegressionsPass() throws {
        try replay("suit-fuzzer", folder: "suit", minimumSeeds: 3)
    }

    func testIntelHexSeedsAndRegressionsPass() throws {
        try replay("intel-hex-fuzzer", folder: "hex", minimumSeeds: 6)
    }

    /// The replay reports an input it cannot read instead of passing it by (exit 2).
    func testReplayFailsOnAMissingInput() throws {
        let fuzzer = try ExternalTool.builtProduct("image-fuzzer")
        let result = try ProcessRunner.run(fuzzer, ["/nonexistent/input"], timeout: 60)
        XCTAssertEqual(result.status, 2, result.stderr)
    }
}
