import CBOR
import Foundation
import SMP
import SMPSimulator
import XCTest

/// Builds request frames and reads response frames for the device tests.
enum TestFrames {
    /// One request message; `versionBits` may be 2 or 3 to test rejection.
    static func request(
        _ operation: SMPOperation, group: SMPGroup = .os, command: UInt8, sequence: UInt8 = 7, versionBits: UInt8 = 1,
        payload: CBORMap = [:]
    ) -> [UInt8] {
        var header = SMPHeader(operation: operation, length: 0, group: group, sequence: sequence, command: command)
        header.versionBits = versionBits
        return SMPMessage(header: header, payload: payload).encoded()
    }

    /// One request message with a raw payload and a raw first header byte.
    static func raw(byte0: UInt8, group: UInt16 = 0, command: UInt8, sequence: UInt8 = 7, payload: [UInt8]) -> [UInt8] {
        [byte0, 0, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF), UInt8(group >> 8), UInt8(group & 0xFF), sequence, command]
            + payload
    }

    /// Parses a response that must be one whole message.
    static func decode(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> SMPMessage {
        do {
            return try SMPMessage(decoding: bytes)
        } catch {
            XCTFail("response does not decode: \(error): \(Hex.string(bytes, separator: " "))", file: file, line: line)
            throw error
        }
    }

    /// The bytes of a hex string (spaces allowed).
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
}

/// A device clock the test moves by hand.
final class ManualUptime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Duration = .zero

    var now: Duration {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func advance(by duration: Duration) {
        lock.lock()
        value += duration
        lock.unlock()
    }

    var source: @Sendable () -> Duration { { [self] in now } }
}

extension VirtualDevice {
    /// The single response to a frame holding one request.
    func respond(to frame: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> SMPMessage {
        let responses = handle(frame: frame)
        XCTAssertEqual(responses.count, 1, "expected exactly one response", file: file, line: line)
        guard let first = responses.first else { throw TestFailure("no response") }
        return try TestFrames.decode(first, file: file, line: line)
    }

    /// The raw payload bytes of the single response to a frame holding one request.
    func payloadBytes(of frame: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let responses = handle(frame: frame)
        XCTAssertEqual(responses.count, 1, "expected exactly one response", file: file, line: line)
        guard let first = responses.first, first.count >= SMPHeader.size else { throw TestFailure("no response") }
        return Array(first.dropFirst(SMPHeader.size))
    }
}

/// A test step that cannot go on (the assertion that explains it has already failed).
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
