import SMP

/// A SUIT upgrade under way: its package, and whether the device already went silent (it
/// restarts on its own once it has installed the envelope).
struct SUITRun: Sendable {
    var package: SUITUpgradePackage
    var deviceWentSilent = false
    /// The device reported the envelope installed while resources were served.
    var sawInstalled = false
    var resourcesServed: [String] = []
}
