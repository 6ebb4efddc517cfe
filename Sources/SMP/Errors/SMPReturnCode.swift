/// An SMP-level return code: the legacy `"rc"` value, one of Zephyr's `MGMT_ERR_*` codes (docs/protocol/errors.md §1.8).
///
/// SMP version 1 servers report every failure this way; version 2 servers still use it for errors
/// that do not belong to a group (unsupported command, malformed request, busy, …). Any value
/// can be represented, and only 0 (``ok``) means success: unknown codes are failures.
///
/// Names follow Zephyr's `mgmt_defines.h` (`MGMT_ERR_EINVAL`); codes from 256 up are
/// application-defined and named `MGMT_ERR_EPERUSER+N`; other unknown values `MGMT_ERR_<n>`.
public struct SMPReturnCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value of the `rc` field.
    public let rawValue: Int64

    /// A code with this value (any value, known or not).
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// `MGMT_ERR_EOK` (0): success.
    public static let ok = SMPReturnCode(rawValue: 0)
    /// `MGMT_ERR_EUNKNOWN` (1): unspecified error.
    public static let unknown = SMPReturnCode(rawValue: 1)
    /// `MGMT_ERR_ENOMEM` (2): out of memory or buffers.
    public static let noMemory = SMPReturnCode(rawValue: 2)
    /// `MGMT_ERR_EINVAL` (3): invalid argument or malformed request.
    public static let invalidValue = SMPReturnCode(rawValue: 3)
    /// `MGMT_ERR_ETIMEOUT` (4): the device timed out.
    public static let timeout = SMPReturnCode(rawValue: 4)
    /// `MGMT_ERR_ENOENT` (5): no such entry.
    public static let noEntry = SMPReturnCode(rawValue: 5)
    /// `MGMT_ERR_EBADSTATE` (6): the current state disallows the command.
    public static let badState = SMPReturnCode(rawValue: 6)
    /// `MGMT_ERR_EMSGSIZE` (7): the response is too large for the device's buffer.
    public static let messageTooLarge = SMPReturnCode(rawValue: 7)
    /// `MGMT_ERR_ENOTSUP` (8): the group, command or operation is not supported.
    public static let notSupported = SMPReturnCode(rawValue: 8)
    /// `MGMT_ERR_ECORRUPT` (9): corrupt request.
    public static let corrupt = SMPReturnCode(rawValue: 9)
    /// `MGMT_ERR_EBUSY` (10): busy, try later.
    public static let busy = SMPReturnCode(rawValue: 10)
    /// `MGMT_ERR_EACCESSDENIED` (11): access denied.
    public static let accessDenied = SMPReturnCode(rawValue: 11)
    /// `MGMT_ERR_UNSUPPORTED_TOO_OLD` (12): the requested SMP version is too old.
    public static let unsupportedTooOld = SMPReturnCode(rawValue: 12)
    /// `MGMT_ERR_UNSUPPORTED_TOO_NEW` (13): the requested SMP version is too new.
    public static let unsupportedTooNew = SMPReturnCode(rawValue: 13)
    /// `MGMT_ERR_EPERUSER` (256): the first application-defined code.
    public static let perUser = SMPReturnCode(rawValue: 256)

    /// Whether this is ``ok`` (0). Every other value, known or not, is a failure.
    public var isSuccess: Bool { rawValue == 0 }

    /// The C name: `"MGMT_ERR_EINVAL"`; `"MGMT_ERR_EPERUSER+N"` for codes above 256;
    /// `"MGMT_ERR_<n>"` for other unknown values.
    public var name: String {
        if let info = SMPReturnCodeInfo.info(for: rawValue) { return info.name }
        if rawValue > Self.perUser.rawValue { return "MGMT_ERR_EPERUSER+\(rawValue - Self.perUser.rawValue)" }
        return "MGMT_ERR_\(rawValue)"
    }

    /// What the code means and, where useful, what to try.
    public var sentence: String {
        if let info = SMPReturnCodeInfo.info(for: rawValue) { return info.sentence }
        if rawValue > Self.perUser.rawValue {
            let offset = rawValue - Self.perUser.rawValue
            return "application-defined error \(offset) (MGMT_ERR_EPERUSER + \(offset)); "
                + "its meaning is defined by the device's firmware"
        }
        return "unrecognised SMP error code \(rawValue); the device reported a failure this tool does not know"
    }

    /// `"MGMT_ERR_EINVAL (3): invalid argument or malformed request; …"`.
    public var description: String { "\(name) (\(rawValue)): \(sentence)" }
}
