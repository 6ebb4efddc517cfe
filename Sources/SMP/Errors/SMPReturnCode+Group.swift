extension SMPReturnCode {
    /// Mynewt's log group, whose `rc` codes 7 and 9 are swapped (docs/protocol/errors.md §1.8).
    static let mynewtLogGroup: UInt16 = 4

    /// The standard code with the meaning this code has in a response of `group`.
    ///
    /// Mynewt's log group (4) defines `LOG_MGMT_ERR_ECORRUPT = 7` and `LOG_MGMT_ERR_EMSGSIZE = 9`,
    /// swapped relative to `MGMT_ERR_*` for compatibility with newtmgr, so there 7 means
    /// ``corrupt`` and 9 means ``messageTooLarge``. Every other code and group is returned unchanged.
    public func canonical(inGroup group: UInt16) -> SMPReturnCode {
        guard group == Self.mynewtLogGroup else { return self }
        switch self {
        case .messageTooLarge: return .corrupt
        case .corrupt: return .messageTooLarge
        default: return self
        }
    }

    /// The name of this code in a response of `group`: as ``name``, except that Mynewt's log
    /// group (4) names 7 `LOG_MGMT_ERR_ECORRUPT` and 9 `LOG_MGMT_ERR_EMSGSIZE`.
    public func name(inGroup group: UInt16) -> String {
        guard group == Self.mynewtLogGroup, canonical(inGroup: group) != self else { return name }
        return "LOG_" + canonical(inGroup: group).name
    }

    /// The ``sentence`` for the meaning this code has in a response of `group`
    /// (see ``canonical(inGroup:)``).
    public func sentence(inGroup group: UInt16) -> String {
        canonical(inGroup: group).sentence
    }
}
