import ArgumentParser
import SMPSimulator

/// `smpctl simulate`'s reset timing, flash speeds, flash layout and write unit.
struct DeviceTimingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "How long after answering a reset the device goes down (Zephyr's MCUMGR_GRP_OS_RESET_MS); it answers with its old state meanwhile.",
        valueName: "ms"))
    var resetDelay: Int = 250

    @Option(help: ArgumentHelp(
        "How long the device stays silent after a reset (MCUboot's swap and the application's start); requests meanwhile get no answer.",
        valueName: "ms"))
    var bootTime: Int = 0

    @Option(help: ArgumentHelp(
        "Flash erase speed: the first upload chunk erases the image's size, image erase the whole slot (default: instant).",
        valueName: "KiB/s"))
    var eraseSpeed: Double?

    @Option(help: ArgumentHelp("Flash write speed for uploaded data (default: instant).", valueName: "KiB/s"))
    var writeSpeed: Double?

    @Option(help: ArgumentHelp(
        "Flash address of image 0's first slot; the other slots follow it. Direct-XIP images must be built for their slot's address.",
        valueName: "address"))
    var flashBase: String = "0x10000"

    @Option(help: ArgumentHelp(
        "Store uploaded image data only in whole units of this many bytes and answer the aligned offset, as MCUboot's serial recovery does (default 1: every byte).",
        valueName: "bytes"))
    var writeAlignment: Int = 1

    func validate() throws {
        try NumericRange.resetDelay.check(resetDelay)
        try NumericRange.bootTime.check(bootTime)
        try NumericRange.eraseSpeed.check(eraseSpeed)
        try NumericRange.writeSpeed.check(writeSpeed)
        try NumericRange.writeAlignment.check(writeAlignment)
        _ = try flashBaseAddress()
    }

    /// Sets the reset timing of a device configuration.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        configuration.resetDelay = .milliseconds(resetDelay)
        configuration.bootTime = .milliseconds(bootTime)
    }

    /// Sets the flash speeds and layout of an image configuration.
    func apply(to images: inout SimulatedImageConfiguration) throws {
        images.flashTiming = SimulatedFlashTiming(
            eraseBytesPerSecond: eraseSpeed.map { $0 * 1024 }, writeBytesPerSecond: writeSpeed.map { $0 * 1024 })
        images.flashBase = try flashBaseAddress()
        images.writeAlignment = writeAlignment
    }

    /// `--flash-base`: hexadecimal with 0x, or decimal, within the 32-bit address space MCUboot
    /// headers use.
    private func flashBaseAddress() throws -> UInt64 {
        let text = flashBase.lowercased()
        let value = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text, radix: 10)
        guard let value, value <= UInt64(UInt32.max) else {
            throw ValidationError("--flash-base \(flashBase) is not an address: use hexadecimal such as 0x10000, or decimal, up to 0xffffffff")
        }
        return value
    }
}
