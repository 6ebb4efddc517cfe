/// Why a Secure DFU transfer failed: what happened, at which object and offset, and what to do.
public struct SecureDFUError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The bootloader refused a request: its result and, for an extended error, the code.
        case refused(SecureDFUResultCode, extendedErrorCode: UInt8?)
        /// An object's CRC still differed from ours after every attempt.
        case checksumMismatch
        /// The bootloader answered something that is not a valid answer.
        case malformedResponse
        /// The bootloader did not answer in time.
        case noResponse
        /// The link ended: the device went away (reset, unplugged) or the port failed.
        case disconnected
        /// The image or init packet cannot be sent as it is (empty, larger than the bootloader takes).
        case invalidInput
    }

    /// Whether running the same transfer again continues it: true when the link failed or the
    /// data arrived damaged; false when the bootloader refused what was sent, or the package
    /// cannot be sent as it is (a rerun meets the same refusal).
    public var isTransient: Bool {
        switch kind {
        case .checksumMismatch, .noResponse, .disconnected: return true
        case .refused, .malformedResponse, .invalidInput: return false
        }
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, where.
    public var message: String
    /// What to try.
    public var hint: String?
    /// The request that failed, if one did.
    public var request: SecureDFUOpCode?
    /// The object being sent.
    public var object: SecureDFUObjectType?
    /// Where in the init packet or image (bytes from its start).
    public var offset: UInt32?

    /// Creates an error.
    public init(
        _ kind: Kind, _ message: String, hint: String? = nil, request: SecureDFUOpCode? = nil, object: SecureDFUObjectType? = nil,
        offset: UInt32? = nil
    ) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.request = request
        self.object = object
        self.offset = offset
    }

    /// The message, then the hint.
    public var description: String { hint.map { "\(message) (\($0))" } ?? message }

    /// The bootloader refused `response`'s request.
    static func refused(_ response: SecureDFUResponse, object: SecureDFUObjectType?, offset: UInt32?) -> SecureDFUError {
        var message = "the bootloader refused \(response.request)"
        if let object { message += " of the \(object)" }
        if let offset { message += " at offset \(offset)" }
        let hint: String
        if response.result == .extendedError, let code = response.extendedErrorCode {
            if let extended = SecureDFUExtendedError(rawValue: code) {
                message += ": \(extended)"
                hint = extended.hint
            } else {
                message += ": extended error 0x\(String(code, radix: 16, uppercase: true))"
                hint = "an extended error this client does not know: the bootloader may be newer than the nRF5 SDK 17"
            }
        } else {
            message += ": \(response.result)"
            hint = response.result.hint
        }
        return SecureDFUError(
            .refused(response.result, extendedErrorCode: response.extendedErrorCode), message, hint: hint, request: response.request,
            object: object, offset: offset)
    }

    /// An answer that does not parse or does not fit its request.
    static func malformed(_ detail: String, request: SecureDFUOpCode?) -> SecureDFUError {
        SecureDFUError(
            .malformedResponse, "the bootloader's answer makes no sense: \(detail)",
            hint: "check that the port leads to a Secure DFU bootloader (nRF5 SDK 12–17) and that nothing else writes to it",
            request: request)
    }

    /// The extended error, when the bootloader reported one this client knows.
    public var extendedError: SecureDFUExtendedError? {
        guard case .refused(_, let code?) = kind else { return nil }
        return SecureDFUExtendedError(rawValue: code)
    }
}
