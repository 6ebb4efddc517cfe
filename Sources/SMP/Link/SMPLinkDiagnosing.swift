/// A transport that can explain a silent or confused device from what it has seen on the link,
/// e.g. a serial console that echoes our requests back, or only garbage at a wrong baud rate.
public protocol SMPLinkDiagnosing: Sendable {
    /// A sentence naming the likely cause and what to do, or nil when nothing stands out.
    func diagnosis() async -> String?
}
