import CBOR
import Foundation
import SMPTestSupport
import XCTest

/// Cross-checks the codec against Python's cbor2 in both directions, through
/// `Tests/Scripts/cbor/cbor2_crosscheck.py` (see ``ExternalTool/python`` for how Python is found).
final class CBORCrossCheckTests: XCTestCase {
    private var script: CrossCheckScript!

    override func setUpWithError() throws {
        script = try CrossCheckScript("cbor/cbor2_crosscheck.py")
    }

    /// Runs the script in one mode; returns the lines of its output file.
    private func runScript(_ mode: String, _ arguments: [String], input: [String]? = nil) throws -> [String] {
        try script.run(mode, arguments, input: input)
    }

    /// Swift encodes, cbor2 decodes: every item, with definite and with indefinite lengths, and
    /// with chunked strings, reads back in cbor2 as the same item.
    func testCbor2DecodesWhatSwiftEncodes() throws {
        try ExternalTool.requirePythonModules(["cbor2"])
        var random = RandomCBOR(seed: 0xC0FFEE, profile: .cbor2)
        var items = (0..<2_000).map { _ in random.item() }
        // Appendix A rows without tags (cbor2 turns tags 0–3 into Python objects).
        items += RFC8949.shortestFormVectors.map(\.value).filter { !$0.plainNotation.contains("g") }

        var encodings: [(bytes: [UInt8], item: CBOR)] = []
        for item in items {
            encodings.append((item.encoded(), item))
            var indefinite = CBORWriter(indefiniteContainers: true)
            indefinite.write(item)
            encodings.append((indefinite.bytes, item))
            var chunked = CBORWriter()
            switch item {
            case .bytes(let b):
                chunked.writeIndefiniteBytes([Array(b.prefix(3)), [], Array(b.dropFirst(3))])
                encodings.append((chunked.bytes, item))
            case .text(let s):
                chunked.writeIndefiniteText(s.unicodeScalars.map { String($0) })
                encodings.append((chunked.bytes, item))
            default:
                break
            }
        }

        let decoded = try runScript("decode", [], input: encodings.map(\.bytes.hex))
        XCTAssertEqual(decoded.count, encodings.count)
        var failures = 0
        for (line, encoding) in zip(decoded, encodings) where line != encoding.item.plainNotation {
            failures += 1
            if failures <= 10 {
                XCTFail("cbor2 read \(encoding.bytes.hex.prefix(200)) as \(line.prefix(300)), expected \(encoding.item.plainNotation.prefix(300))")
            }
        }
        XCTAssertEqual(failures, 0, "of \(encodings.count) encodings")
        XCTAssertGreaterThan(encodings.count, 4_000)
    }

    /// cbor2 encodes (its own seeded random items, with its default and canonical options and
    /// indefinite containers), Swift decodes to the same item and re-encodes, cbor2 decodes the
    /// re-encoding to an equal item. Where cbor2 wrote the canonical (shortest) form, the Swift
    /// re-encoding is byte for byte the same.
    func testSwiftDecodesWhatCbor2EncodesAndCbor2AcceptsTheReencoding() throws {
        try ExternalTool.requirePythonModules(["cbor2"])
        let generated = try runScript("generate", ["20251121", "3000"])
        XCTAssertEqual(generated.count, 3_000)

        var verifyLines: [String] = []
        var canonical = 0
        var indefinite = 0
        for (index, line) in generated.enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else {
                XCTFail("bad line \(index): \(line.prefix(200))")
                continue
            }
            let bytes = [UInt8](hex: fields[0])
            let item: CBOR
            do {
                item = try CBORDecoder().decode(bytes)
            } catch {
                XCTFail("Swift rejects cbor2's \(fields[0].prefix(200)): \(error)")
                continue
            }
            XCTAssertEqual(item.plainNotation, fields[1], "item \(index): \(fields[0].prefix(200))")
            let reencoded = item.encoded()
            if fields[2] == "1" {
                canonical += 1
                XCTAssertEqual(reencoded.hex, fields[0], "item \(index): canonical cbor2 bytes differ")
            }
            if bytes.first == 0x9F || bytes.first == 0xBF { indefinite += 1 }
            var writer = CBORWriter(indefiniteContainers: true)
            writer.write(item)
            verifyLines.append(fields[0] + "\t" + reencoded.hex)
            verifyLines.append(fields[0] + "\t" + writer.bytes.hex)
        }
        XCTAssertGreaterThan(canonical, 1_000)
        XCTAssertGreaterThan(indefinite, 50, "cbor2 wrote indefinite-length containers")

        let verdicts = try runScript("verify", [], input: verifyLines)
        XCTAssertEqual(verdicts.count, verifyLines.count)
        let mismatches = verdicts.filter { $0 != "OK" }
        for mismatch in mismatches.prefix(10) { XCTFail(String(mismatch.prefix(500))) }
        XCTAssertEqual(mismatches.count, 0, "of \(verdicts.count) re-encodings")
    }
}
