/// The shell group of a ``VirtualDevice`` (docs/protocol/groups.md §10): its buffers and how it reports return codes.
public struct SimulatedShellConfiguration: Sendable, Hashable {
    /// `MCUMGR_GRP_SHELL_BACKEND_DUMMY_BUF_SIZE`: the buffer that captures a command's output,
    /// terminating NUL included, so the output holds at most one byte less. At least 2.
    public var outputBufferSize: Int {
        didSet { outputBufferSize = max(2, outputBufferSize) }
    }
    /// `SHELL_CMD_BUFF_SIZE`: the command line (arguments joined by spaces) plus its NUL must
    /// fit, or the request is refused with COMMAND_TOO_LONG. At least 2.
    public var commandBufferSize: Int {
        didSet { commandBufferSize = max(2, commandBufferSize) }
    }
    /// `MCUMGR_GRP_SHELL_LEGACY_RC_RETURN_CODE`: put the command's return code in `rc` instead
    /// of `ret`.
    public var legacyReturnCode: Bool

    /// Creates a configuration; the defaults are Zephyr's (256-byte buffers, `ret`).
    public init(outputBufferSize: Int = 256, commandBufferSize: Int = 256, legacyReturnCode: Bool = false) {
        self.outputBufferSize = max(2, outputBufferSize)
        self.commandBufferSize = max(2, commandBufferSize)
        self.legacyReturnCode = legacyReturnCode
    }
}
