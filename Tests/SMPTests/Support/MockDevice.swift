import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

/// What the scripted device does with one request it receives.
enum DeviceReply: Sendable {
    /// Answers with this payload: response operation, same sequence, group and command, and the
    /// request's version bits unless others are given; `indefinite` encodes maps as Zephyr does.
    case answer(CBORMap, versionBits: UInt8? = nil, indefinite: Bool = false)
    /// Sends these frames as they are.
    case frames([[UInt8]])
    /// Keeps the request unanswered until the test answers it (``MockDevice/takeHeld()``).
    case hold
    /// Ignores the request, as if it or its response were lost.
    case drop
}

/// An in-memory SMP transport whose device side is scripted by the test.
///
/// Every request the client sends is decoded and recorded, then the script decides the reply.
/// Tests can also push any frame at any time, end the link, or make sending fail.
actor MockDevice: SMPTransport {
    /// Decides the reply to a request; `index` counts the requests received before it.
    typealias Script = @Sendable (_ request: SMPMessage, _ index: Int) -> DeviceReply

    nonisolated let endpoint = "mock:device"
    nonisolated let maximumMessageSize: Int
    nonisolated let defaultParameters: MCUmgrParameters
    nonisolated let inbound: AsyncThrowingStream<[UInt8], any Error>
    private nonisolated let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

    private var script: Script
    /// Every request received, in order (retransmissions included).
    private(set) var requests: [SMPMessage] = []
    /// Requests held by the script and not yet taken by the test.
    private(set) var held: [SMPMessage] = []
    /// Requests that arrived with the sequence number of a request still held: a collision.
    private(set) var heldSequenceCollisions = 0
    /// How often ``close()`` was called.
    private(set) var closeCount = 0
    private var sendError: (any Error)?
    private var closed = false

    init(
        maximumMessageSize: Int = 2048,
        defaultParameters: MCUmgrParameters = MCUmgrParameters(bufferSize: 512, bufferCount: 2, source: .assumed(reason: "mock default")),
        script: @escaping Script = MockDevice.standard
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.defaultParameters = defaultParameters
        self.script = script
        (inbound, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
    }

    // MARK: SMPTransport

    func send(_ message: [UInt8]) async throws {
        if closed { throw SMPTransportError(.closed, "mock: closed") }
        if let sendError { throw sendError }
        let request = try SMPMessage(decoding: message)
        let index = requests.count
        requests.append(request)
        switch script(request, index) {
        case .answer(let payload, let versionBits, let indefinite):
            continuation.yield(Self.response(to: request, payload: payload, versionBits: versionBits, indefinite: indefinite))
        case .frames(let frames):
            for frame in frames { continuation.yield(frame) }
        case .hold:
            if held.contains(where: { $0.header.sequence == request.header.sequence }) { heldSequenceCollisions += 1 }
            held.append(request)
        case .drop:
            break
        }
    }

    func close() async {
        closeCount += 1
        closed = true
        continuation.finish()
    }

    // MARK: Device side

    /// Replaces the script for the requests that follow.
    func setScript(_ script: @escaping Script) { self.script = script }

    /// Makes every later send fail with `error`.
    func failSends(with error: any Error) { sendError = error }

    /// Delivers a frame to the client.
    func push(_ frame: [UInt8]) { continuation.yield(frame) }

    /// Returns the held requests and forgets them.
    func takeHeld() -> [SMPMessage] {
        defer { held.removeAll() }
        return held
    }

    /// The device goes away: the inbound stream finishes (or fails with `error`).
    func disconnect(throwing error: (any Error)? = nil) {
        closed = true
        continuation.finish(throwing: error)
    }

    /// The requests received for one command.
    func requests(group: SMPGroup = .os, command: UInt8) -> [SMPMessage] {
        requests.filter { $0.header.group == group && $0.header.command == command }
    }

    /// Waits until at least `count` requests arrived; false when they did not within `limit`.
    func waitForRequests(_ count: Int, within limit: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while requests.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Waits until at least `count` requests are held; false when they were not within `limit`.
    func waitForHeld(_ count: Int, within limit: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while held.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    // MARK: Building replies

    /// The encoded response to `request`.
    static func response(
        to request: SMPMessage, payload: CBORMap, versionBits: UInt8? = nil, indefinite: Bool = false
    ) -> [UInt8] {
        var header = request.header
        header.operation = request.header.operation.response
        if let versionBits { header.versionBits = versionBits }
        return SMPMessage(header: header, payload: payload).encoded(indefiniteContainers: indefinite)
    }

    /// A frame with a hand-made header (any length field) and raw payload bytes.
    static func rawFrame(
        opBits: UInt8, versionBits: UInt8 = 1, length: Int? = nil, group: UInt16, sequence: UInt8, command: UInt8,
        payload: [UInt8]
    ) -> [UInt8] {
        let length = length ?? payload.count
        return [
            versionBits << 3 | opBits, 0, UInt8(length >> 8), UInt8(length & 0xFF),
            UInt8(group >> 8), UInt8(group & 0xFF), sequence, command,
        ] + payload
    }

    /// What a small Zephyr-like device answers: echo, parameters, and an empty map otherwise.
    static func standardAnswer(to request: SMPMessage) -> CBORMap {
        switch (request.header.group, request.header.command) {
        case (.os, OSCommandID.echo): return ["r": request.payload["d"] ?? .null]
        case (.os, OSCommandID.parameters): return ["buf_size": 1024, "buf_count": 4]
        default: return [:]
        }
    }

    /// Answers every request as ``standardAnswer(to:)`` says.
    static let standard: Script = { request, _ in .answer(standardAnswer(to: request)) }
}

/// A client on `device` with test-sized timings, on `clock` (a test's ``ManualClock`` decides
/// when its requests' time is up).
func makeClient(
    _ device: MockDevice, timeout: Duration = .seconds(2), retries: Int = 0, busyRetries: Int = 0,
    busyBackoff: Duration = .milliseconds(5), initialVersion: SMPProtocolVersion = .v2,
    clock: any Clock<Duration> = ContinuousClock()
) -> SMPClient {
    SMPClient(
        transport: device,
        configuration: SMPClientConfiguration(
            timeout: timeout, retries: retries, busyRetries: busyRetries, busyBackoff: busyBackoff,
            initialVersion: initialVersion),
        clock: clock)
}

extension SMPError {
    /// The device error, when this is one.
    var deviceError: SMPDeviceError? {
        if case .device(let error, _) = self { return error }
        return nil
    }

    /// The transport error, when this is one.
    var transportError: SMPTransportError? {
        if case .transport(let error) = self { return error }
        return nil
    }

    /// The attempts of a timeout, when this is one.
    var timeoutAttempts: Int? {
        if case .timeout(_, _, let attempts, _, _) = self { return attempts }
        return nil
    }

    /// Whether this is a cancellation.
    var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// Fails the test unless `device` holds at least `count` requests within a few seconds.
func assertHeld(_ device: MockDevice, _ count: Int, file: StaticString = #filePath, line: UInt = #line) async {
    let arrived = await device.waitForHeld(count)
    XCTAssertTrue(arrived, "the device did not receive \(count) requests to hold", file: file, line: line)
}

/// Fails the test unless `device` received at least `count` requests within a few seconds.
func assertReceived(_ device: MockDevice, _ count: Int, file: StaticString = #filePath, line: UInt = #line) async {
    let arrived = await device.waitForRequests(count)
    XCTAssertTrue(arrived, "the device did not receive \(count) requests", file: file, line: line)
}
