import CBOR
import SMP

/// One upload in progress on the simulated SUIT device (envelope, resource or cache): the bytes
/// received so far, of `length` in all.
struct SimulatedSUITTransfer: Sendable, Hashable {
    /// The total length announced by the first chunk.
    var length: Int
    /// What arrived so far.
    var bytes: [UInt8]
    /// When the last chunk arrived (device uptime).
    var lastChunkAt: Duration

    /// What a chunk did.
    struct Outcome {
        /// The answer: `rc` 0 and the next offset, or `rc` 1 with the expected one.
        var answer: CBORMap
        /// The whole file, when this chunk completed it.
        var completed: [UInt8]?
    }

    /// Takes one chunk (`off`, `len` at offset 0, `data`) into `transfer` as NCS does: offset 0
    /// starts afresh, any other offset must be where the upload stands, or the answer is `rc` 1
    /// with the offset expected (0 when no upload is in progress or it timed out).
    static func receive(
        _ fields: SimulatedFields, into transfer: inout SimulatedSUITTransfer?, configuration: SimulatedSUITConfiguration,
        now: Duration
    ) throws(SimulatedError) -> Outcome {
        guard let offset = fields.unsigned("off") else { throw .invalidValue }
        let data = fields.bytes("data") ?? []
        if let current = transfer, let timeout = configuration.interChunkTimeout, now - current.lastChunkAt > timeout {
            transfer = nil
        }
        if offset == 0 {
            guard let length = fields.unsigned("len"), length > 0 else { throw .invalidValue }
            guard length <= UInt64(configuration.maximumUploadSize) else { throw .returnCode(.noMemory) }
            transfer = SimulatedSUITTransfer(length: Int(length), bytes: [], lastChunkAt: now)
        }
        guard var current = transfer, offset == UInt64(current.bytes.count) else {
            return Outcome(answer: ["rc": .int(SMPReturnCode.unknown.rawValue), "off": .integer(transfer?.bytes.count ?? 0)])
        }
        guard current.bytes.count + data.count <= current.length else {
            transfer = nil
            throw .invalidValue
        }
        current.bytes += data
        current.lastChunkAt = now
        let answer: CBORMap = ["rc": 0, "off": .integer(current.bytes.count)]
        if current.bytes.count == current.length {
            transfer = nil
            return Outcome(answer: answer, completed: current.bytes)
        }
        transfer = current
        return Outcome(answer: answer)
    }
}
