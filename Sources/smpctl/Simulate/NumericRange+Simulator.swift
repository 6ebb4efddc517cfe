/// The ranges of the virtual device's options (`simulate`, and `demo`'s fault injection).
extension NumericRange {
    private static func milliseconds(_ option: String, to highest: Double) -> NumericRange {
        NumericRange(option: option, quantity: "a whole number of milliseconds", lowest: 0, highest: highest)
    }

    private static func fraction(_ option: String) -> NumericRange {
        NumericRange(option: option, quantity: "a fraction", lowest: 0, highest: 1)
    }

    private static func bytes(_ option: String, from lowest: Double, to highest: Double) -> NumericRange {
        NumericRange(option: option, quantity: "a whole number of bytes", lowest: lowest, highest: highest)
    }

    private static func speed(_ option: String) -> NumericRange {
        NumericRange(option: option, quantity: "a speed in KiB per second", lowest: 0, excludesLowest: true)
    }

    static let resetDelay = milliseconds("--reset-delay", to: 600_000)
    static let bootTime = milliseconds("--boot-time", to: 600_000)
    static let eraseSpeed = speed("--erase-speed")
    static let writeSpeed = speed("--write-speed")
    static let writeAlignment = bytes("--write-alignment", from: 1, to: 4096)
    static let drop = fraction("--drop")
    static let duplicate = fraction("--duplicate")
    static let delay = fraction("--delay")
    static let reorder = fraction("--reorder")
    static let corrupt = fraction("--corrupt")
    static let busy = fraction("--busy")
    static let noise = fraction("--noise")
    static let crcErrors = fraction("--crc-errors")
    static let delayMs = milliseconds("--delay-ms", to: 60_000)
    static let seed = NumericRange(option: "--seed", quantity: "a whole number", lowest: 0)
    static let lineBuffers = NumericRange(option: "--line-buffers", quantity: "a whole number of buffers", lowest: 1, highest: 64)
    static let lineBufferSize = bytes("--line-buffer-size", from: 16, to: 65_536)
    static let lineDrainMs = milliseconds("--line-drain-ms", to: 10_000)
    static let rawBurstLimit = bytes("--raw-burst-limit", from: 1, to: 65_536)
    static let baud = NumericRange(option: "--baud", quantity: "a baud rate", lowest: 50, highest: 20_000_000)
    static let logLines = NumericRange(option: "--log-lines", quantity: "a number of lines per second", lowest: 0, highest: 1000)
    static let images = NumericRange(option: "--images", quantity: "a whole number of images", lowest: 0, highest: 3)
    static let slotSize = bytes("--slot-size", from: 4096, to: 67_108_864)
    static let bufSize = bytes("--buf-size", from: 64, to: 65_543)
    static let bufCount = NumericRange(option: "--buf-count", quantity: "a whole number of buffers", lowest: 1, highest: 64)
    static let recoveryBufSize = bytes("--recovery-buf-size", from: 128, to: 65_543)
    static let recoveryBufCount = NumericRange(option: "--recovery-buf-count", quantity: "a whole number of buffers", lowest: 1, highest: 64)
    static let recoveryWriteAlignment = bytes("--recovery-write-alignment", from: 1, to: 4096)
    static let fsCapacity = bytes("--fs-capacity", from: 0, to: 1_073_741_824)
    static let dfuLoseWrites = fraction("--dfu-lose-writes")
    static let dfuCorruptWrites = fraction("--dfu-corrupt-writes")
    static let dfuDisconnectAfter = bytes("--dfu-disconnect-after", from: 1, to: 67_108_864)

    /// The virtual device's ranges.
    static let simulator = [
        resetDelay, bootTime, eraseSpeed, writeSpeed, writeAlignment, drop, duplicate, delay, reorder, corrupt, busy, noise,
        crcErrors, delayMs, seed, lineBuffers, lineBufferSize, lineDrainMs, rawBurstLimit, baud, logLines, images, slotSize, bufSize, bufCount,
        recoveryBufSize, recoveryBufCount, recoveryWriteAlignment, fsCapacity, dfuLoseWrites, dfuCorruptWrites, dfuDisconnectAfter,
    ]
}
