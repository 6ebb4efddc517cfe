import CBOR
import SMP
import SMPSimulator
import XCTest

/// A device with the image group, and helpers to talk to it frame by frame.
struct ImageTestDevice {
    let device: VirtualDevice

    /// A device whose resets take effect at once unless `resetDelay` and `bootTime` say
    /// otherwise; `uptime` controls its clock.
    init(
        mode: MCUbootMode = .swapUsingMove, images: SimulatedImageConfiguration = SimulatedImageConfiguration(slotSize: 4096),
        resetDelay: Duration = .zero, bootTime: Duration = .zero, uptime: ManualUptime? = nil, deviceFaults: [DeviceFault] = []
    ) {
        let configuration = VirtualDeviceConfiguration(bootloaderMode: mode, resetDelay: resetDelay, bootTime: bootTime, images: images)
        device = VirtualDevice(configuration: configuration, deviceFaults: deviceFaults, uptime: uptime?.source)
    }

    /// An image file of this version whose SHA-256 TLV is `hash`; `loadAddress` makes it a
    /// direct-XIP image built for that flash address (`ROM_FIXED`).
    static func file(_ major: UInt8, hash: UInt8, body: Int = 100, loadAddress: UInt64? = nil) -> [UInt8] {
        SimulatedImageHeader.imageFile(
            version: (major, 0, 0, 0), body: (0..<body).map { UInt8(truncatingIfNeeded: $0) }, hash: hash32(hash),
            flags: loadAddress == nil ? 0 : SimulatedImageHeader.romFixedFlag, loadAddress: UInt32(truncatingIfNeeded: loadAddress ?? 0))
    }

    static func hash32(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }

    /// The answer to one image request.
    func send(_ operation: SMPOperation, _ command: UInt8, _ payload: CBORMap = [:], file: StaticString = #filePath, line: UInt = #line)
        async throws -> CBORMap
    {
        try await device.respond(to: TestFrames.request(operation, group: .image, command: command, payload: payload), file: file, line: line)
            .payload
    }

    /// The image group error (`err.rc`) of an answer, or nil.
    static func errorCode(_ answer: CBORMap) -> Int64? { answer["err"]?["rc"]?.int64Value }

    /// Uploads `file` in chunks of `chunk` bytes; returns the last answer.
    func upload(_ file: [UInt8], image: UInt64? = nil, sha: [UInt8]? = nil, chunk: Int = 64) async throws -> CBORMap {
        try await Self.upload(file, to: device, image: image, sha: sha, chunk: chunk)
    }

    /// Uploads `file` to `device` in chunks of `chunk` bytes; returns the last answer.
    static func upload(
        _ file: [UInt8], to device: VirtualDevice, image: UInt64? = nil, sha: [UInt8]? = nil, chunk: Int = 64
    ) async throws -> CBORMap {
        var offset = 0
        var answer: CBORMap = [:]
        while offset < file.count {
            var payload: CBORMap = [:]
            if offset == 0 {
                if let image { payload["image"] = .unsigned(image) }
                payload["len"] = .integer(file.count)
            }
            payload["off"] = .integer(offset)
            if offset == 0, let sha { payload["sha"] = .bytes(sha) }
            payload["data"] = .bytes(Array(file[offset..<min(file.count, offset + chunk)]))
            answer = try await device.respond(to: TestFrames.request(.write, group: .image, command: 1, payload: payload)).payload
            guard let next = answer["off"]?.intValue, next > offset else { return answer }
            offset = next
        }
        return answer
    }

    /// The state list's entries as (image, slot, version, flags "acpPb").
    func list() async throws -> [String] {
        let answer = try await send(.read, 0)
        return (answer["images"]?.arrayValue ?? []).map { entry in
            let flags = [("active", "a"), ("confirmed", "c"), ("pending", "p"), ("permanent", "P")]
                .filter { entry[$0.0]?.boolValue == true }.map(\.1).joined()
            return "\(entry["image"]?.int64Value ?? 0)/\(entry["slot"]?.int64Value ?? -1) \(entry["version"]?.stringValue ?? "?") \(flags)"
        }
    }

    /// The image group's state (a due reset takes effect first).
    func group() async throws -> ImageGroup {
        let group = await device.group(.image)
        return try XCTUnwrap(group as? ImageGroup)
    }

    func reset() async throws {
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
    }
}
