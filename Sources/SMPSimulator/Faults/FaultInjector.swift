import SMP

/// Applies a ``FaultInjection`` to a device's traffic and counts what it did.
///
/// Requests and responses draw from separate generators, so that the faults met by responses do
/// not depend on whether busy injection is on.
struct FaultInjector: Sendable {
    private(set) var settings: FaultInjection
    private(set) var statistics = FaultStatistics()
    private var requestRandom: SeededGenerator
    private var responseRandom: SeededGenerator
    private var heldBack: [UInt8]?

    init(_ settings: FaultInjection) {
        self.settings = settings
        requestRandom = SeededGenerator(seed: settings.seed ^ 0xB5AD_4ECE_DA1C_E2A9)
        responseRandom = SeededGenerator(seed: settings.seed)
    }

    /// Whether the next request is answered "busy" instead of being processed.
    mutating func answersBusy() -> Bool {
        guard settings.busy > 0, requestRandom.chance(settings.busy) else { return false }
        statistics.busy += 1
        return true
    }

    /// What to send for these responses, in order.
    mutating func deliveries(for responses: [[UInt8]]) -> [SimulatedDelivery] {
        var result: [SimulatedDelivery] = []
        for response in responses {
            statistics.responses += 1
            guard settings.isActive else {
                result.append(SimulatedDelivery(bytes: response))
                continue
            }
            // One draw per fault and response, always in this order, keeps runs repeatable.
            let drop = responseRandom.chance(settings.drop)
            let corrupt = responseRandom.chance(settings.corrupt)
            let reorder = responseRandom.chance(settings.reorder)
            let duplicate = responseRandom.chance(settings.duplicate)
            let delay = responseRandom.chance(settings.delay)
            let damage = responseRandom.next()
            if drop {
                statistics.dropped += 1
                continue
            }
            var bytes = response
            if corrupt {
                statistics.corrupted += 1
                bytes = Self.damaged(bytes, choice: damage)
            }
            if reorder && heldBack == nil {
                statistics.reordered += 1
                heldBack = bytes
                continue
            }
            let wait = delay ? settings.delayDuration : .zero
            if delay { statistics.delayed += 1 }
            result.append(SimulatedDelivery(bytes: bytes, delay: wait))
            if duplicate {
                statistics.duplicated += 1
                result.append(SimulatedDelivery(bytes: bytes, delay: wait))
            }
            if let held = heldBack {
                heldBack = nil
                result.append(SimulatedDelivery(bytes: held, delay: wait))
            }
        }
        return result
    }

    /// A copy of `message` that no client can take for a valid message.
    static func damaged(_ message: [UInt8], choice: UInt64) -> [UInt8] {
        guard message.count > SMPHeader.size else { return Array(message.prefix(max(0, message.count - 1))) }
        var bytes = message
        let payloadLength = bytes.count - SMPHeader.size
        switch choice % 3 {
        case 0:
            // Declare more payload than the datagram holds.
            let declared = min(0xFFFF, payloadLength + 1 + Int((choice >> 8) % 64))
            bytes[2] = UInt8(declared >> 8)
            bytes[3] = UInt8(declared & 0xFF)
        case 1:
            // Cut the datagram inside the payload (or inside the header).
            let keep = 1 + Int((choice >> 8) % UInt64(bytes.count - 1))
            bytes.removeSubrange(keep...)
        default:
            // 0xFC..0xFE: major type 7 with reserved additional information: never valid CBOR.
            bytes[SMPHeader.size] = 0xFC + UInt8((choice >> 8) % 3)
        }
        return bytes
    }
}
