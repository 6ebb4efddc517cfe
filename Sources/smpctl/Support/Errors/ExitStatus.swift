import ArgumentParser
import JSON
import NordicDFU
import SMP
import SMPFleet
import SMPKit

/// The documented exit codes (docs/exit-codes.md); each kind of failure has its own.
enum ExitStatus: Int32, CaseIterable {
    /// Everything worked.
    case success = 0
    /// An unexpected internal failure.
    case internalError = 1
    /// The device answered with an error.
    case deviceError = 2
    /// A command run on many devices failed on some of them and succeeded on the others.
    case partialFailure = 3
    /// smpctl refused the request because of what it found on the device (a downgrade, an image
    /// number the device does not list, the wrong bootloader); nothing was written.
    case refused = 4
    /// Bad arguments or a malformed connection string.
    case usage = 64
    /// Bad input data (JSON, hex, a value out of range).
    case dataError = 65
    /// The device could not be reached (unknown host, nothing listening, transport unavailable).
    case transport = 69
    /// Standard output could not be written (closed, a reader that went away, a full disk); the
    /// command itself ran to its end.
    case outputError = 74
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
        case .partialFailure: return "partial"
        case .refused: return "refused"
        case .usage: return "usage"
        case .dataError: return "data"
        case .transport: return "transport"
        case .outputError: return "output"
        case .timeout: return "timeout"
        case .protocolError: return "protocol"
        case .interrupted: return "interrupted"
        }
    }

    /// The stable name in JSON error documents (`error.name`, docs/schema/v1).
    var jsonName: String {
        switch self {
        case .success: return "success"
        case .internalError: return "internal-error"
        case .deviceError: return "device-error"
        case .partialFailure: return "partial-failure"
        case .refused: return "refused"
        case .usage: return "usage-error"
        case .dataError: return "data-error"
        case .transport: return "transport-error"
        case .outputError: return "output-error"
        case .timeout: return "timeout"
        case .protocolError: return "protocol-error"
        case .interrupted: return "interrupted"
        }
    }

    /// The hint an error document carries when the failure has no more specific one.
    var defaultHint: String {
        switch self {
        case .success: return "nothing went wrong"
        case .internalError: return "this is a bug in smpctl; run again with -vv and report the output"
        case .deviceError: return "the device refused the request; see the device error's name and docs/exit-codes.md"
        case .partialFailure: return "the summary and the report name the devices that failed; run the same command again for them"
        case .refused: return "nothing was written; the message says what on the device rules the request out"
        case .usage: return "run the command with --help to see its arguments"
        case .dataError: return "check the value or file named in the message"
        case .transport:
            return "check the connection string (-c) and that the device is attached and powered; smpctl ports lists serial ports"
        case .outputError: return "standard output could not be written; check the pipe or the disk"
        case .timeout: return "check that the device runs an SMP server on this transport; raise --timeout or --retries for a slow link"
        case .protocolError: return "the device's answer was not valid SMP; check the transport settings (baud, framing) or run with -vv"
        case .interrupted: return "run the same command again to continue where it stopped"
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
        case let error as TargetSelectionError:
            self.init(targetSelection: error)
        case let error as ConnectionStringError:
            self.init(.usage, error.description, hint: "accepted forms:\n" + error.hint)
        case let error as TransferVerificationError:
            self.init(.deviceError, error.description, hint: error.cliHint)
        case let error as SecureDFUError:
            self.init(secureDFU: error)
        case let error as LegacyDFUError:
            self.init(legacyDFU: error)
        case let error as NordicDFUProtocolMismatchError:
            // A package for another bootloader is refused like a package that cannot be used.
            self.init(.dataError, error.description, hint: error.hint)
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
        case .transport(let failure):
            // A value the connection string accepted but the link refused (a baud rate) is bad input, not an unreachable device.
            status = failure.kind == .unsupportedSetting ? .dataError : .transport
        case .invalidResponse: status = .protocolError
        case .requestTooLarge: status = .dataError
        case .cancelled: status = .interrupted
        }
        self.init(status, error.description, hint: error.cliHint, deviceError: device)
    }

    /// The JSON error document printed with `--json` (docs/schema/v1: `error`).
    var json: JSONValue { .object([("error", jsonObject)]) }

    /// The `error` object: `code` (the exit status), `name`, `message`, `hint` (always) and, when the
    /// device answered with an error, `device`.
    var jsonObject: JSONValue {
        var members: [(String, JSONValue)] = [
            ("code", .int(Int64(status.rawValue))), ("name", .string(status.jsonName)), ("message", .string(message)),
            ("hint", .string(hint ?? status.defaultHint)),
        ]
        switch deviceError {
        case .returnCode(let code, let group, let reason)?:
            members.append(("device", .object([
                ("scope", .string("smp")), ("group", .uint(UInt64(group))), ("rc", .int(code.rawValue)),
                ("rcName", .string(code.name)), ("reason", reason.map(JSONValue.string) ?? .null),
            ])))
        case .groupError(let groupError)?:
            members.append(("device", .object([
                ("scope", .string("group")), ("group", .uint(UInt64(groupError.group))), ("rc", .int(groupError.code)),
                ("rcName", .string(groupError.name)), ("reason", .null),
            ])))
        case nil:
            break
        }
        return .object(members)
    }
}
