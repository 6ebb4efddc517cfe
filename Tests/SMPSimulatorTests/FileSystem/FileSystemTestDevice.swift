import CBOR
import SMP
import SMPSimulator
import XCTest

/// A device with the file system group, and helpers to talk to it frame by frame.
struct FileSystemTestDevice {
    let device: VirtualDevice

    init(
        _ fileSystem: SimulatedFileSystemConfiguration = SimulatedFileSystemConfiguration(), flavour: SMPServerFlavour = .zephyr,
        bufferSize: Int = 2048, uptime: ManualUptime? = nil
    ) {
        let configuration = VirtualDeviceConfiguration(bufferSize: bufferSize, flavour: flavour, fileSystem: fileSystem)
        device = VirtualDevice(configuration: configuration, uptime: uptime?.source)
    }

    /// The answer to one file system request.
    func send(_ operation: SMPOperation, _ command: UInt8, _ payload: CBORMap = [:], file: StaticString = #filePath, line: UInt = #line)
        async throws -> CBORMap
    {
        try await device.respond(to: TestFrames.request(operation, group: .fileSystem, command: command, payload: payload), file: file, line: line)
            .payload
    }

    /// Download's answer at `offset`.
    func read(_ name: String, at offset: Int) async throws -> CBORMap {
        try await send(.read, 0, ["off": .integer(offset), "name": .text(name)])
    }

    /// Upload's answer to one chunk.
    func write(_ name: String, at offset: Int, _ data: [UInt8], length: Int? = nil) async throws -> CBORMap {
        var payload: CBORMap = ["off": .integer(offset), "data": .bytes(data), "name": .text(name)]
        if let length { payload["len"] = .integer(length) }
        return try await send(.write, 0, payload)
    }

    /// Uploads `bytes` in chunks of `chunk`; returns the last answer.
    func upload(_ name: String, _ bytes: [UInt8], chunk: Int = 100) async throws -> CBORMap {
        var offset = 0
        var answer = try await write(name, at: 0, Array(bytes.prefix(chunk)), length: bytes.count)
        offset = min(chunk, bytes.count)
        while offset < bytes.count {
            answer = try await write(name, at: offset, Array(bytes[offset..<min(bytes.count, offset + chunk)]))
            guard answer["off"]?.intValue == min(bytes.count, offset + chunk) else { return answer }
            offset += chunk
        }
        return answer
    }

    /// The file system group's state.
    func group() async throws -> FileSystemGroup {
        let group = await device.group(.fileSystem)
        return try XCTUnwrap(group as? FileSystemGroup)
    }

    /// The file system group error (`err.rc`) of an answer, or nil.
    static func errorCode(_ answer: CBORMap) -> Int64? { answer["err"]?["rc"]?.int64Value }

    /// `count` bytes of a recognisable pattern.
    static func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + Int(seed)) }
    }
}
