import SMP

extension SMPError {
    /// The hint as smpctl words it: the library's, with smpctl's option where the library names
    /// a setting of its own (a timeout is `--timeout` here).
    var cliHint: String? {
        switch self {
        case .timeout: "check that the device is powered, reachable and running an SMP server; a slow device may need a longer --timeout"
        default: hint
        }
    }
}
