import ArgumentParser

/// `--suit-poll-window`: how long a SUIT device may ask for no resource before serving stops
/// (shared by `upgrade` and `suit upload`).
struct SUITPollOptions: ParsableArguments {
    @Option(help: ArgumentHelp("SUIT: seconds the device may ask for no resource before processing counts as done.", valueName: "seconds"))
    var suitPollWindow: Double = 5

    func validate() throws {
        try NumericRange.suitPollWindow.check(suitPollWindow)
    }

    /// The window as a duration.
    var window: Duration { .seconds(suitPollWindow) }

    /// The option as arguments for a command that continues (nothing when it has its default).
    var resumeArguments: [String] {
        suitPollWindow == 5 ? [] : ["--suit-poll-window", "\(suitPollWindow)"]
    }
}
