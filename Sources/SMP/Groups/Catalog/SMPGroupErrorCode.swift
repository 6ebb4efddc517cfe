/// A group's error enum: one case per `err.rc` value the group defines (docs/protocol/errors.md §1.9).
///
/// Every built-in group with error codes has one (``OSGroupError``, ``ImageGroupError``,
/// ``FileSystemGroupError`` …); an application-defined group declares its own next to its
/// ``SMPGroupDescriptor``. A device error matches a case directly:
///
/// ```swift
/// catch SMPError.device(.groupError(.fs(.fileNotFound)), _) { … }
/// catch SMPError.device(.groupError(SMPGroupError(MyGroupError.busy)), _) { … }
/// ```
public protocol SMPGroupErrorCode: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == Int64 {
    /// The group whose enum this is.
    static var group: SMPGroup { get }
    /// The enumerator prefix in the firmware's sources, e.g. `FS_MGMT_ERR_`.
    static var prefix: String { get }
    /// The code's name after the prefix, its sentence and its v1 translation.
    var info: SMPGroupErrorInfo { get }
}

extension SMPGroupErrorCode {
    /// The firmware's enumerator name, e.g. `IMG_MGMT_ERR_NO_FREE_SLOT`.
    public var name: String { Self.prefix + info.suffix }

    /// What the code means and, where useful, what to try.
    public var sentence: String { info.sentence }

    /// The `MGMT_ERR_*` code a v1 (legacy) exchange reports instead.
    public var legacyReturnCode: SMPReturnCode { info.legacy }

    /// The code with this value, type-erased (for catalogs that hold many groups).
    static func erasedCode(_ rawValue: Int64) -> (any SMPGroupErrorCode)? { Self(rawValue: rawValue) }

    /// Every code of the enum, in order, type-erased.
    static var erasedCodes: [any SMPGroupErrorCode] { allCases.map { $0 } }
}

/// What one value of a group's error enum means.
public struct SMPGroupErrorInfo: Sendable, Hashable {
    /// The name after the group prefix, e.g. `NO_FREE_SLOT` for `IMG_MGMT_ERR_NO_FREE_SLOT`.
    public let suffix: String
    /// What it means and, where useful, what to try.
    public let sentence: String
    /// The `MGMT_ERR_*` code a v1 (legacy) exchange reports instead.
    public let legacy: SMPReturnCode

    /// Describes a code: its name after the prefix, its sentence and its v1 translation.
    public init(_ suffix: String, _ sentence: String, _ legacy: SMPReturnCode) {
        self.suffix = suffix
        self.sentence = sentence
        self.legacy = legacy
    }
}
