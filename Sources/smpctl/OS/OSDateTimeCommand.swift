import ArgumentParser
import SMP

/// `smpctl os datetime [--set TIME|now]`
struct OSDateTimeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datetime",
        abstract: "Read the device's clock, or set it.",
        discussion: """
            --set takes ISO 8601 (2024-05-01T12:30:00, with optional .fff and zone Z, +01:00) or `now`.
            A time with a zone is converted to UTC, since devices keep no zone; `now` sets UTC.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Set the clock to this time, or `now`.", valueName: "time"))
    var set: String?

    func run() async throws {
        let target: SMPDateTime?
        do {
            target = try set.map(parseTime)
        } catch {
            // Reported like every other failure: exit 65, and the error document with --json.
            let failure = CLIError(error)
            global.output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        try await global.withClient { client, output in
            if let target {
                try await client.send(OSDateTimeWrite(target))
                let sent = target.inUTC.deviceString
                output.emit(.object([("set", .string(sent))]), human: "clock set to \(sent)")
            } else {
                let time = try await client.send(OSDateTimeRead())
                output.emit(.object([("datetime", .string(time.deviceString))]), human: time.deviceString)
            }
        }
    }

    private func parseTime(_ text: String) throws -> SMPDateTime {
        if text.lowercased() == "now" { return SMPDateTime(secondsSince1970: wallClockSeconds()) }
        guard let time = SMPDateTime(iso8601: text) else {
            throw CLIError(
                .dataError, "\"\(text)\" is not a valid date and time",
                hint: "use ISO 8601 such as 2024-05-01T12:30:00, 2024-05-01T12:30:00.250+02:00, or now")
        }
        return time
    }
}
