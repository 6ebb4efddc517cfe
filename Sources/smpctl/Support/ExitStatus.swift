import ArgumentParser
import SMP
import SMPKit

/// The documented exit codes (docs/exit-codes.md); each kind of failure has its own.
enum ExitStatus: Int32, CaseIterable {
    /// Everything worked.
    case success = 0
    /// An unexpected internal failure.
    case internalError = 1
    /// The device answered with an error.
    case deviceError = 2
    /// Bad arguments or a malformed connection string.
    case usage = 64
    /// Bad input data (JSON, hex, a value out of range).
    case dataError = 65
    /// The device could not be reached (unknown host, nothing listening, transport unavailable).
    case transport = 69
    /// The device did not answer in time.
    case timeout = 75
    /// The device's answer was not valid SMP.
    case protocolError = 76
    /// Interrupted (Ctrl-C).
    case interrupted = 130

    /// A short machine-readable name for JSON error documents.
    var name: String {
        switch self {
        case .success: return "success"
        case .internalError: return "internal"
        case .deviceError: return "device"
        case .usage: return "usage"
        case .dataError: return "data"
        case .transport: return "transport"
        case .timeout: return "timeout"
        case .protocolError: return "protocol"
        case .interrupted: return "interrupted"
        }
    }
}

/// A failure as the CLI reports it: what went wrong, what to try, and the exit status.
struct CLIError: Error, CustomStringConvertible {
    var status: ExitStatus
    var message: String
    var hint: String?
    /// The device's error, for the JSON document.
    var deviceError: SMPDeviceError?

    init(_ status: ExitStatus, _ message: String, hint: String? = nil, deviceError: SMPDeviceError? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
        self.deviceError = deviceError
    }

    var description: String { message }

    /// Classifies any error the library throws.
    init(_ error: any Error) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as SMPError:
            self.init(smp: error)
        case let error as SMPTransportError:
            self.init(smp: .transport(error))
        case let error as FileAccessError:
            self = FSLocalFile.cliError(error)
        case let error as ConnectionStringError:
            self.init(.usage, error.description, hint: "accepted forms:\n" + error.hint)
        case let error as TransferVerificationError:
            self.init(.deviceError, error.description, hint: error.hint)
        default:
            self.init(.internalError, "\(error)")
        }
    }

    private init(smp error: SMPError) {
        let status: ExitStatus
        var device: SMPDeviceError?
        switch error {
        case .device(let deviceError, _):
            status = .deviceError
            device = deviceError
        case .timeout: status = .timeout
        case .transport: status = .transport
        case .invalidResponse: status = .protocolError
        case .requestTooLarge: status = .dataError
        case .cancelled: status = .interrupted
        }
        self.init(status, error.description, hint: error.hint, deviceError: device)
    }

    /// The JSON error document printed with `--json`.
    var json: JSONValue { .object([("error", .object(jsonMembers))]) }

    /// The members of the error document: `kind`, `exitCode`, `message`, `hint`?, `device`?.
    var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("kind", .string(status.name)), ("exitCode", .int(Int64(status.rawValue))), ("message", .string(message)),
        ]
        if let hint { members.append(("hint", .string(hint))) }
        switch deviceError {
        case .returnCode(let code, _, let reason)?:
            members.append(("device", .object([
                ("rc", .int(code.rawValue)), ("name", .string(code.name)), ("reason", reason.map(JSONValue.string) ?? .null),
            ])))
        case .groupError(let groupError)?:
            members.append(("device", .object([
                ("group", .uint(UInt64(groupError.group))), ("rc", .int(groupError.code)), ("name", .string(groupError.name)),
            ])))
        case nil:
            break
        }
        return members
    }
}
