import CBOR
import SMP

/// The OS management group (0) as Zephyr implements it (docs/protocol/os.md §3): echo, console echo control, task
/// statistics, memory pool statistics, date-time, reset, MCUmgr parameters, OS/application info
/// and bootloader info. What differs between devices comes from the ``VirtualDeviceConfiguration``.
public struct OSGroup: SimulatedGroup {
    public var group: SMPGroup { .os }

    /// The real-time clock behind date-time.
    public internal(set) var clock: SimulatedRTC
    /// The console echo state set by console echo control (Mynewt-style devices only).
    public private(set) var consoleEcho = true

    /// Creates the group for a device with this configuration.
    public init(configuration: VirtualDeviceConfiguration) {
        clock = SimulatedRTC(initial: configuration.initialDateTime)
    }

    public func implements(command: UInt8) -> Bool {
        (OSCommandID.echo...OSCommandID.bootloaderInfo).contains(command)
    }

    // MCUmgr parameters are answered inline; the larger commands live in extensions, one file each.
    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        let configuration = context.configuration
        switch (request.command, request.operation) {
        case (OSCommandID.echo, _):
            return try echo(request)
        case (OSCommandID.consoleEcho, .write) where configuration.consoleEchoSupported:
            return try setConsoleEcho(request)
        case (OSCommandID.taskStatistics, .read):
            return taskStatistics(configuration)
        case (OSCommandID.memoryPoolStatistics, .read):
            guard let pools = configuration.memoryPools else { throw .notSupported }
            return memoryPoolStatistics(pools)
        case (OSCommandID.dateTime, .read):
            return try readDateTime(context)
        case (OSCommandID.dateTime, .write):
            return try writeDateTime(request, context: context)
        case (OSCommandID.reset, .write):
            return try reset(request, context: &context)
        case (OSCommandID.parameters, .read):
            return ["buf_size": .integer(configuration.bufferSize), "buf_count": .integer(configuration.bufferCount)]
        case (OSCommandID.info, .read):
            return try info(request, configuration: configuration)
        case (OSCommandID.bootloaderInfo, .read) where configuration.bootloaderInfo:
            return try bootloaderInfo(request, configuration: configuration)
        default:
            throw .notSupported
        }
    }

    /// Echo (cmd 0, read and write): `d` must be text; a missing `d` echoes the empty string.
    private func echo(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["d": .text])
        return ["r": .text(fields.text("d") ?? "")]
    }

    /// Console echo control (cmd 1, write), Mynewt-style: `{"echo": int}`, required.
    private mutating func setConsoleEcho(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        guard let value = try request.fields(["echo": .integer]).integer("echo") else { throw .invalidValue }
        consoleEcho = value != 0
        return [:]
    }
}
