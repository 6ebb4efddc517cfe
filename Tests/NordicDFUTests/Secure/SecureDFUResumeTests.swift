import NordicDFU
import SMPSimulator
import XCTest

/// The engine straight on the bootloader's state machine, without a line (as a BLE transport
/// plugs in): what it resumes from each state an earlier run can leave.
final class SecureDFUResumeTests: XCTestCase {
    let initPacket = testImage(200, seed: 99)
    let firmware = testImage(10 * 1024)

    private func transport(after requests: [SecureDFURequest]) async -> DirectTransport {
        let transport = DirectTransport(target: SecureDFUTarget(configuration: SecureDFUTarget.Configuration { [firmware] _, _ in
            .accept(firmwareSize: firmware.count)
        }))
        for request in requests { await transport.handle(request) }
        return transport
    }

    /// The requests of an earlier run that sent `initPacket` and then `data` into a first data
    /// object of `objectSize` bytes.
    private func earlierRun(initPacket: [UInt8], data: [UInt8], objectSize: Int = 4096, execute: Bool = false) -> [SecureDFURequest] {
        var requests: [SecureDFURequest] = [.create(.command, size: UInt32(initPacket.count))]
        requests += stride(from: 0, to: initPacket.count, by: 64).map { .write(Array(initPacket[$0..<min($0 + 64, initPacket.count)])) }
        requests += [.execute, .select(.data), .create(.data, size: UInt32(objectSize))]
        requests += stride(from: 0, to: data.count, by: 64).map { .write(Array(data[$0..<min($0 + 64, data.count)])) }
        if execute { requests.append(.execute) }
        return requests
    }

    private func send(_ transport: DirectTransport, initPacket: [UInt8]? = nil) async throws -> SecureDFUTransferReport {
        try await SecureDFUEngine(transport: transport, logger: quiet).send(initPacket: initPacket ?? self.initPacket, firmware: firmware)
    }

    func testAnObjectWrittenWholeButNotExecutedIsExecutedNotSentAgain() async throws {
        let transport = await transport(after: earlierRun(initPacket: initPacket, data: Array(firmware.prefix(4096))))
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertTrue(report.initPacketSkipped)
        XCTAssertEqual(report.resumedFrom, 4096)
        XCTAssertEqual(target.statistics.dataBytesReceived, firmware.count)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testAnExecutedObjectIsExecutedAgainHarmlessly() async throws {
        let transport = await transport(after: earlierRun(initPacket: initPacket, data: Array(firmware.prefix(4096)), execute: true))
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertEqual(report.resumedFrom, 4096)
        XCTAssertEqual(report.dataObjects, 2)
        XCTAssertEqual(target.statistics.dataBytesReceived, firmware.count)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testAPartlyWrittenObjectIsCompletedWithoutACreate() async throws {
        let transport = await transport(after: earlierRun(initPacket: initPacket, data: Array(firmware.prefix(960))))
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertEqual(report.resumedFrom, 960)
        XCTAssertEqual(target.statistics.dataObjects.map(\.offset), [0, 4096, 8192])
        XCTAssertEqual(target.statistics.dataBytesReceived, firmware.count)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testAPartObjectWithAnotherCRCIsCreatedAgain() async throws {
        let transport = await transport(after: earlierRun(initPacket: initPacket, data: testImage(960, seed: 5)))
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertNil(report.resumedFrom)
        XCTAssertEqual(target.statistics.dataObjects.map(\.offset), [0, 0, 4096, 8192])
        XCTAssertEqual(target.statistics.dataBytesReceived, 960 + firmware.count)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testAHalfSentInitPacketIsCompleted() async throws {
        let requests: [SecureDFURequest] = [.create(.command, size: 200), .write(Array(initPacket[0..<64])), .write(Array(initPacket[64..<128]))]
        let transport = await transport(after: requests)
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertFalse(report.initPacketSkipped)
        XCTAssertEqual(target.statistics.commandBytesReceived, initPacket.count)
        XCTAssertEqual(target.installed.last, SecureDFUTarget.InstalledImage(initPacket: initPacket, firmware: firmware))
    }

    func testAnotherInitPacketHeldIsReplacedAndItsImageDiscarded() async throws {
        let other = testImage(200, seed: 1)
        let transport = await transport(after: earlierRun(initPacket: other, data: Array(firmware.prefix(4096)), execute: true))
        let report = try await send(transport)
        let target = await transport.target
        XCTAssertFalse(report.initPacketSkipped)
        XCTAssertNil(report.resumedFrom)
        XCTAssertEqual(target.statistics.dataBytesReceived, 4096 + firmware.count)
        XCTAssertEqual(target.installed.last?.initPacket, initPacket)
    }

    func testAnImageInstalledAlreadyIsSentAgainAsANewUpdate() async throws {
        let transport = await transport(after: [])
        _ = try await send(transport)
        let report = try await send(transport)
        let target = await transport.target
        // The bootloader keeps the init packet but no longer its image: the init packet is
        // executed (checked again), the image sent in full.
        XCTAssertTrue(report.initPacketSkipped)
        XCTAssertNil(report.resumedFrom)
        XCTAssertEqual(target.installed.count, 2)
        XCTAssertEqual(target.statistics.dataBytesReceived, 2 * firmware.count)
    }
}

/// A transport that hands requests straight to a ``SecureDFUTarget``.
actor DirectTransport: SecureDFUTransport {
    private(set) var target: SecureDFUTarget
    private var notifications: [[UInt8]] = []
    nonisolated let maximumWriteSize = 64
    nonisolated var objectPreparationDelay: Duration { .zero }
    nonisolated var linkDescription: String { "memory" }

    init(target: SecureDFUTarget) {
        self.target = target
    }

    /// Passes a request to the target, ignoring the answer (to set up a state).
    func handle(_ request: SecureDFURequest) {
        _ = target.handle(request.bytes)
    }

    func request(_ request: SecureDFURequest) async throws -> SecureDFUResponse {
        guard let answer = target.handle(request.bytes).answer else { throw SecureDFUError(.noResponse, "no answer to \(request.opCode)") }
        return try SecureDFUResponse.parse(answer).get()
    }

    func writeData(_ bytes: [UInt8]) async throws {
        if let answer = target.handle(SecureDFURequest.write(bytes).bytes).answer { notifications.append(answer) }
    }

    func receiptNotification() async throws -> SecureDFUChecksum {
        guard !notifications.isEmpty else { throw SecureDFUError(.noResponse, "no receipt notification") }
        return try SecureDFUResponse.parse(notifications.removeFirst()).get().checksum()
    }

    func close() async {}
}
