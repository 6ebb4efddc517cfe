/// Zephyr-style log lines (`[00:00:01.234,000] <inf> main: …`), as a device's console prints
/// them on the UART it shares with SMP.
struct ConsoleLogLines: Sendable {
    private static let messages = [
        ("inf", "main", "heartbeat"), ("dbg", "sensor", "sample ready"), ("inf", "net_mgmt", "interface up"),
        ("wrn", "bt_hci_core", "no ID address, generating one"), ("inf", "mcumgr", "smp: idle"),
        ("err", "flash", "retrying erase"),
    ]
    private var count = 0

    /// The next line, stamped with `uptime`, ending in `\r\n` as Zephyr's console sends it.
    mutating func next(uptime: Duration) -> [UInt8] {
        let (level, module, text) = Self.messages[count % Self.messages.count]
        count += 1
        return Array("\(Self.timestamp(uptime)) <\(level)> \(module): \(text) #\(count)\r\n".utf8)
    }

    /// `[HH:MM:SS.mmm,uuu]`.
    static func timestamp(_ uptime: Duration) -> String {
        let (seconds, attoseconds) = uptime.components
        let microseconds = max(0, attoseconds / 1_000_000_000_000)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "[\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
            + ".\(pad(microseconds / 1000, 3)),\(pad(microseconds % 1000, 3))]"
    }
}
