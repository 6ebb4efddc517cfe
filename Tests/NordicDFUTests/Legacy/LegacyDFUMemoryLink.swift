import Crypto
import NordicDFU
import SMPSimulator

/// A ``LegacyDFUTransport`` straight into a ``LegacyDFUTarget``: each write runs the state
/// machine, its notifications queue up (as bytes, parsed again on reading), and reading with
/// none queued is a timeout (nothing else could ever send one).
actor LegacyDFUMemoryLink: LegacyDFUTransport {
    /// The virtual bootloader.
    private(set) var target: LegacyDFUTarget
    /// Control Point requests, in order.
    private(set) var requests: [LegacyDFURequest] = []
    /// Packet writes, in order (sizes, init packet, firmware).
    private(set) var packets: [[UInt8]] = []
    private var queue: [[UInt8]] = []
    /// Subtracted from every receipt notification's count (a bootloader that miscounts).
    private let receiptShortfall: UInt32

    nonisolated let linkDescription = "memory"
    nonisolated let dfuVersion: UInt16? = 8

    init(_ configuration: LegacyDFUTarget.Configuration = LegacyDFUTarget.Configuration(), receiptShortfall: UInt32 = 0) {
        target = LegacyDFUTarget(configuration: configuration)
        self.receiptShortfall = receiptShortfall
    }

    /// Drives the target directly (to leave it mid-update, as a dropped link would).
    func drive(controlPoint: [UInt8]? = nil, packet: [UInt8]? = nil) {
        if let controlPoint { queue += target.controlPoint(controlPoint).notifications.map(\.bytes) }
        if let packet { queue += target.packet(packet).notifications.map(\.bytes) }
        queue = []
    }

    func writeControlPoint(_ request: LegacyDFURequest) async throws {
        if request != .reset { try Task.checkCancellation() }
        requests.append(request)
        let reply = target.controlPoint(request.bytes)
        queue += reply.notifications.map(\.bytes)
        if reply.reset { queue = [] }
    }

    func writePacket(_ bytes: [UInt8]) async throws {
        try Task.checkCancellation()
        packets.append(bytes)
        queue += target.packet(bytes).notifications.map { notification in
            guard case .receipt(let count) = notification else { return notification.bytes }
            return LegacyDFUNotification.receipt(bytesReceived: count - min(count, receiptShortfall)).bytes
        }
    }

    func notification() async throws -> LegacyDFUNotification {
        guard !queue.isEmpty else { throw LegacyDFUError(.noResponse, "no notification within the timeout") }
        return try LegacyDFUNotification.parse(queue.removeFirst()).get()
    }

    func close() async {}
}

/// A legacy DFU 0.7 init packet (any device, any SoftDevice) for `firmware`: its length and SHA-256.
func legacyInitPacket(for firmware: [UInt8], softDevices: [UInt16] = [0xFFFE], applicationVersion: UInt32 = 0xFFFF_FFFF) -> [UInt8] {
    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    var bytes = le(UInt16(0xFFFF)) + le(UInt16(0xFFFF)) + le(applicationVersion) + le(UInt16(softDevices.count))
    for id in softDevices { bytes += le(id) }
    return bytes + le(UInt32(1)) + le(UInt32(firmware.count)) + Array(SHA256.hash(data: firmware))
}
