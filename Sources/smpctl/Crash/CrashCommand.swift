import ArgumentParser
import SMP

/// `smpctl crash …`: Mynewt's crash test group (5).
struct CrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash", abstract: "Crash group (Mynewt): make the device crash on purpose, to test crash handling.",
        subcommands: [CrashTestCommand.self])
}

extension CrashTest.Kind: ExpressibleByArgument {}

/// `smpctl crash test div0|jump0|ref0|assert|wdog [--yes]`
struct CrashTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Make the device crash: div0, jump0, ref0, assert or wdog.",
        discussion: """
            The device resets at once, so it usually never answers: no answer within --timeout counts as \
            success ("the device crashed as asked"). Asks for confirmation unless --yes is given; without a \
            terminal it refuses unless --yes is given.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("How to crash: \(CrashTest.Kind.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "kind"))
    var kind: CrashTest.Kind

    @OptionGroup var confirmation: ConfirmationOptions

    func run() async throws {
        try global.preflight {
            try confirmation.confirm("Crash the device (\(kind.rawValue))? It will reset.", action: "crash the device")
        }
        try await global.withClient { client, output in
            let answered = try await client.crash(kind)
            let text = answered
                ? "the device accepted the crash request (\(kind.rawValue)) and answered before crashing"
                : "the device crashed as asked (\(kind.rawValue); no answer)"
            output.emit(.object([("crash", .string(kind.rawValue)), ("answered", .bool(answered))]), human: text)
        }
    }
}
