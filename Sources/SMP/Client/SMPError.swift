/// Everything that can go wrong with a request, each case with a message a user can act on.
public enum SMPError: Error, Sendable, CustomStringConvertible {
    /// The device answered with an error.
    case device(SMPDeviceError, request: SMPRequestSummary)
    /// No valid response arrived in time, after every permitted attempt: `after` is each attempt's
    /// timeout, `elapsed` the time from the request's start to giving up (all attempts).
    case timeout(SMPRequestSummary, after: Duration, attempts: Int, lastDiscarded: String?, elapsed: Duration)
    /// The link failed or was closed.
    case transport(SMPTransportError)
    /// The response was matched but its payload does not have the expected form.
    case invalidResponse(SMPRequestSummary, SMPResponseError)
    /// The request does not fit in one message the link or the device accepts.
    case requestTooLarge(SMPRequestSummary, size: Int, limit: Int, limitSource: String)
    /// The request was cancelled by the caller.
    case cancelled(SMPRequestSummary)

    public var description: String {
        switch self {
        case .device(let error, let request):
            return "\(request): the device answered \(error)"
        case .timeout(let request, let after, let attempts, let lastDiscarded, let elapsed):
            var text = "\(request): no response within "
            if attempts > 1 {
                text += "\(Self.formatElapsed(elapsed)) (\(attempts) tries of \(Self.format(after)) each)"
            } else {
                text += Self.format(after)
            }
            if let lastDiscarded { text += "; an invalid response was discarded: \(lastDiscarded)" }
            return text
        case .transport(let error):
            return error.message
        case .invalidResponse(let request, let error):
            return "\(request): invalid response: \(error.detail)"
        case .requestTooLarge(let request, let size, let limit, let source):
            return "\(request): the request is \(size) bytes but at most \(limit) fit in one message (\(source))"
        case .cancelled(let request):
            return "\(request): cancelled"
        }
    }

    /// What the user could try, when there is something to suggest.
    public var hint: String? {
        switch self {
        case .device(let error, let request):
            if case .returnCode(let code, _, _) = error, code == .notSupported {
                return "it is probably not compiled in: check the firmware's Kconfig (\(request.group.enablingOption))"
            }
            if case .returnCode(let code, _, _) = error, code == .messageTooLarge {
                return "ask for less at once, or raise MCUMGR_TRANSPORT_NETBUF_SIZE in the firmware"
            }
            return nextStep?.description
        case .timeout:
            return "check that the device is powered, reachable and running an SMP server; a slow device may need a longer timeout (SMPClientConfiguration.timeout)"
        case .transport(let error):
            return error.advice
        case .requestTooLarge:
            return "send less data per request"
        case .invalidResponse:
            return "the device's SMP server may be of a version this library does not know; the frames, logged at trace level, show what came"
        case .cancelled:
            return nil
        }
    }

    /// A further step that a front end names in its own terms (smpctl names its command).
    public var nextStep: SMPNextStep? {
        switch self {
        case .device(.groupError(.os(.rtcNotSet)), _): .setDeviceClock
        case .transport(let error): error.nextStep
        default: nil
        }
    }

    /// "9.0 s", "850 ms": a measured time.
    private static func formatElapsed(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    private static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

/// Names a request in messages: "os echo (group 0, command 0)".
public struct SMPRequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// Management group.
    public var group: SMPGroup
    /// Command ID.
    public var command: UInt8
    /// Operation.
    public var operation: SMPOperation
    /// The command's name, when it has one.
    public var name: String?

    /// Summarises a request.
    public init(_ request: SMPRequest) {
        group = request.group
        command = request.command
        operation = request.operation
        name = request.name
    }

    public var description: String {
        let number = "group \(group.rawValue) command \(command) \(operation)"
        return name.map { "\($0) (\(number))" } ?? number
    }
}
