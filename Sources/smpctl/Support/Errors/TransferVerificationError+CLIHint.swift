import SMP

extension TransferVerificationError {
    /// The hint as smpctl words it: the library's, with the smpctl command where the library
    /// names the device's command (closing the open file is `smpctl fs close` here).
    var cliHint: String? {
        switch self {
        case .staleUpload: "close the device's open file (smpctl fs close) and run the command again"
        default: hint
        }
    }
}
