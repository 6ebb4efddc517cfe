import CBOR
import XCTest

/// RFC 8949 Appendix A, Table 6: the indefinite-length rows.
final class RFC8949IndefiniteVectorTests: XCTestCase {
    func testDecodingGivesTheValue() throws {
        for vector in RFC8949.indefiniteVectors {
            XCTAssertEqual(try CBORDecoder().decode([UInt8](hex: vector.hex)), vector.value, vector.hex)
        }
    }

    func testDecodedItemsReencodeWithDefiniteLengths() throws {
        let definite = [
            "450102030405", "6973747265616d696e67", "80", "8301820203820405", "8301820203820405",
            "8301820203820405", "8301820203820405", "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            "a26161016162820203", "826161a161626163", "a26346756ef563416d7421",
        ]
        for (vector, expected) in zip(RFC8949.indefiniteVectors, definite) {
            let decoded = try CBORDecoder().decode([UInt8](hex: vector.hex))
            XCTAssertEqual(decoded.encoded(), [UInt8](hex: expected), vector.hex)
        }
    }

    func testDiagnosticNotationShowsTheJoinedItem() throws {
        // The model does not keep chunking or indefinite lengths, so the notation is that of the
        // equal definite-length item: the RFC's text without the underscores and chunk splits.
        for vector in RFC8949.indefiniteVectors {
            let decoded = try CBORDecoder().decode([UInt8](hex: vector.hex))
            let withoutMarkers = vector.rfcDiagnostic.replacingOccurrences(of: "_ ", with: "")
            switch vector.value {
            case .bytes, .text:
                XCTAssertEqual(decoded.diagnosticDescription, vector.value.diagnosticDescription)
            default:
                XCTAssertEqual(decoded.diagnosticDescription, withoutMarkers, vector.hex)
            }
        }
        XCTAssertEqual(try CBORDecoder().decode([UInt8](hex: "5f42010243030405ff")).diagnosticDescription, "h'0102030405'")
        XCTAssertEqual(try CBORDecoder().decode([UInt8](hex: "7f657374726561646d696e67ff")).diagnosticDescription, "\"streaming\"")
    }

    /// Each row written with the writer's indefinite-length helpers, byte for byte.
    func testWriterProducesTheIdenticalBytes() {
        let builders: [(hex: String, build: (inout CBORWriter) -> Void)] = [
            ("5f42010243030405ff", { $0.writeIndefiniteBytes([[0x01, 0x02], [0x03, 0x04, 0x05]]) }),
            ("7f657374726561646d696e67ff", { $0.writeIndefiniteText(["strea", "ming"]) }),
            ("9fff", { w in
                w.beginIndefiniteArray()
                w.writeBreak()
            }),
            ("9f018202039f0405ffff", { w in
                w.beginIndefiniteArray()
                w.write(1)
                w.write([2, 3])
                w.beginIndefiniteArray()
                w.write(4)
                w.write(5)
                w.writeBreak()
                w.writeBreak()
            }),
            ("9f01820203820405ff", { w in
                w.beginIndefiniteArray()
                w.write(1)
                w.write([2, 3])
                w.write([4, 5])
                w.writeBreak()
            }),
            ("83018202039f0405ff", { w in
                w.writeHead(major: 4, argument: 3)
                w.write(1)
                w.write([2, 3])
                w.beginIndefiniteArray()
                w.write(4)
                w.write(5)
                w.writeBreak()
            }),
            ("83019f0203ff820405", { w in
                w.writeHead(major: 4, argument: 3)
                w.write(1)
                w.beginIndefiniteArray()
                w.write(2)
                w.write(3)
                w.writeBreak()
                w.write([4, 5])
            }),
            ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", { w in
                w.indefiniteContainers = true
                w.write(.array((1...25).map { CBOR.int(Int64($0)) }))
            }),
            ("bf61610161629f0203ffff", { w in
                w.indefiniteContainers = true
                w.write(["a": 1, "b": [2, 3]])
            }),
            ("826161bf61626163ff", { w in
                w.writeHead(major: 4, argument: 2)
                w.write("a")
                w.indefiniteContainers = true
                w.write(["b": "c"])
            }),
            ("bf6346756ef563416d7421ff", { w in
                w.indefiniteContainers = true
                w.write(["Fun": true, "Amt": -2])
            }),
        ]
        XCTAssertEqual(builders.map(\.hex), RFC8949.indefiniteVectors.map(\.hex))
        for (hex, build) in builders {
            var writer = CBORWriter()
            build(&writer)
            XCTAssertEqual(writer.bytes.hex, hex)
        }
    }

    func testIndefiniteContainersOptionNestsIndefiniteLengths() {
        var writer = CBORWriter(indefiniteContainers: true)
        writer.write([1, [2, 3], [4, 5]])
        XCTAssertEqual(writer.bytes.hex, "9f019f0203ff9f0405ffff")
        var mapWriter = CBORWriter(indefiniteContainers: true)
        mapWriter.write(["a": [:], "b": .tagged(1, [])])
        XCTAssertEqual(mapWriter.bytes.hex, "bf6161bfff6162c19fffff")
    }

    func testEmptyAndManyChunkStrings() throws {
        var writer = CBORWriter()
        writer.writeIndefiniteBytes([])
        writer.writeIndefiniteText([])
        writer.writeIndefiniteText(["", "\u{00fc}", "", "\u{10151}"])
        XCTAssertEqual(writer.bytes.hex, "5fff" + "7fff" + "7f6062c3bc6064f0908591ff")
        let decoded = try CBORDecoder(allowTrailingBytes: true).decodePrefix(writer.bytes)
        XCTAssertEqual(decoded.item, .bytes([]))
        XCTAssertEqual(decoded.consumed, 2)
        XCTAssertEqual(try CBORDecoder().decode(Array(writer.bytes[4...])), "\u{00fc}\u{10151}")
    }
}
