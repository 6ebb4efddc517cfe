/// Enumeration group (10), Zephyr `enum enum_mgmt_err_code_t`; v1 translation from
/// `enum_mgmt.c` (only TOO_MANY_GROUP_ENTRIES → EINVAL, everything else EUNKNOWN).
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum EnumerationGroupError: Int64, SMPGroupErrorCode {
    /// `ENUM_MGMT_ERR_OK` (0).
    case ok = 0
    /// `ENUM_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `ENUM_MGMT_ERR_TOO_MANY_GROUP_ENTRIES` (2).
    case tooManyGroupEntries = 2
    /// `ENUM_MGMT_ERR_INSUFFICIENT_HEAP_FOR_ENTRIES` (3).
    case insufficientHeapForEntries = 3
    /// `ENUM_MGMT_ERR_INDEX_TOO_LARGE` (4).
    case indexTooLarge = 4

    public static let group = SMPGroup.enumeration
    public static let prefix = "ENUM_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the enumeration group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the enumeration group reported an unspecified error; check the device's log output",
                .unknown)
        case .tooManyGroupEntries:
            .init(
                "TOO_MANY_GROUP_ENTRIES",
                "more groups were asked about than the device can handle in one request; ask about fewer groups "
                    + "at a time",
                .invalidValue)
        case .insufficientHeapForEntries:
            .init(
                "INSUFFICIENT_HEAP_FOR_ENTRIES",
                "the device has too little heap to list the requested groups; ask about fewer groups at a time",
                .unknown)
        case .indexTooLarge:
            .init(
                "INDEX_TOO_LARGE",
                "the index is past the last group; indexes run from 0 to the group count minus 1",
                .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.enumeration(.indexTooLarge)`; also a pattern that matches it
    /// (`case .groupError(.enumeration(.indexTooLarge))`).
    public static func enumeration(_ code: EnumerationGroupError) -> SMPGroupError { SMPGroupError(code) }
}
