/// A reset the virtual device performed (OS command 5), after it answered the request.
public struct SimulatedReset: Sendable, Hashable {
    /// 1 for the first reset of this device, then counting up.
    public var number: Int
    /// Whether the request asked to force the reset.
    public var force: Bool
    /// The boot mode requested for the next boot (0 normal, 1 bootloader), if any.
    public var bootMode: UInt8?
    /// How long after its answer a real device would go down (Zephyr `MCUMGR_GRP_OS_RESET_MS`);
    /// a transport that simulates the link going away uses it.
    public var delay: Duration

    /// Creates a reset event.
    public init(number: Int, force: Bool, bootMode: UInt8?, delay: Duration) {
        self.number = number
        self.force = force
        self.bootMode = bootMode
        self.delay = delay
    }
}

/// What the application's reset hook (Zephyr `MCUMGR_GRP_OS_RESET_HOOK`) does with a reset request.
public enum SimulatedResetHook: Sendable, Hashable {
    /// No hook: every reset request is accepted.
    case none
    /// The application refuses with this error unless the request says `force: true`
    /// (a bool; Zephyr ignores a `force` of another type).
    case refuseUnlessForced(SimulatedError)
    /// The application always refuses with this error.
    case refuse(SimulatedError)
}
