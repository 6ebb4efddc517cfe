/// How SMP messages are carried on a serial byte stream (a tty, or TCP to ser2net or QEMU).
///
/// The byte stream and the framing are independent: any framing runs on any stream.
public enum SerialFraming: String, Sendable, Hashable, CaseIterable {
    /// "SMP over console" (docs/protocol/serial.md §15.1): base64 lines with 06 09 / 04 14 markers, a length and a CRC16,
    /// mixed with console text that is skipped. Zephyr's `CONFIG_MCUMGR_TRANSPORT_UART` and MCUboot
    /// serial recovery.
    case console
    /// Bare SMP messages, one after the other, delimited by the length in their header: Zephyr's
    /// raw UART transport (`CONFIG_MCUMGR_TRANSPORT_RAW_UART`) and MCUboot's raw recovery protocol.
    case raw
    /// The console framing carried through the Zephyr shell (`CONFIG_MCUMGR_TRANSPORT_SHELL`): the
    /// same lines, on a UART that also shows a prompt and shell output.
    case shell

    /// Whether messages travel as console lines (and so are paced line by line).
    public var usesConsoleLines: Bool { self != .raw }
}
