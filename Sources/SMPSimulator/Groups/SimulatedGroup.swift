import CBOR
import SMP

/// A management group of a ``VirtualDevice``: the OS group, and later image, file system, shell…
///
/// A group is a value that keeps its own state (flash slots, files…); the device owns it and
/// mutates it in place. Adding a group is adding a type that conforms to this protocol and
/// passing it to ``VirtualDevice/init(configuration:faultInjection:groups:uptime:)``.
public protocol SimulatedGroup: Sendable {
    /// The group ID this type answers.
    var group: SMPGroup { get }

    /// Whether the group has this command (for either operation). Requests with operation bits
    /// other than read and write are answered `MGMT_ERR_EINVAL` for known commands and
    /// `MGMT_ERR_ENOTSUP` for unknown ones, as Zephyr does.
    func implements(command: UInt8) -> Bool

    /// Handles one read or write request and returns the response fields, in order.
    ///
    /// Throw ``SimulatedError/notSupported`` for an unknown command or an operation the command
    /// lacks, an SMP-level error to replace the response by `{"rc": …}`, or a group error.
    mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap

    /// Called when a reset takes effect: ``VirtualDeviceConfiguration/resetDelay`` after the
    /// reset request was answered, before the next frame is processed or the group inspected.
    mutating func deviceDidReset(context: SimulatedDeviceContext)

    /// The group's name as enumeration details report it (`MCUMGR_GRP_ENUM_DETAILS_NAME`).
    var name: String { get }

    /// How many command handlers the group has, as enumeration details report it.
    var handlerCount: Int { get }
}

extension SimulatedGroup {
    /// Does nothing: most groups keep their state over a reset.
    public mutating func deviceDidReset(context: SimulatedDeviceContext) {}

    /// Zephyr's name for the group (`"os mgmt"`, `"img mgmt"`…), or the short name otherwise.
    public var name: String { SimulatedGroupInfo.zephyrName(of: group) }

    /// The commands from 0 to 255 the group ``implements(command:)``.
    public var handlerCount: Int { (0...UInt8.max).filter(implements(command:)).count }
}

/// What a group handler may know about, and ask of, the device.
public struct SimulatedDeviceContext: Sendable {
    /// The device's configuration.
    public let configuration: VirtualDeviceConfiguration
    /// Time since the device was created (monotonic), for clocks and timeouts: when the
    /// handling started.
    public let uptime: Duration
    /// A reset requested by the handler, performed after its response is sent.
    public private(set) var requestedReset: (force: Bool, bootMode: UInt8?)?
    /// The device time the handler reported with ``spend(_:)`` (flash erases and writes…).
    public private(set) var timeSpent: Duration = .zero
    /// The groups the device has, in its order (what enumeration reports).
    public let supportedGroups: [SimulatedGroupInfo]
    /// How many requests the device has processed, this one included (the `mgmt` statistics).
    public let requestsHandled: Int

    /// Creates a context.
    public init(
        configuration: VirtualDeviceConfiguration, uptime: Duration, supportedGroups: [SimulatedGroupInfo] = [],
        requestsHandled: Int = 0
    ) {
        self.configuration = configuration
        self.uptime = uptime
        self.supportedGroups = supportedGroups
        self.requestsHandled = requestsHandled
    }

    /// Asks the device to reset once the current response has been produced.
    public mutating func requestReset(force: Bool, bootMode: UInt8?) {
        requestedReset = (force, bootMode)
    }

    /// Reports that handling the request keeps the device busy for `duration` (flash erases and
    /// writes): its answer, and whatever the device processes next, comes that much later.
    public mutating func spend(_ duration: Duration) {
        timeSpent += max(.zero, duration)
    }
}
