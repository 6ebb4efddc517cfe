import SMPFleet

extension CLIError {
    /// A selector, targets-file or discovery failure with its exit status: 64 a bad selector, 65 a
    /// bad targets file, 69 nothing found or discovery unavailable.
    init(targetSelection error: TargetSelectionError) {
        let status: ExitStatus = switch error.kind {
        case .usage: .usage
        case .data: .dataError
        case .notFound, .transport: .transport
        }
        self.init(status, error.message, hint: error.hint)
    }
}
