import ArgumentParser
import SMPSerial
import SMPSimulator

/// The serial link: a pseudo-terminal linked at a path, behaving like a UART.
struct SerialServeOptions: ParsableArguments {
    @Option(name: .customLong("serial-link"), help: ArgumentHelp(
        "Also serve on a pseudo-terminal and make PATH a symbolic link to it, e.g. /tmp/ttySMP (open it like /dev/ttyACM0).",
        valueName: "path"))
    var link: String?

    @Option(help: ArgumentHelp("Pace the serial link like a UART at this baud rate (default: as fast as the pseudo-terminal).", valueName: "baud"))
    var baud: Int?

    @Option(help: ArgumentHelp(
        "Zephyr-style log lines per second on the serial link, plus one inside every multi-line answer.", valueName: "rate"))
    var logLines: Double = 0

    @Option(help: ArgumentHelp("Fraction of serial lines that get a burst of random bytes.", valueName: "fraction"))
    var noise: Double = 0

    @Option(help: ArgumentHelp("Fraction of serial answers sent with a CRC error.", valueName: "fraction"))
    var crcErrors: Double = 0

    @Option(help: ArgumentHelp(
        "How SMP travels on the serial link: console (Zephyr's UART transport), raw (bare SMP messages, its raw UART transport) or shell (console lines through an interactive Zephyr shell).",
        valueName: "framing"))
    var framing: SerialFraming = .console

    @Option(help: ArgumentHelp(
        "Receive line buffers for SMP lines, like Zephyr's CONFIG_UART_MCUMGR_RX_BUF_COUNT: a line that arrives while all are taken is dropped (default: unlimited; 2 with --framing shell).",
        valueName: "count"))
    var lineBuffers: Int?

    @Option(help: ArgumentHelp(
        "The longest SMP line a receive buffer holds, markers and newline included; longer lines are dropped (default 128; 127 with --framing shell).",
        valueName: "bytes"))
    var lineBufferSize: Int?

    @Option(help: ArgumentHelp("How long after a line's end its receive buffer stays taken (milliseconds).", valueName: "ms"))
    var lineDrainMs: Int = 10

    @Option(help: ArgumentHelp(
        "With --framing raw, receive like MCUboot's raw recovery: of bytes written back to back, only this many are kept (its 8 fragment buffers), the rest dropped; a partial message is dropped after 3 s without input.",
        valueName: "bytes"))
    var rawBurstLimit: Int?

    func validate() throws {
        if link == nil {
            let given = [
                ("baud", baud != nil), ("log-lines", logLines != 0), ("noise", noise != 0), ("crc-errors", crcErrors != 0),
                ("framing", framing != .console), ("line-buffers", lineBuffers != nil), ("line-buffer-size", lineBufferSize != nil),
                ("line-drain-ms", lineDrainMs != 10), ("raw-burst-limit", rawBurstLimit != nil),
            ]
            for (name, given) in given where given {
                throw ValidationError("--\(name) applies to the serial link: give --serial-link PATH too")
            }
        }
        if framing == .raw, lineBuffers != nil || lineBufferSize != nil || crcErrors != 0 {
            throw ValidationError(
                "--line-buffers, --line-buffer-size and --crc-errors apply to console lines: leave them out with --framing raw")
        }
        if framing != .raw, rawBurstLimit != nil {
            throw ValidationError("--raw-burst-limit applies to bare messages: give --framing raw too")
        }
        if framing == .console, lineBuffers == nil, lineBufferSize != nil || lineDrainMs != 10 {
            throw ValidationError("--line-buffer-size and --line-drain-ms shape the receive line buffers: give --line-buffers N too")
        }
        try NumericRange.lineBuffers.check(lineBuffers)
        try NumericRange.lineBufferSize.check(lineBufferSize)
        try NumericRange.lineDrainMs.check(lineDrainMs)
        try NumericRange.rawBurstLimit.check(rawBurstLimit)
        try NumericRange.baud.check(baud)
        try NumericRange.logLines.check(logLines)
        try NumericRange.noise.check(noise)
        try NumericRange.crcErrors.check(crcErrors)
    }

    func options(seed: UInt64) -> PTYSimulatorOptions {
        PTYSimulatorOptions(
            baudRate: baud, logLinesPerSecond: logLines, logLinesInsideFrames: logLines > 0, noise: noise,
            crcErrors: crcErrors, seed: seed, framing: framing, lineBuffers: receiveLineBuffers, rawBurstLimit: rawBurstLimit)
    }

    /// The receive line buffers asked for, or the shell transport's defaults.
    private var receiveLineBuffers: PTYSimulatorOptions.LineBuffers? {
        guard framing != .raw else { return nil }
        let defaults = framing == .shell ? PTYSimulatorOptions.LineBuffers.zephyrShell : .zephyrUART
        guard let count = lineBuffers ?? (framing == .shell ? defaults.count : nil) else { return nil }
        return PTYSimulatorOptions.LineBuffers(
            count: count, size: lineBufferSize ?? defaults.size, drain: .milliseconds(lineDrainMs))
    }

    /// "115200 baud, 2 log lines/s, noise 0.01" or "unpaced", with the framing and line buffers
    /// when they are not the defaults.
    static func describe(_ options: PTYSimulatorOptions) -> String {
        var parts = [options.baudRate.map { "\($0) baud" } ?? "unpaced"]
        if options.framing != .console { parts.append("\(options.framing.rawValue) framing") }
        if let buffers = options.lineBuffers {
            let drain = Int((buffers.drain.seconds * 1000).rounded())
            parts.append("\(buffers.count) line buffers of \(buffers.size) bytes, freed \(drain) ms after each line")
        }
        if let limit = options.rawBurstLimit { parts.append("bursts beyond \(limit) bytes dropped") }
        if options.logLinesPerSecond > 0 { parts.append("\(options.logLinesPerSecond.formatted) log lines/s") }
        if options.noise > 0 { parts.append("noise \(options.noise.formatted)") }
        if options.crcErrors > 0 { parts.append("CRC errors \(options.crcErrors.formatted)") }
        return parts.joined(separator: ", ")
    }
}

private extension Double {
    /// "2" rather than "2.0".
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
