import NordicDFU

extension CLIError {
    /// A legacy DFU failure: a refusal (an answer, or a serial bootloader's restart) is the
    /// device's error, silence a timeout, a lost link a transport failure, an answer that makes
    /// no sense (or comes in the other protocol) a protocol error, an image that cannot be sent
    /// bad data.
    init(legacyDFU error: LegacyDFUError) {
        let status: ExitStatus
        switch error.kind {
        case .refused, .packetsLost, .interruptedUpdate, .restarted: status = .deviceError
        case .noResponse: status = .timeout
        case .disconnected: status = .transport
        case .malformedResponse, .otherProtocol: status = .protocolError
        case .invalidInput: status = .dataError
        }
        self.init(status, error.message, hint: error.hint)
    }
}
