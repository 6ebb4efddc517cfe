import ArgumentParser

/// Lets global options come before the subcommand: `smpctl -c udp:host os echo` works like
/// `smpctl os echo -c udp:host`.
///
/// swift-argument-parser only accepts a command's options after its subcommand name, so leading
/// global options are moved to just after the subcommand path (never past a `--`).
enum LeadingOptions {
    /// Options that take a value.
    static let valued: Set<String> = ["-c", "--connection", "--timeout", "--retries", "--progress", "--log-file"]
    /// Flags.
    static let flags: Set<String> = ["--json", "-q", "--quiet"]

    /// The arguments with leading global options moved behind the subcommand words.
    static func reorder(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if valued.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else if flags.contains(argument) || isVerbosity(argument) || isJoinedValue(argument) {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        var command: any ParsableCommand.Type = root
        var pathLength = 0
        while pathLength < rest.count,
              let next = command.configuration.subcommands.first(where: { $0.commandName == rest[pathLength] }) {
            command = next
            pathLength += 1
        }
        // `raw` reads `--json` as its payload and prints JSON with `--format json`.
        if command == RawCommand.self {
            leading = leading.flatMap { $0 == "--json" ? ["--format", "json"] : [$0] }
        }
        rest.insert(contentsOf: leading, at: pathLength)
        return rest
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
