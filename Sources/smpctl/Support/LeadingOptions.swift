import ArgumentParser

/// Lets global options come before the subcommand: `smpctl -c udp:host os echo` works like
/// `smpctl os echo -c udp:host`.
///
/// swift-argument-parser only accepts a command's options after its subcommand name, so global
/// options found before or between the subcommand words are moved to just after the subcommand
/// path (never past a `--`). Every option of ``GlobalOptions`` must be listed here
/// (OptionTableTests checks it).
enum LeadingOptions {
    /// Options that take a value.
    static let valued: Set<String> = ["-c", "--connection", "-p", "--profile", "--timeout", "--retries", "--progress", "--log-file", "--targets", "--jobs", "--report"]
    /// Flags.
    static let flags: Set<String> = ["--json", "-q", "--quiet"]

    /// "-c, --connection, --json, --retries, --timeout, -v": the global options, for messages.
    static var names: String {
        (valued.union(flags).sorted { $0.drop { $0 == "-" } < $1.drop { $0 == "-" } } + ["-v"]).joined(separator: ", ")
    }

    /// The arguments with the global options among the subcommand words (`smpctl -c udp:host os
    /// echo`, `smpctl os -c udp:host echo`) moved behind the last of them.
    static func reorder(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var moved: [String] = []
        var path: [String] = []
        var command: any ParsableCommand.Type = root
        var index = 0
        while index < arguments.count {
            if let length = globalOptionLength(at: index, in: arguments) {
                moved += arguments[index..<(index + length)]
                index += length
            } else if let next = command.configuration.subcommands.first(where: { $0.commandName == arguments[index] }) {
                command = next
                path.append(arguments[index])
                index += 1
            } else {
                break
            }
        }
        guard !moved.isEmpty else { return arguments }
        return path + moved + arguments[index...]
    }

    /// How many arguments the global option at `index` takes up (2 for `-c HOST`, 1 for `--json`
    /// or `--timeout=5`), or nil when `arguments[index]` is not a global option.
    static func globalOptionLength(at index: Int, in arguments: [String]) -> Int? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        if valued.contains(argument) { return index + 1 < arguments.count ? 2 : nil }
        return flags.contains(argument) || isVerbosity(argument) || isJoinedValue(argument) ? 1 : nil
    }

    private static func isVerbosity(_ argument: String) -> Bool {
        argument.count >= 2 && argument.hasPrefix("-") && argument.dropFirst().allSatisfy { $0 == "v" }
    }

    private static func isJoinedValue(_ argument: String) -> Bool {
        valued.contains { argument.hasPrefix($0 + "=") } || (argument.hasPrefix("-c") && argument.count > 2 && !argument.hasPrefix("--"))
    }
}

extension ParsableCommand {
    /// The name the command is invoked by.
    static var commandName: String {
        configuration.commandName ?? String(describing: Self.self).lowercased()
    }
}
