import CBOR
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// A SUIT device, envelopes built as the IETF SUIT draft and NCS shape them, and frame helpers.
struct SUITTestDevice {
    let device: VirtualDevice

    /// A SUIT device whose resets take effect at once; `uptime` controls its clock.
    init(suit: SimulatedSUITConfiguration = SimulatedSUITConfiguration(), uptime: ManualUptime? = nil) {
        var configuration = VirtualDeviceConfiguration(resetDelay: .zero)
        configuration.makeSUITDevice(suit)
        device = VirtualDevice(configuration: configuration, uptime: uptime?.source)
    }

    /// An envelope with `sequence` asking for `uris` (``SUITTestEnvelope``); `damaged` spoils the digest.
    static func envelope(sequence: UInt64, uris: [String] = [], damaged: Bool = false) -> (bytes: [UInt8], digest: [UInt8]) {
        SUITTestEnvelope.make(sequence: sequence, uris: uris, damaged: damaged)
    }

    /// The answer to one SUIT request.
    func send(_ operation: SMPOperation, _ command: UInt8, _ payload: CBORMap = [:], file: StaticString = #filePath, line: UInt = #line)
        async throws -> CBORMap
    {
        try await device.respond(to: TestFrames.request(operation, group: .suit, command: command, payload: payload), file: file, line: line)
            .payload
    }

    /// Uploads `bytes` with `command` in chunks of `chunk` bytes, `extra` in every chunk and
    /// `first` in the first; returns the last answer.
    func upload(
        _ bytes: [UInt8], command: UInt8, extra: CBORMap = [:], first: CBORMap = [:], chunk: Int = 50,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> CBORMap {
        var offset = 0
        var answer: CBORMap = [:]
        while offset < bytes.count {
            var payload = extra
            if offset == 0 {
                payload["len"] = .integer(bytes.count)
                for entry in first { payload.append(key: entry.key, value: entry.value) }
            }
            payload["off"] = .integer(offset)
            payload["data"] = .bytes(Array(bytes[offset..<min(bytes.count, offset + chunk)]))
            answer = try await send(.write, command, payload, file: file, line: line)
            guard answer["rc"] == 0, let next = answer["off"]?.intValue, next > offset else { return answer }
            offset = next
        }
        return answer
    }

    /// The SUIT group's state (a due reset takes effect first).
    func group() async throws -> SUITGroup {
        let group = await device.group(.suit)
        return try XCTUnwrap(group as? SUITGroup)
    }
}
