/// Explains, from what a serial link received, why a device may not be answering.
enum SerialLinkDiagnosis {
    /// A sentence naming the likely cause, or nil when nothing points to one.
    static func explain(_ statistics: SerialLinkStatistics, path: String, baudRate: Int) -> String? {
        let framing = statistics.framing
        if statistics.echoedRequests > 0 {
            return "our own requests came back from \(path) (\(statistics.echoedRequests) so far): the other end echoes "
                + "what it receives, so console echo is on (a terminal or shell rather than an SMP transport, "
                + "a socat link without raw,echo=0, or a Mynewt console: `smpctl os console-echo off`)"
        }
        if statistics.messagesSent > 0 && framing.bytes == 0 {
            return "nothing at all came back from \(path): check that this is the device's SMP port (a USB device "
                + "may have several), that the firmware runs SMP on this UART (CONFIG_MCUMGR_TRANSPORT_UART or "
                + "_SHELL), and that TX and RX are not swapped"
        }
        guard framing.bytes > 0 else { return nil }
        let damaged = framing.droppedPackets + framing.orphanContinuations
        if framing.packets == 0 {
            if statistics.unprintableBytes * 10 >= framing.bytes || damaged > 0 {
                return "\(framing.bytes) bytes came back from \(path) but not one valid SMP packet (\(describe(framing))): "
                    + "the baud rate is probably wrong; \(baudRate) is in use, try the device's (e.g. ?baud=115200)"
            }
            return "only console text came back from \(path) (\(framing.consoleBytes) bytes, no SMP packet): the port "
                + "carries a console or log but no SMP; enable CONFIG_MCUMGR_TRANSPORT_UART (or _SHELL) on this UART"
        }
        if damaged >= 3 && damaged * 4 >= framing.packets {
            return "many SMP packets from \(path) arrived damaged (\(describe(framing)), \(framing.packets) good): "
                + "the line is noisy or the baud rate is slightly off; try a lower rate or hardware flow control (?flow=rtscts)"
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
