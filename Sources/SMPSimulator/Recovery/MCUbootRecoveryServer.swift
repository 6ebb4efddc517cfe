import CBOR
import SMP

/// MCUboot's serial recovery (`boot_serial_input`) as a ``VirtualDevice`` runs it: one request
/// per frame, answered from the request's own header (operation + 1, flags 0, version bits
/// kept), errors as `{"rc": N}` whatever the protocol version.
///
/// It answers image list, upload and (as configured) state write and slot info; console echo
/// control (`rc` 0), reset, MCUmgr parameters and (as configured) echo; Zephyr basic storage
/// erase as configured; everything else `MGMT_ERR_ENOTSUP`.
struct MCUbootRecoveryServer: Sendable {
    /// What the recovery answers.
    let configuration: MCUbootRecoveryConfiguration

    /// What handling one request produced.
    struct Outcome {
        /// The response message; nil when MCUboot does not answer (a header it ignores).
        var response: [UInt8]?
        /// Whether MCUboot reboots after the answer.
        var resets = false
        /// Flash time the request cost.
        var timeSpent: Duration = .zero
    }

    /// Handles the first message of `frame` (MCUboot reads one per packet); `images` is the
    /// device's image group (its flash), `eraseStorage` wipes the storage partition.
    func handle(frame: [UInt8], images: inout ImageGroup?, eraseStorage: () -> Bool) -> Outcome {
        guard let header = RequestHeader(frame, at: 0), let operation = header.requestOperation,
              header.length >= frame.count - SMPHeader.size
        else { return Outcome() }
        let payload = Array(frame[SMPHeader.size..<min(frame.count, SMPHeader.size + header.length)])
        let request = SimulatedRequest(
            group: header.group, command: header.command, operation: operation, versionBits: header.versionBits,
            sequence: header.sequence, payloadBytes: payload)
        var outcome = Outcome()
        let body = answer(request, images: &images, eraseStorage: eraseStorage, outcome: &outcome)
        outcome.response = message(to: header, body: body)
        return outcome
    }

    private func answer(
        _ request: SimulatedRequest, images: inout ImageGroup?, eraseStorage: () -> Bool, outcome: inout Outcome
    ) -> CBORMap {
        let unsupported = ImageGroup.rc(.notSupported)
        switch (request.group, request.command) {
        case (.image, ImageCommandID.state):
            guard var group = images else { return ImageGroup.rc(.unknown) }
            defer { images = group }
            if request.operation == .read { return group.recoveryList(configuration) }
            return configuration.imageState ? group.recoverySetState(request, configuration) : unsupported
        case (.image, ImageCommandID.upload):
            guard var group = images else { return ImageGroup.rc(.invalidValue) }
            defer { images = group }
            var spent = Duration.zero
            let answer = group.recoveryUpload(request, configuration) { spent += $0 }
            outcome.timeSpent = spent
            return answer
        case (.image, ImageCommandID.slotInfo) where configuration.slotInfo:
            guard request.operation == .read, let group = images else { return unsupported }
            return group.recoverySlotInfo()
        case (.os, OSCommandID.echo) where configuration.echo:
            guard let fields = try? request.fields(["d": .text]), let text = fields.text("d") else { return ImageGroup.rc(.invalidValue) }
            return ["r": .text(text)]
        case (.os, OSCommandID.consoleEcho):
            return ["rc": 0]
        case (.os, OSCommandID.reset):
            outcome.resets = true
            return ["rc": 0]
        case (.os, OSCommandID.parameters) where configuration.parameters:
            return ["buf_size": .integer(configuration.bufferSize), "buf_count": .integer(configuration.bufferCount)]
        case (.zephyrBasic, 0) where configuration.storageErase:
            return eraseStorage() ? ["rc": 0] : ImageGroup.rc(.unknown)
        default:
            return unsupported
        }
    }

    /// `boot_serial_output()`: the request header with the response operation, flags 0 and the
    /// new length; the body as zcbor writes it (indefinite-length containers).
    private func message(to header: RequestHeader, body: CBORMap) -> [UInt8] {
        let responseHeader = SMPHeader(
            operation: header.operationBits == SMPOperation.read.rawValue ? .readResponse : .writeResponse,
            version: header.versionBits >= 1 ? .v2 : .v1, length: 0, group: header.group, sequence: header.sequence,
            command: header.command)
        return SMPMessage(header: responseHeader, payload: body).encoded(indefiniteContainers: true)
    }
}
