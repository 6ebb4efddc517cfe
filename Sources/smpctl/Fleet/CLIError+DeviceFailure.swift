import SMP
import SMPFleet

extension CLIError {
    /// The failure as a many-device report records it, with a few words for the summary's DETAIL
    /// column and the live view (the whole message is said once, below the summary).
    var deviceFailure: DeviceFailure {
        DeviceFailure(code: status.rawValue, name: status.jsonName, message: message, hint: hint ?? status.defaultHint, brief: brief)
    }

    /// The most a few words for a table cell may take.
    static let briefLimit = 40

    /// The failure in a few words: the message when it is that short, else the device's error
    /// name (`MGMT_ERR_ENOTSUP`), else what kind of failure it is (`no answer in time`).
    var brief: String {
        if message.count <= Self.briefLimit { return message }
        switch deviceError {
        case .returnCode(let code, _, _)?: return code.name
        case .groupError(let groupError)?: return groupError.name
        case nil: return status.brief
        }
    }

    /// The commands a hint may name that reach no device (`` `smpctl ports` ``).
    static let localCommands = ["ports", "ble", "targets", "profile", "demo", "simulate"]

    /// The error for one device of a many-device run: a hint that names an smpctl command for a
    /// device (`` `smpctl image list` ``) names the device too (`-c CONNECTION`), so that it works
    /// when pasted.
    func addressed(to target: DeviceTarget) -> CLIError {
        guard let hint else { return self }
        var addressed = self
        let marker = "`smpctl "
        let device = Self.option(naming: target)
        var text = ""
        var rest = Substring(hint)
        while let range = rest.firstRange(of: marker) {
            text += rest[..<range.lowerBound] + marker
            rest = rest[range.upperBound...]
            let word = rest.prefix { $0 != " " && $0 != "`" }
            if !word.hasPrefix("-") && !Self.localCommands.contains(String(word)) { text += device }
        }
        addressed.hint = text + rest
        return addressed
    }

    /// `-c CONNECTION ` as ``addressed(to:)`` writes it into a hint's commands.
    private static func option(naming target: DeviceTarget) -> String {
        "-c \(ShellQuoting.quoted(target.connection.description)) "
    }

    /// A hint ``addressed(to:)`` wrote for `target`, as it was before: the same for every device.
    static func unaddressed(_ hint: String, from target: DeviceTarget) -> String {
        hint.replacing("`smpctl " + option(naming: target), with: "`smpctl ")
    }

    /// The commands in a hint that name a device (`` `smpctl -c X os reset` ``), without their backquotes.
    static func deviceCommands(in hint: String) -> [String] {
        hint.matches(of: /`(smpctl -c [^`]+)`/).map { String($0.1) }
    }
}

extension ExitStatus {
    /// The kind of failure in a few words, for a table cell.
    var brief: String {
        switch self {
        case .success: "succeeded"
        case .internalError: "internal error"
        case .deviceError: "the device refused"
        case .partialFailure: "failed in part"
        case .refused: "refused by smpctl"
        case .usage: "usage error"
        case .dataError: "bad data"
        case .transport: "not reachable"
        case .outputError: "output lost"
        case .timeout: "no answer in time"
        case .protocolError: "answer not valid SMP"
        case .interrupted: "interrupted"
        }
    }
}
