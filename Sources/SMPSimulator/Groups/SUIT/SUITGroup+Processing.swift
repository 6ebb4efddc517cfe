import CBOR
import SMP

/// An envelope being processed: the resources it still needs, and the stream session open for
/// the first of them.
struct SimulatedSUITProcessing: Sendable, Hashable {
    var envelope: SimulatedEnvelope
    var pending: [String]
    var session: Session?

    /// A stream session: its ID and the upload of the resource in progress.
    struct Session: Sendable, Hashable {
        var id: UInt64
        var transfer: SimulatedSUITTransfer?
    }
}

extension SUITGroup {
    /// Envelope upload (cmd 2), or with `off 0 len 0` the trigger of a deferred install. A new
    /// envelope abandons whatever the device was processing.
    mutating func receiveEnvelope(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["off": .unsigned, "len": .unsigned, "data": .bytes, "defer_install": .bool])
        if fields.unsigned("off") == 0, fields.unsigned("len") == 0 {
            guard let stored = candidate else { throw .returnCode(.badState) }
            candidate = nil
            startProcessing(stored, context: &context)
            return ["rc": 0]
        }
        if fields.unsigned("off") == 0 {
            processing = nil
            candidate = nil
            deferInstall = fields.bool("defer_install") ?? false
        }
        let outcome = try SimulatedSUITTransfer.receive(fields, into: &envelopeUpload, configuration: configuration, now: context.uptime)
        guard let bytes = outcome.completed else { return outcome.answer }
        guard let envelope = SimulatedEnvelope(bytes) else { throw .invalidValue }
        if deferInstall {
            candidate = envelope
        } else {
            startProcessing(envelope, context: &context)
        }
        return outcome.answer
    }

    /// Poll (cmd 3): the first resource still needed, in a stream session opened for it.
    mutating func poll() -> CBORMap {
        guard var current = processing, let uri = current.pending.first else { return ["rc": 0] }
        if current.session == nil {
            current.session = SimulatedSUITProcessing.Session(id: nextSessionID)
            nextSessionID += 1
            requestedResources.append(uri)
            processing = current
        }
        return ["rc": 0, "stream_session_id": .unsigned(current.session?.id ?? 0), "resource_id": .bytes(Array(uri.utf8))]
    }

    /// Resource upload (cmd 4) into the open stream session; the last byte of the last resource
    /// installs the envelope.
    mutating func receiveResource(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["stream_session_id": .unsigned, "off": .unsigned, "len": .unsigned, "data": .bytes])
        guard var current = processing, let session = current.session, let uri = current.pending.first,
              fields.unsigned("stream_session_id") == session.id
        else { throw .returnCode(.badState) }
        var transfer = session.transfer
        let outcome = try SimulatedSUITTransfer.receive(fields, into: &transfer, configuration: configuration, now: context.uptime)
        current.session?.transfer = transfer
        if let bytes = outcome.completed {
            receivedResources[uri] = bytes
            current.pending.removeFirst()
            current.session = nil
        }
        processing = current
        if current.pending.isEmpty { install(current.envelope, context: &context) }
        return outcome.answer
    }

    /// Cache raw upload (cmd 5) to a known partition.
    mutating func receiveCache(_ request: SimulatedRequest, now: Duration) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["target_id": .unsigned, "off": .unsigned, "len": .unsigned, "data": .bytes])
        guard let partition = fields.unsigned("target_id"), configuration.cachePartitions.contains(partition) else { throw .invalidValue }
        var transfer = cacheUpload?.partition == partition ? cacheUpload?.transfer : nil
        let outcome = try SimulatedSUITTransfer.receive(fields, into: &transfer, configuration: configuration, now: now)
        cacheUpload = (partition, transfer)
        if let bytes = outcome.completed { caches[partition] = bytes }
        return outcome.answer
    }

    private mutating func startProcessing(_ envelope: SimulatedEnvelope, context: inout SimulatedDeviceContext) {
        processing = SimulatedSUITProcessing(envelope: envelope, pending: envelope.resourceURIs, session: nil)
        if envelope.resourceURIs.isEmpty { install(envelope, context: &context) }
    }

    /// The envelope takes effect at the reset the device now asks for.
    private mutating func install(_ envelope: SimulatedEnvelope, context: inout SimulatedDeviceContext) {
        processing = nil
        pendingInstall = envelope
        installCount += 1
        context.requestReset(force: false, bootMode: nil)
    }
}
