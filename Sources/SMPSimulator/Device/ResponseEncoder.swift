import CBOR
import SMP

/// Builds response messages the way the configured flavour does (docs/protocol/messages.md §1.3, docs/protocol/errors.md §1.7).
struct ResponseEncoder: Sendable {
    let flavour: SMPServerFlavour
    let bufferSize: Int

    /// The response to a handler's outcome, and whether it is an SMP-level error (which ends the
    /// processing of the frame). A response that does not fit the buffer becomes rc 7.
    func response(to header: RequestHeader, outcome: Result<CBORMap, SimulatedError>) -> (bytes: [UInt8], isError: Bool) {
        var body: CBORMap
        switch outcome {
        case .success(let fields):
            body = fields
            if flavour == .legacy && body["rc"] == nil { body["rc"] = 0 }
        case .failure(.returnCode(let code)):
            return (errorResponse(to: header, code: code), true)
        case .failure(.groupError(let error, let fields)):
            body = fields
            if flavour == .zephyr && header.versionBits >= SMPProtocolVersion.v2.rawValue {
                body["err"] = ["group": .unsigned(UInt64(error.group)), "rc": .int(error.code)]
            } else {
                let legacy = SMPGroupError(group: error.group, code: error.code, requestGroup: header.group.rawValue).legacyReturnCode
                body["rc"] = .int(legacy.rawValue)
            }
        }
        let bytes = message(to: header, body: body)
        guard bytes.count <= bufferSize else {
            return (errorResponse(to: header, code: .messageTooLarge), true)
        }
        return (bytes, false)
    }

    /// `{"rc": code}`, as Zephyr's `smp_build_err_rsp()`.
    func errorResponse(to header: RequestHeader, code: SMPReturnCode) -> [UInt8] {
        message(to: header, body: ["rc": .int(code.rawValue)])
    }

    private func message(to header: RequestHeader, body: CBORMap) -> [UInt8] {
        let version: SMPProtocolVersion = flavour == .zephyr && header.versionBits >= 1 ? .v2 : .v1
        let responseHeader = SMPHeader(
            operation: header.responseOperation, version: version, length: 0, group: header.group,
            sequence: header.sequence, command: header.command)
        return SMPMessage(header: responseHeader, payload: body).encoded(indefiniteContainers: flavour == .zephyr)
    }
}
