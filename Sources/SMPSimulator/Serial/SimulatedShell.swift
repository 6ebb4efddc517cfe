/// The interactive Zephyr shell on a UART that also carries SMP (`CONFIG_MCUMGR_TRANSPORT_SHELL`),
/// as the `shell` fixture shows it: a coloured prompt, typed characters echoed, the commands of
/// the device's shell group (``SimulatedShellCommands``) answered, errors in red, and a warning
/// when an SMP line finds no buffer. SMP lines never reach it (``SerialLineBuffers`` takes them
/// out of the stream) and are not echoed.
struct SimulatedShell: Sendable {
    /// The device whose commands run (its version, for `kernel version`).
    let configuration: VirtualDeviceConfiguration

    /// The prompt the shell prints after every command (`uart:~$ ` in bold green).
    static let prompt = Array("\u{1B}[1;32muart:~$ \u{1B}[m".utf8)
    /// What the shell prints when it starts: a colour reset, a new line and the prompt.
    static let banner = Array("\u{1B}[m\r\n".utf8) + prompt
    /// The visible width of the prompt, for moving back over it.
    private static let promptWidth = 8

    /// The command line typed so far.
    private var typed: [UInt8] = []
    /// Whether the last byte was `\r` (a `\n` right after it does not run the line again).
    private var afterCarriageReturn = false

    /// A shell running the commands of a device with `configuration`.
    init(configuration: VirtualDeviceConfiguration) {
        self.configuration = configuration
    }

    /// What the shell prints for `bytes` typed at `uptime`: their echo and the output of every
    /// command they complete.
    mutating func input(_ bytes: [UInt8], uptime: Duration) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            defer { afterCarriageReturn = byte == 0x0D }
            switch byte {
            case 0x0D, 0x0A:
                if byte == 0x0A && afterCarriageReturn { continue }
                output += Array("\r\n".utf8) + run(String(decoding: typed, as: UTF8.self), uptime: uptime) + Self.prompt
                typed = []
            case 0x08, 0x7F:
                guard !typed.isEmpty else { continue }
                typed.removeLast()
                output += [0x08, 0x1B, 0x5B, 0x4B]  // back one column, erase to the end of the line
            case 0x20...0x7E:
                typed.append(byte)
                output.append(byte)
            default:
                continue  // other control characters are meta-keys the simulation does not offer
            }
        }
        return output
    }

    /// The warning the shell logs when an SMP line arrives while its receive buffers are full:
    /// the prompt line is cleared, the log line printed, and the prompt and command line redrawn.
    func overrunWarning(uptime: Duration) -> [UInt8] {
        let back = Self.promptWidth + typed.count
        let warning = "\u{1B}[\(back)D\u{1B}[J\(ConsoleLogLines.timestamp(uptime)) "
            + "\u{1B}[1;33m<wrn> smp_shell: Failed to alloc SMP buf\u{1B}[0m\r\n"
        return Array(warning.utf8) + Self.prompt + typed
    }

    /// The output of one command line, lines ending in `\r\n`; a failing command's in red.
    private func run(_ line: String, uptime: Duration) -> [UInt8] {
        let argv = line.split(separator: " ").map(String.init)
        guard !argv.isEmpty else { return [] }
        let result = SimulatedShellCommands.run(argv, context: SimulatedDeviceContext(configuration: configuration, uptime: uptime))
        return Array(SimulatedShellCommands.consoleText(result).utf8)
    }
}
