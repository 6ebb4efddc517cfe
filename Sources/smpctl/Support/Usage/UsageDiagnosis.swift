import ArgumentParser

/// Turns a command line the argument parser refused into an error that names the real culprit,
/// worded like every other error of the tool (`error:` and `hint:` lines, or the JSON document).
///
/// The parser sees the arguments after ``LeadingOptions`` moved the global options, so on its own
/// it blames `-c` for a mistyped subcommand (`smpctl -c udp:… image lst`). This walks the command
/// line as the user wrote it: a word that is not a subcommand is reported as such, with the
/// closest subcommand and the list of them; an unknown option is reported with the closest option
/// (or its new name, ``RenamedOption``); a number out of range with the range (``NumericRange``).
enum UsageDiagnosis {
    /// The error for `error`, thrown by the parser for `arguments` (as the user wrote them, before
    /// ``LeadingOptions`` rearranged them).
    static func failure(for error: any Error, arguments: [String]) -> CLIError {
        let walk = CommandWalk(arguments)
        let name = walk.name
        let subcommands = walk.command.configuration.subcommands.map { $0.commandName }
        let parserMessage = SMPCtl.message(for: error)
        // A group with a default subcommand (`shell`) takes the word as that subcommand's argument.
        let unexpected = walk.wordForDefault.flatMap { word in
            parserMessage.lowercased().contains("unexpected argument") && parserMessage.contains("'\(word)'") ? word : nil
        }
        if let word = walk.unknownWord ?? unexpected {
            var message = "'\(word)' is not a subcommand of '\(name)'"
            if let closest = ClosestName.to(word, among: subcommands) { message += "; did you mean '\(closest)'?" }
            return CLIError(.usage, message, hint: "the subcommands of '\(name)': \(subcommands.joined(separator: ", ")) (see '\(name) --help')")
        }
        if walk.lacksSubcommand, parserMessage.hasPrefix("Unknown option") || parserMessage.hasPrefix("Missing required subcommand") {
            return CLIError(
                .usage, "'\(name)' needs a subcommand: \(subcommands.joined(separator: ", "))",
                hint: "for example: \(name) \(subcommands.first ?? "--help") (see '\(name) --help')")
        }
        let lines = SMPCtl.helpText(for: error).split(separator: "\n").map(String.init)
        let usage = lines.first { $0.hasPrefix("Usage: ") }.map { "usage: " + $0.dropFirst("Usage: ".count) }
        let seeHelp = "see '\(name) --help' for its options"
        let hint = [usage, seeHelp].compactMap { $0 }.joined(separator: "\n")
        if let option = quoted(after: "Unknown option ", in: parserMessage) {
            if let renamed = RenamedOption.find(option, command: walk.path) {
                return CLIError(.usage, "'\(name)' has no option \(option) any more: \(renamed.replacement)", hint: hint)
            }
            var message = "unknown option '\(option)' for '\(name)'"
            // The parser suggests its nearest option however far it is (`--ofset` → `--quiet`); only a near one is worth naming.
            if let suggestion = quoted(after: "Did you mean ", in: parserMessage), ClosestName.to(option, among: [suggestion]) != nil {
                message += "; did you mean '\(suggestion)'?"
            }
            if walk.stoppedAtOption {
                return CLIError(
                    .usage, message + " (before the subcommand)",
                    hint: "only the global options (\(LeadingOptions.names)) may come before the subcommand; "
                        + "give the others after it (see '\(name) SUBCOMMAND --help')")
            }
            return CLIError(.usage, message, hint: hint)
        }
        if parserMessage.hasPrefix("The value "), let value = quoted(after: "The value ", in: parserMessage),
           let option = quoted(after: "invalid for ", in: parserMessage).map({ String($0.prefix { $0 != " " }) }),
           let range = NumericRange.all[option] {
            return CLIError(.usage, range.refusal(of: value), hint: seeHelp)
        }
        if walk.path == ["raw"], let value = quoted(after: "Unexpected argument ", in: parserMessage), value.hasPrefix("{") {
            return CLIError(
                .usage, "unexpected argument '\(value)': --json prints the response as JSON; the payload is --payload-json",
                hint: "smpctl raw … --payload-json '\(value)'")
        }
        // The parser's own message for everything else ("Missing expected argument '<file>'").
        let help = lines.first { $0.hasPrefix("Help: ") }.map { $0.dropFirst("Help: ".count).trimmingSpaces }
        var message = lowercasingFirst(parserMessage)
        if parserMessage.hasPrefix("Missing expected argument"),
           let negative = arguments.prefix(while: { $0 != "--" }).first(where: isNegativeNumber) {
            message += " (\(negative) was read as an option: give a negative value after --, as in … -- \(negative))"
        }
        return CLIError(.usage, message, hint: [help, usage, seeHelp].compactMap { $0 }.joined(separator: "\n"))
    }

    /// The arguments with a negative number after the option the parser found without a value
    /// (it reads `-5` as an option) joined to it (`--timeout=-5`), or nil when the failure is not that.
    static func joiningNegativeValue(for error: any Error, in arguments: [String]) -> [String]? {
        let message = SMPCtl.message(for: error)
        guard message.hasPrefix("Missing value for "),
              let option = quoted(after: "Missing value for ", in: message).map({ String($0.prefix { $0 != " " }) })
        else { return nil }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard let index = arguments[..<end].indices.first(where: {
            arguments[$0] == option && $0 + 1 < end && isNegativeNumber(arguments[$0 + 1])
        }) else { return nil }
        var joined = arguments
        joined.replaceSubrange(index...(index + 1), with: ["\(option)=\(arguments[index + 1])"])
        return joined
    }

    /// `-5`, `-0.5`, `-1e3`: what the parser takes for an option.
    static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-") && Double(argument) != nil
    }

    /// The text between the quotes that follow `marker`: `'--ofset'` after "Unknown option ".
    private static func quoted(after marker: String, in text: String) -> String? {
        guard let start = text.firstRange(of: marker + "'")?.upperBound,
              let end = text[start...].firstIndex(of: "'")
        else { return nil }
        return String(text[start..<end])
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, !text.dropFirst().prefix(1).allSatisfy(\.isUppercase) else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// The subcommand path a command line names, walked as the user wrote it: global options
/// (``LeadingOptions``) may come anywhere before or between the subcommand words.
struct CommandWalk {
    /// The command reached.
    private(set) var command: any ParsableCommand.Type = SMPCtl.self
    /// The subcommand words that led there.
    private(set) var path: [String] = []
    /// A word where a subcommand of ``command`` belongs, which is none of them.
    private(set) var unknownWord: String?
    /// Whether the command line ends at a command that needs a subcommand.
    private(set) var lacksSubcommand = false
    /// Whether an option other than the global ones comes where a subcommand belongs.
    private(set) var stoppedAtOption = false
    /// A word that is not a subcommand of ``command``, which has a default subcommand (that may
    /// take the word as an argument).
    private(set) var wordForDefault: String?

    /// "smpctl image".
    var name: String { (["smpctl"] + path).joined(separator: " ") }

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, argument != "--" else { return }
            if command.configuration.defaultSubcommand != nil, !argument.hasPrefix("-"),
               !subcommands.contains(where: { $0.commandName == argument }) {
                wordForDefault = argument
                return
            }
            if argument.hasPrefix("-") {
                guard let length = LeadingOptions.globalOptionLength(at: index, in: arguments) else {
                    // A default subcommand takes the option as its own.
                    stoppedAtOption = command.configuration.defaultSubcommand == nil
                    return
                }
                index += length
                continue
            }
            guard let next = subcommands.first(where: { $0.commandName == argument }) else {
                // `smpctl help …` is the parser's own subcommand.
                if !(path.isEmpty && argument == "help") { unknownWord = argument }
                return
            }
            command = next
            path.append(argument)
            index += 1
        }
        lacksSubcommand = !command.configuration.subcommands.isEmpty && command.configuration.defaultSubcommand == nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
