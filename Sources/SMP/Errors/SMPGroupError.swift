/// A group-specific error from an SMP version 2 response: `"err": {"group": g, "rc": r}` (docs/protocol/errors.md §1.7, §1.9).
///
/// Its ``reason`` is typed: a case of the group's error enum (``FileSystemGroupError/fileNotFound``,
/// ``ImageGroupError/noFreeSlot`` …), or an unknown code kept with its number. Match one directly,
/// `case .groupError(.image(.noFreeSlot))` (each built-in enum has such a factory; any code works
/// as `.groupError(SMPGroupError(code))`), or ask ``code(as:)``.
///
/// Names are Zephyr's enumerator names (`IMG_MGMT_ERR_NO_FREE_SLOT`, `OS_MGMT_ERR_RTC_NOT_SET`,
/// `STAT_MGMT_ERR_…`, `SETTINGS_MGMT_ERR_…`, `FS_MGMT_ERR_…`, `SHELL_MGMT_ERR_…`, `ENUM_MGMT_ERR_…`,
/// `TRANSPORT_MGMT_ERR_…`, `ZEPHYRBASIC_MGMT_ERR_…`), so they can be searched for in the firmware's
/// sources. An unknown code of a known group is named `<PREFIX><n>` (`IMG_MGMT_ERR_40`); a code of a
/// group without an error enum `group <g> error <n>`.
public struct SMPGroupError: Hashable, Sendable, CustomStringConvertible {
    /// The group as reported in `err.group`.
    public let group: UInt16
    /// The group-specific code, `err.rc`.
    public let code: Int64
    /// The group the request that produced this error was sent to, when known.
    ///
    /// Zephyr's statistics group reports its errors with group 63 (Zephyr basic): when
    /// `requestGroup` is 2 and `group` is 63, the error is interpreted with the statistics enum.
    public let requestGroup: UInt16?

    /// An error as reported in `err`, optionally with the group of the request that produced it.
    public init(group: UInt16, code: Int64, requestGroup: UInt16? = nil) {
        self.group = group
        self.code = code
        self.requestGroup = requestGroup
    }

    /// The error a device reports for `code`: under its own group, or under `reportedAs` (the
    /// statistics group's errors say 63), with the request sent to the code's group.
    public init<Code: SMPGroupErrorCode>(_ code: Code, reportedAs: SMPGroup? = nil) {
        self.init(group: (reportedAs ?? Code.group).rawValue, code: code.rawValue, requestGroup: Code.group.rawValue)
    }

    /// What the error is, as far as this library knows.
    public enum Reason: Sendable {
        /// A code of the group's error enum.
        case known(any SMPGroupErrorCode)
        /// A code the group's enum lacks (the firmware may be newer).
        case unknownCode(group: SMPGroup, code: Int64)
        /// A group without an error enum (application-defined, Mynewt…).
        case unknownGroup(group: SMPGroup, code: Int64)
    }

    /// The descriptor whose error enum interprets this error, if its group has one.
    public var descriptor: SMPGroupDescriptor? {
        SMPGroupCatalog.errorDescriptor(forGroup: group, requestGroup: requestGroup)
    }

    /// The typed reason: the enum case, or the unknown code with its number.
    public var reason: Reason {
        guard let descriptor, let errors = descriptor.errors else {
            return .unknownGroup(group: SMPGroup(rawValue: group), code: code)
        }
        guard let known = errors.erasedCode(code) else { return .unknownCode(group: descriptor.group, code: code) }
        return .known(known)
    }

    /// The code as a case of `Code`, when the error belongs to that enum's group and the enum has it.
    public func code<Code: SMPGroupErrorCode>(as type: Code.Type) -> Code? {
        guard descriptor?.group == Code.group else { return nil }
        return Code(rawValue: code)
    }

    /// The known code, if any.
    private var known: (any SMPGroupErrorCode)? {
        if case .known(let known) = reason { return known }
        return nil
    }

    /// `"IMG_MGMT_ERR_NO_FREE_SLOT"`; `"IMG_MGMT_ERR_40"` for an unknown code of a known group;
    /// `"group 200 error 5"` for a group without an error enum.
    public var name: String {
        switch reason {
        case .known(let known): return known.name
        case .unknownCode: return (descriptor?.errors?.prefix ?? "") + String(code)
        case .unknownGroup: return "group \(group) error \(code)"
        }
    }

    /// What the error means and, where useful, what to try.
    public var sentence: String {
        switch reason {
        case .known(let known):
            return known.sentence
        case .unknownCode(let group, _):
            return "the \(group.descriptor?.title ?? String(group.rawValue)) group reported error \(code), which this "
                + "version of this library does not know (the firmware may be newer); look it up in the group's header in "
                + "the firmware's sources"
        case .unknownGroup:
            if group >= 64 {
                return "application-defined group \(group) reported error \(code); its meaning is defined by the "
                    + "device's firmware"
            }
            return "group \(group) reported error \(code), which this tool does not know"
        }
    }

    /// The `MGMT_ERR_*` code the device would report for this error in an SMP version 1 exchange
    /// (the group's translation table, docs/protocol/errors.md §1.9). Unknown codes and groups give ``SMPReturnCode/unknown``,
    /// never success.
    public var legacyReturnCode: SMPReturnCode { known?.legacyReturnCode ?? .unknown }

    /// `"IMG_MGMT_ERR_NO_FREE_SLOT (image group error 9): no free slot: …"`.
    public var description: String {
        guard let descriptor else { return "\(name): \(sentence)" }
        var location = "\(descriptor.title) group error \(code)"
        if descriptor.group.rawValue != group { location += ", reported as group \(group)" }
        return "\(name) (\(location)): \(sentence)"
    }

    /// Whether `value` means the same as `pattern` (same group enum, same code), however it was
    /// reported: `case .groupError(.image(.noFreeSlot))`, `case .groupError(SMPGroupError(code))`.
    public static func ~= (pattern: SMPGroupError, value: SMPGroupError) -> Bool {
        pattern.code == value.code && pattern.descriptor?.group.rawValue == value.descriptor?.group.rawValue
            && (pattern.descriptor != nil || pattern.group == value.group)
    }
}
