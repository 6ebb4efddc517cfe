/// One row of the `MGMT_ERR_*` table (docs/protocol/errors.md §1.8).
struct SMPReturnCodeInfo: Sendable {
    /// The `rc` value.
    let code: Int64
    /// The C name, e.g. `MGMT_ERR_EINVAL`.
    let name: String
    /// What it means and, where the error alone tells, what to try (the error's hint says what
    /// to do about "not supported" and "too large", which depends on the request).
    let sentence: String

    init(_ code: Int64, _ name: String, _ sentence: String) {
        self.code = code
        self.name = name
        self.sentence = sentence
    }

    /// The known codes, 0…13 and 256.
    static let all: [SMPReturnCodeInfo] = [
        .init(0, "MGMT_ERR_EOK", "success"),
        .init(1, "MGMT_ERR_EUNKNOWN",
              "unknown error: the device did not say more; check its log output (and enable "
              + "MCUMGR_SMP_VERBOSE_ERR_RESPONSE for a reason string)"),
        .init(2, "MGMT_ERR_ENOMEM",
              "the device ran out of memory or buffers; send smaller requests (e.g. a smaller chunk size) "
              + "or fewer at once"),
        .init(3, "MGMT_ERR_EINVAL",
              "invalid argument or malformed request; check the command's parameters and their types"),
        .init(4, "MGMT_ERR_ETIMEOUT", "the device timed out while handling the request; try again"),
        .init(5, "MGMT_ERR_ENOENT",
              "no such entry: the requested item (file, image, setting, statistic …) does not exist"),
        .init(6, "MGMT_ERR_EBADSTATE",
              "the device's current state does not allow this command (e.g. an image is pending or an "
              + "operation is in progress); check its state and try again"),
        .init(7, "MGMT_ERR_EMSGSIZE",
              "the answer does not fit in the device's SMP buffer"),
        .init(8, "MGMT_ERR_ENOTSUP",
              "not supported: the device does not implement this group or command"),
        .init(9, "MGMT_ERR_ECORRUPT",
              "the device found the request corrupt (undecodable CBOR or framing); check the link and retry"),
        .init(10, "MGMT_ERR_EBUSY", "the device is busy; try again in a moment"),
        .init(11, "MGMT_ERR_EACCESSDENIED",
              "access denied: the device (typically an application hook) refused the request; it may "
              + "need to be unlocked or put in the right mode first"),
        .init(12, "MGMT_ERR_UNSUPPORTED_TOO_OLD",
              "the device no longer accepts this SMP protocol version (built without original-protocol "
              + "support); use SMP version 2"),
        .init(13, "MGMT_ERR_UNSUPPORTED_TOO_NEW",
              "the device does not accept this SMP protocol version; retry with SMP version 1 (legacy)"),
        .init(256, "MGMT_ERR_EPERUSER",
              "application-defined error (MGMT_ERR_EPERUSER); its meaning is defined by the device's firmware"),
    ]

    private static let byCode: [Int64: SMPReturnCodeInfo] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The row for `code`, if it is a known code.
    static func info(for code: Int64) -> SMPReturnCodeInfo? { byCode[code] }
}
