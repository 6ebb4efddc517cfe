import NordicDFU

extension CLIError {
    /// A Secure DFU failure: a refusal is the device's error, silence a timeout, a lost link a
    /// transport failure, an answer that makes no sense a protocol error, a package that cannot
    /// be sent bad data.
    init(secureDFU error: SecureDFUError) {
        let status: ExitStatus
        switch error.kind {
        case .refused, .checksumMismatch: status = .deviceError
        case .noResponse: status = .timeout
        case .disconnected: status = .transport
        case .malformedResponse: status = .protocolError
        case .invalidInput: status = .dataError
        }
        self.init(status, error.message, hint: error.hint)
    }
}
