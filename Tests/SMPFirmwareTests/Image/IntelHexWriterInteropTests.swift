import Foundation
import SMP
import SMPFirmware
import SMPTestSupport
import XCTest

/// The Intel HEX writer (which makes the demo's `.hex` samples) read by Python's intelhex, a
/// reader we did not write: the same addresses and bytes, a gap kept as a gap, addresses above
/// 64 KiB through extended linear address records, and the start address.
final class IntelHexWriterInteropTests: XCTestCase {
    private struct Written {
        var segments: [IntelHex.Segment]
        var startAddress: UInt32?
        var recordSize: Int
        var lineEnding: String
    }

    /// What Python's intelhex read: each contiguous range's start and bytes (hex), and the start address.
    private struct ReadByPython: Decodable {
        var starts: [UInt32]
        var bytes: [String]
        var start: UInt32?
    }

    private static let reader = """
        import json, sys
        from intelhex import IntelHex
        h = IntelHex(sys.stdin)
        segments = h.segments()
        start = (h.start_addr or {}).get("EIP")
        print(json.dumps({"starts": [s for s, _ in segments], "bytes": [h.tobinstr(start=s, end=e - 1).hex() for s, e in segments], "start": start}))
        """

    func testPythonsIntelhexReadsWhatWeWrite() throws {
        try ExternalTool.requirePythonModules(["intelhex"])
        var random = SplitMix64(seed: 0x1E7E_0008)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let cases = [
            // A demo sample: one image at 0xC000.
            Written(segments: [.init(address: 0xC000, bytes: bytes(1000))], startAddress: nil, recordSize: 16, lineEnding: "\n"),
            // A gap between two ranges below 64 KiB, CR LF line ends.
            Written(segments: [.init(address: 0, bytes: bytes(40)), .init(address: 0x1000, bytes: bytes(33))], startAddress: nil, recordSize: 16, lineEnding: "\r\n"),
            // A range across the 64 KiB boundary, ranges far above it (extended linear address
            // records), and a start address.
            Written(
                segments: [
                    .init(address: 0xFFF0, bytes: bytes(48)), .init(address: 0x2_0000, bytes: bytes(20)),
                    .init(address: 0x0801_2345, bytes: bytes(300)),
                ],
                startAddress: 0x0801_2345, recordSize: 32, lineEnding: "\n"),
            // The top of the address space, 255-byte records.
            Written(segments: [.init(address: 0xFFFF_FE00, bytes: bytes(512))], startAddress: 0x8001, recordSize: 255, lineEnding: "\n"),
        ]
        for (number, written) in cases.enumerated() {
            let text = IntelHex.text(
                segments: written.segments, startAddress: written.startAddress, recordSize: written.recordSize, lineEnding: written.lineEnding)
            let run = try ProcessRunner.run(ExternalTool.python, ["-c", Self.reader], input: String(decoding: text, as: UTF8.self), timeout: 120)
            XCTAssertEqual(run.status, 0, "case \(number): \(run.stderr)")
            guard run.status == 0 else { continue }
            let read = try JSONDecoder().decode(ReadByPython.self, from: Data(run.stdout.utf8))
            XCTAssertEqual(read.starts, written.segments.map(\.address), "case \(number)")
            XCTAssertEqual(read.bytes, written.segments.map { Hex.string($0.bytes) }, "case \(number)")
            XCTAssertEqual(read.start, written.startAddress, "case \(number)")
        }
    }
}
