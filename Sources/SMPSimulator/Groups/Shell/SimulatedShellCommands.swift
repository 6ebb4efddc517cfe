import SMP

/// The Zephyr-like commands a virtual device's shell knows, and what they print and return.
enum SimulatedShellCommands {
    /// Zephyr's `-ENOEXEC`: the shell's return code for an unknown command.
    static let commandNotFound: Int64 = -8
    /// Zephyr's `-EINVAL`: wrong parameters.
    static let invalidArguments: Int64 = -22
    /// `SHELL_CMD_HELP_PRINTED`: a command with subcommands ran without one.
    static let helpPrinted: Int64 = 1

    /// The devices `device list` shows.
    static let devices = ["uart@40002000", "gpio@50000000", "flash-controller@4001e000", "i2c@40003000"]

    private static let kernelHelp = """
        kernel - Kernel commands
        Subcommands:
          uptime   : Kernel uptime.
          version  : Kernel version.

        """

    private static let help = """
        Available commands:
          device  : Device commands
          echo    : Print the arguments
          help    : Prints the help message.
          kernel  : Kernel commands

        """

    /// Runs `argv` (not empty) and returns its output and return code.
    static func run(_ argv: [String], context: SimulatedDeviceContext) -> (output: String, ret: Int64) {
        let arguments = Array(argv.dropFirst())
        switch argv[0] {
        case "echo":
            return (arguments.joined(separator: " ") + "\n", 0)
        case "help":
            return (help, 0)
        case "kernel":
            return kernel(arguments, context: context)
        case "device":
            guard arguments == ["list"] else { return wrongParameters("device", arguments) }
            return ("devices:\n" + devices.map { "- \($0) (READY)\n" }.joined(), 0)
        default:
            return ("\(argv[0]): command not found\n", commandNotFound)
        }
    }

    /// `result` as Zephyr's shell writes it on a console: lines ending in `\r\n`, a failing
    /// command's (negative return code) in bold red.
    static func consoleText(_ result: (output: String, ret: Int64)) -> String {
        let text = result.output.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        return result.ret < 0 ? "\u{1B}[1;31m\(text)\u{1B}[m" : text
    }

    private static func kernel(_ arguments: [String], context: SimulatedDeviceContext) -> (output: String, ret: Int64) {
        guard let subcommand = arguments.first else { return (kernelHelp, helpPrinted) }
        guard arguments.count == 1 else { return wrongParameters("kernel \(subcommand)", Array(arguments.dropFirst())) }
        switch subcommand {
        case "uptime":
            let milliseconds = context.uptime.components.seconds * 1000 + context.uptime.components.attoseconds / 1_000_000_000_000_000
            return ("Uptime: \(milliseconds) ms\n", 0)
        case "version":
            return ("Zephyr version \(context.configuration.identity.version)\n", 0)
        default:
            return wrongParameters("kernel", arguments)
        }
    }

    private static func wrongParameters(_ command: String, _ arguments: [String]) -> (output: String, ret: Int64) {
        let detail = arguments.first.map { "\($0): unknown parameter" } ?? "wrong parameter count"
        return ("\(command): \(detail)\n", invalidArguments)
    }
}
