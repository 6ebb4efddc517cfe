import CBOR
import Logging

/// What the client logs about each exchange, as metadata (so that a log handler can print it for
/// people or store it as JSON):
///
/// - debug: one record per request attempt (`→ os echo` with `op`, `seq`, `size`, `attempt` after
///   the first) and one per response (`← os echo` with `op`, `seq`, `size`, `rc`, `ms` the round
///   trip, and `error` when the device reports one);
/// - trace: the CBOR payload of each (a record with `payload`, a ``CBOR`` value), and every frame
///   in hex.
extension SMPClient {
    /// Logs an attempt of a request as it is handed to the link.
    func logRequest(_ entry: PendingRequest) {
        guard logger.logLevel <= .debug else { return }
        var metadata: Logger.Metadata = [
            "op": "\(entry.request.operation)", "seq": .stringConvertible(Int(entry.sequence)),
            "size": .stringConvertible(entry.frame.count),
        ]
        if entry.attempts > 1 { metadata["attempt"] = .stringConvertible(entry.attempts) }
        logger.debug("→ \(Self.logName(entry.request))", metadata: metadata)
        logPayload(entry.request.payload, sequence: entry.sequence, direction: "request")
    }

    /// Logs the answer to a request.
    func logResponse(to entry: PendingRequest, header: SMPHeader, payload: CBORMap, size: Int) {
        guard logger.logLevel <= .debug else { return }
        let milliseconds = (time.now() - entry.sentAt).seconds * 1000
        let error = SMPDeviceError(payload: payload, requestGroup: header.group.rawValue)
        var metadata: Logger.Metadata = [
            "op": "\(header.operation)", "seq": .stringConvertible(Int(header.sequence)), "size": .stringConvertible(size),
            "rc": .stringConvertible(error?.legacyReturnCode.rawValue ?? 0),
            "ms": .stringConvertible((milliseconds * 10).rounded() / 10),
        ]
        if let error { metadata["error"] = "\(error)" }
        logger.debug("← \(Self.logName(entry.request))", metadata: metadata)
        logPayload(payload, sequence: header.sequence, direction: "response")
    }

    private func logPayload(_ payload: CBORMap, sequence: UInt8, direction: String) {
        guard logger.logLevel <= .trace else { return }
        logger.trace("\(direction) payload", metadata: ["seq": .stringConvertible(Int(sequence)), "payload": .stringConvertible(CBOR.map(payload))])
    }

    /// The request's name, e.g. `os echo`, or its numbers for a raw request.
    private static func logName(_ request: SMPRequest) -> String {
        request.name ?? "group \(request.group.rawValue) command \(request.command)"
    }
}
