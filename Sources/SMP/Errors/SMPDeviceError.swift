/// An error answered by the device: an SMP-level `rc` or a v2 group error `err` (docs/protocol/errors.md §1.7).
///
/// Read one from a response payload with ``init(payload:requestGroup:)``.
public enum SMPDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An SMP-level (`MGMT_ERR_*`) error. `group` is the request's group (Mynewt's log group
    /// swaps codes 7 and 9); `reason` is the device's `rsn` text when present, or a note that the
    /// response's error fields were malformed.
    case returnCode(SMPReturnCode, group: UInt16, reason: String?)
    /// A group-specific error (SMP version 2).
    case groupError(SMPGroupError)

    /// The `MGMT_ERR_*` code for this error: the `rc` (Mynewt log quirk applied), or a group
    /// error's v1 translation. Never ``SMPReturnCode/ok``.
    public var legacyReturnCode: SMPReturnCode {
        switch self {
        case .returnCode(let code, let group, _): return code.canonical(inGroup: group)
        case .groupError(let error): return error.legacyReturnCode
        }
    }

    /// One line: name, code, sentence, and the device's reason if any —
    /// `MGMT_ERR_EINVAL (3): invalid argument …; reason: "bad"`. A response with malformed error
    /// fields reads `malformed response: "rc" should be an integer …; treated as a failure (MGMT_ERR_EUNKNOWN)`.
    public var description: String {
        switch self {
        case .returnCode(let code, let group, let reason):
            if let reason, code == .unknown, reason.hasPrefix(Self.malformedPrefix) {
                return "\(reason) (\(code.name))"
            }
            let text = "\(code.name(inGroup: group)) (\(code.rawValue)): \(code.sentence(inGroup: group))"
            guard let reason else { return text }
            return text + "; reason: \"\(reason)\""
        case .groupError(let error):
            return error.description
        }
    }

    /// How the reason of an error made from malformed error fields begins.
    static let malformedPrefix = "malformed response: "
}
