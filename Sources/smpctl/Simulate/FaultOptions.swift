import ArgumentParser
import SMPSimulator

/// The fault-injection options shared by `simulate` and `demo`.
struct FaultOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Fraction of responses to drop.", valueName: "fraction"))
    var drop: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to send twice.", valueName: "fraction"))
    var duplicate: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to delay by --delay-ms.", valueName: "fraction"))
    var delay: Double = 0
    @Option(help: ArgumentHelp("How long a delayed response waits (milliseconds).", valueName: "ms"))
    var delayMs: Int = 100
    @Option(help: ArgumentHelp("Fraction of responses to hold back and send after the next one.", valueName: "fraction"))
    var reorder: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to corrupt.", valueName: "fraction"))
    var corrupt: Double = 0
    @Option(help: ArgumentHelp("Fraction of requests answered 'busy' (rc 10) without being processed.", valueName: "fraction"))
    var busy: Double = 0
    @Option(help: "Seed of the fault generator, for repeatable runs.")
    var seed: UInt64 = 0x5EED

    func validate() throws {
        let fractions: [(NumericRange, Double)] = [
            (.drop, drop), (.duplicate, duplicate), (.delay, delay), (.reorder, reorder), (.corrupt, corrupt), (.busy, busy),
        ]
        for (range, value) in fractions { try range.check(value) }
        try NumericRange.delayMs.check(delayMs)
    }

    var injection: FaultInjection {
        FaultInjection(
            drop: drop, duplicate: duplicate, delay: delay, delayDuration: .milliseconds(delayMs), reorder: reorder,
            corrupt: corrupt, busy: busy, seed: seed)
    }
}
