import SMP

extension SMPError {
    /// The hint as smpctl words it: the library's, with smpctl's option where the library names
    /// a setting of its own (a timeout is `--timeout` here) and smpctl's command for a next step.
    var cliHint: String? {
        switch self {
        case .timeout: "check that the device is powered, reachable and running an SMP server; a slow device may need a longer --timeout"
        case .invalidResponse: "the device's SMP server may be of a version this tool does not know; run with -vvv to see the frames"
        case .transport(let error): SMPNextStep.cliHint(error.hint, nextStep)
        case .device(.groupError(.os(.rtcNotSet)), _): SMPNextStep.cliHint(nil, nextStep)
        case .device(.groupError(.image(.currentVersionIsNewer)), _): "smpctl sends upgrade=true for --newer-only"
        default: hint
        }
    }
}
