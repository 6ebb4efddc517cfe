import CBOR
import SMP

/// How a simulated command fails.
///
/// The two cases are the two ways a Zephyr handler fails (docs/protocol/errors.md §1.7): an SMP-level error replaces the
/// whole response with `{"rc": code}` and ends the processing of the frame; a group error is a
/// success at the SMP level whose response carries `err {group, rc}` (v2) or the translated
/// `rc` (v1, legacy), after any other fields the handler wrote.
public enum SimulatedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An SMP-level error (`MGMT_ERR_*`).
    case returnCode(SMPReturnCode)
    /// A group-specific error, with the fields written before it (e.g. FS upload's `len`).
    case groupError(SMPGroupError, fields: CBORMap)

    /// `MGMT_ERR_ENOTSUP` (8): no such command, or no handler for the operation.
    public static let notSupported = SimulatedError.returnCode(.notSupported)
    /// `MGMT_ERR_EINVAL` (3): the request could not be decoded or holds an invalid value.
    public static let invalidValue = SimulatedError.returnCode(.invalidValue)

    /// A group error from the group's error enum, reported under the code's own group or under
    /// `reportedAs` (Zephyr's statistics group says 63), after `fields`.
    public static func groupError(
        _ code: some SMPGroupErrorCode, reportedAs: SMPGroup? = nil, fields: CBORMap = [:]
    ) -> SimulatedError {
        .groupError(SMPGroupError(code, reportedAs: reportedAs), fields: fields)
    }

    public var description: String {
        switch self {
        case .returnCode(let code): return code.description
        case .groupError(let error, _):
            return error.description
        }
    }
}
