import SMP
import SMPBluetooth
import XCTest

/// Splitting messages into MTU − 3 writes and joining notifications by the SMP header's length.
final class BLEFragmentationTests: XCTestCase {
    private func message(payloadLength: Int, sequence: UInt8 = 0) -> [UInt8] {
        let header = SMPHeader(operation: .readResponse, length: UInt16(payloadLength), group: .os, sequence: sequence, command: 0)
        return header.bytes + (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 &+ Int(sequence)) }
    }

    func testFragmentsAreAtMostThePayloadSizeAndKeepTheBytes() {
        let whole = message(payloadLength: 600)
        for mtu in [23, 247, 498] {
            let fragments = BLEFragmentation.fragments(of: whole, payloadSize: BLEFragmentation.payloadSize(mtu: mtu))
            XCTAssertTrue(fragments.allSatisfy { $0.count <= mtu - 3 && !$0.isEmpty }, "MTU \(mtu)")
            XCTAssertEqual(fragments.count, (whole.count + mtu - 4) / (mtu - 3), "MTU \(mtu)")
            XCTAssertEqual(Array(fragments.joined()), whole, "MTU \(mtu)")
        }
    }

    func testAMessageThatFitsIsOneFragment() {
        let whole = message(payloadLength: 12)
        XCTAssertEqual(BLEFragmentation.fragments(of: whole, payloadSize: 244).map(Array.init), [whole])
    }

    func testReassemblyAcrossNotificationsOfAnySize() {
        let first = message(payloadLength: 300, sequence: 1)
        let second = message(payloadLength: 0, sequence: 2)
        let stream = first + second
        for size in [1, 7, 8, 20, 244, 1000] {
            var reassembler = SMPReassembler()
            var messages: [[UInt8]] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                messages += reassembler.append(stream[start..<min(start + size, stream.count)])
            }
            XCTAssertEqual(messages, [first, second], "notifications of \(size) bytes")
            XCTAssertEqual(reassembler.pendingByteCount, 0)
        }
    }

    func testJunkThatCannotStartAHeaderIsDropped() {
        var reassembler = SMPReassembler()
        XCTAssertEqual(reassembler.append([0xFF, 0x00, 0x00]), [])
        XCTAssertEqual(reassembler.discardedByteCount, 3)
        let whole = message(payloadLength: 5)
        XCTAssertEqual(reassembler.append(whole), [whole])
    }

    func testResetForgetsAPartialMessage() {
        var reassembler = SMPReassembler()
        let whole = message(payloadLength: 40)
        _ = reassembler.append(whole.prefix(20))
        reassembler.reset()
        XCTAssertEqual(reassembler.append(whole), [whole])
    }
}
