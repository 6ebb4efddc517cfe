import CBOR
import SMP

/// The shell group (9) as Zephyr implements it (docs/protocol/groups.md §10): runs a command line of a few Zephyr-like
/// commands (``SimulatedShellCommands``: `echo`, `help`, `kernel uptime`, `kernel version`,
/// `device list`) and answers its captured output and return code, as Zephyr's dummy backend
/// captures it: a leading `\r\n`, lines ending in `\r\n`, a failing command's text in bold red.
///
/// An empty `argv` is refused with EMPTY_COMMAND, a command line that does not fit the shell's
/// command buffer with COMMAND_TOO_LONG, a request without an `argv` array with rc 3. The output
/// is cut to the capture buffer.
public struct ShellGroup: SimulatedGroup {
    public var group: SMPGroup { .shell }

    /// The group's buffers and return-code form.
    public let configuration: SimulatedShellConfiguration
    /// The command lines run so far, in order (the newest 256, for tests).
    public private(set) var executed: [[String]] = []

    /// Creates the group.
    public init(configuration: SimulatedShellConfiguration = SimulatedShellConfiguration()) {
        self.configuration = configuration
    }

    public func implements(command: UInt8) -> Bool { command == 0 }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        guard request.command == 0, request.operation == .write else { throw .notSupported }
        let argv = try Self.argv(in: request)
        guard !argv.isEmpty else { throw .groupError(ShellGroupError.emptyCommand) }
        let lineLength = argv.reduce(0) { $0 + $1.utf8.count } + argv.count - 1
        guard lineLength + 1 <= configuration.commandBufferSize else { throw .groupError(ShellGroupError.commandTooLong) }
        executed.append(argv)
        if executed.count > 256 { executed.removeFirst() }
        let result = SimulatedShellCommands.run(argv, context: context)
        // Zephyr's dummy shell backend captures what a console would show: the line end after
        // the (unechoed) command line, then the output with `\r\n` line ends and colours.
        let output = Self.truncated("\r\n" + SimulatedShellCommands.consoleText(result), toBytes: configuration.outputBufferSize - 1)
        var response: CBORMap = ["o": .text(output)]
        response[configuration.legacyReturnCode ? "rc" : "ret"] = .int(result.ret)
        return response
    }

    /// The `argv` array, as Zephyr's `shell_mgmt_exec()` reads it: no `argv` array is rc 3; the
    /// arguments end at the first element that is not text (those after it are ignored).
    private static func argv(in request: SimulatedRequest) throws(SimulatedError) -> [String] {
        guard let items = try request.payload()["argv"]?.arrayValue else { throw .invalidValue }
        return items.prefix { $0.stringValue != nil }.compactMap(\.stringValue)
    }

    /// The longest prefix of `text` that fits in `limit` UTF-8 bytes without splitting a character.
    private static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            result.append(character)
            used += size
        }
        return result
    }
}
