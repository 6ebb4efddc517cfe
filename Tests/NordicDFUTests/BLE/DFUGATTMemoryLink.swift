import NordicDFU
import SMP
import SMPSimulator
import Synchronization

/// A ``DFUGATTLink`` in front of a virtual bootloader in memory: control point writes and data
/// writes run its state machine, its answers come back as control point notifications.
final class DFUGATTMemoryLink: DFUGATTLink {
    /// The bootloader behind the link.
    enum Bootloader: Sendable {
        case secure(SecureDFUTarget)
        case legacy(LegacyDFUTarget)
    }

    /// What crossed the link.
    struct Counts: Sendable, Hashable {
        var controlPointWrites = 0
        var dataWrites = 0
        var largestDataWrite = 0
    }

    let mtu: Int
    let linkDescription = "BLE memory"
    let controlPointNotifications: AsyncThrowingStream<[UInt8], any Error>
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let state: Mutex<(bootloader: Bootloader, counts: Counts)>
    /// The link drops once this many data writes went through (a device out of range).
    private let dropAfterDataWrites: Int?

    init(_ bootloader: Bootloader, mtu: Int, dropAfterDataWrites: Int? = nil) {
        self.mtu = mtu
        self.dropAfterDataWrites = dropAfterDataWrites
        state = Mutex((bootloader, Counts()))
        (controlPointNotifications, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
    }

    var bootloader: Bootloader { state.withLock { $0.bootloader } }
    var counts: Counts { state.withLock { $0.counts } }

    func writeControlPoint(_ bytes: [UInt8]) async throws {
        let answers = state.withLock { state -> [[UInt8]] in
            state.counts.controlPointWrites += 1
            switch state.bootloader {
            case .secure(var target):
                let reply = target.handle(bytes)
                state.bootloader = .secure(target)
                return reply.answer.map { [$0] } ?? []
            case .legacy(var target):
                let reply = target.controlPoint(bytes)
                state.bootloader = .legacy(target)
                return reply.notifications.map(\.bytes)
            }
        }
        for answer in answers { continuation.yield(answer) }
    }

    func writeData(_ bytes: [UInt8]) async throws {
        guard bytes.count <= mtu - 3 else { throw SMPTransportError(.io, "a write of \(bytes.count) bytes does not fit MTU \(mtu)") }
        let (answers, dropped) = state.withLock { state -> ([[UInt8]], Bool) in
            state.counts.dataWrites += 1
            state.counts.largestDataWrite = max(state.counts.largestDataWrite, bytes.count)
            if let dropAfterDataWrites, state.counts.dataWrites > dropAfterDataWrites { return ([], true) }
            switch state.bootloader {
            case .secure(var target):
                // The data characteristic carries what a serial link frames as a Write request.
                let reply = target.handle([SecureDFUOpCode.write.rawValue] + bytes)
                state.bootloader = .secure(target)
                return (reply.answer.map { [$0] } ?? [], false)
            case .legacy(var target):
                let reply = target.packet(bytes)
                state.bootloader = .legacy(target)
                return (reply.notifications.map(\.bytes), false)
            }
        }
        if dropped {
            let lost = SMPTransportError(.closed, "ble:memory: the Bluetooth link was lost (the device disconnected)")
            continuation.finish(throwing: lost)
            throw lost
        }
        for answer in answers { continuation.yield(answer) }
    }

    func close() async {
        continuation.finish()
    }
}
