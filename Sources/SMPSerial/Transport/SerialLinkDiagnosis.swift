/// Explains, from what a serial link received, why a device may not be answering.
enum SerialLinkDiagnosis {
    /// A sentence naming the likely cause, or nil when nothing points to one.
    static func explain(
        _ statistics: SerialLinkStatistics, path: String, baudRate: Int, framing kind: SerialFraming = .console
    ) -> String? {
        let framing = statistics.framing
        if statistics.echoedRequests > 0 {
            return "our own requests came back from \(path) (\(statistics.echoedRequests) so far): the other end echoes "
                + "what it receives, so console echo is on (a terminal or shell rather than an SMP transport, "
                + "a socat link without raw,echo=0, or a Mynewt console, whose echo the OS group's echo command turns off)"
        }
        if statistics.messagesSent > 0 && framing.bytes == 0 {
            let transports = kind == .raw
                ? "CONFIG_MCUMGR_TRANSPORT_RAW_UART" : "CONFIG_MCUMGR_TRANSPORT_UART or _SHELL; or ?framing=raw for a raw UART transport"
            return "nothing at all came back from \(path): check that this is the device's SMP port (a USB device "
                + "may have several), that the firmware runs SMP on this UART (\(transports)), and that TX and RX are "
                + "not swapped"
        }
        guard framing.bytes > 0 else { return nil }
        if kind == .raw {
            return "\(framing.bytes) bytes came back from \(path) but not one SMP message: check that the device runs "
                + "the raw UART transport (CONFIG_MCUMGR_TRANSPORT_RAW_UART; leave out ?framing=raw for the console "
                + "framing) and the baud rate (\(baudRate) in use)"
        }
        let damaged = framing.droppedPackets + framing.orphanContinuations
        if framing.packets == 0 {
            if statistics.unprintableBytes * 10 >= framing.bytes || damaged > 0 {
                return "\(framing.bytes) bytes came back from \(path) but not one valid SMP packet (\(describe(framing))): "
                    + "the baud rate is probably wrong; \(baudRate) is in use, try the device's (e.g. ?baud=115200)"
            }
            if kind == .shell || statistics.shellPromptSeen {
                return "only shell output came back from \(path) (\(framing.consoleBytes) bytes, no SMP packet): a Zephyr "
                    + "shell runs on this UART but passed nothing to SMP; enable CONFIG_MCUMGR_TRANSPORT_SHELL (or put "
                    + "CONFIG_MCUMGR_TRANSPORT_UART on this UART), and check that the request fits the shell's SMP buffers"
            }
            return "only console text came back from \(path) (\(framing.consoleBytes) bytes, no SMP packet): the port "
                + "carries a console or log but no SMP; enable CONFIG_MCUMGR_TRANSPORT_UART (or _SHELL) on this UART"
        }
        if damaged >= 3 && damaged * 4 >= framing.packets {
            return "many SMP packets from \(path) arrived damaged (\(describe(framing)), \(framing.packets) good): "
                + "the line is noisy or the baud rate is slightly off; try a lower rate or hardware flow control (?flow=rtscts)"
        }
        if statistics.messagesSent > framing.packets {
            let answers = "\(framing.packets) answer\(framing.packets == 1 ? "" : "s")"
            return "the device sent \(answers) on \(path) before, so the link works: the request was lost on the way "
                + "(a device whose line buffers overflow: set the pacing, e.g. ?burst=1&gap=40) or the device is busy "
                + "or stopped answering (check its console or reset it)"
        }
        return nil
    }

    /// The non-zero error counts, e.g. "3 CRC errors, 1 invalid base64 line".
    static func describe(_ framing: SerialFrameDecoder.Statistics) -> String {
        let counts = [
            (framing.crcErrors, "CRC error"), (framing.base64Errors, "invalid base64 line"),
            (framing.lengthErrors, "length error"), (framing.oversizeLines, "oversize line"),
            (framing.orphanContinuations, "stray continuation line"), (framing.abandonedPackets, "incomplete packet"),
        ]
        let parts = counts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return parts.isEmpty ? "no framing errors" : parts.joined(separator: ", ")
    }
}
