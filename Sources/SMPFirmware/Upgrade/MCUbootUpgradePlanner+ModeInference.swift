import SMP

extension MCUbootUpgradePlanner {
    /// The bootloader mode to plan with: the one the device reports, else one the images'
    /// headers imply (``MCUbootUpgradeImage/flags``), else ``MCUbootMode/unknown``. The plan's notes say
    /// what was inferred and why.
    ///
    /// - `RAM_LOAD` on every image: RAM load (MCUboot copies the highest version to RAM; no
    ///   marks).
    /// - `ROM_FIXED`: DirectXIP, with revert assumed (marks are sent; a device that refuses them
    ///   is then upgraded without, see ``MCUbootDeviceState/refusesMarks``).
    static func inferredMode(device: MCUbootDeviceState, images: [MCUbootUpgradeImage], notes: inout [String]) -> MCUbootMode {
        guard device.mode == .unknown, !images.isEmpty else { return device.mode }
        if images.allSatisfy({ $0.flags.contains(.ramLoad) }) {
            let addresses = Set(images.map { MCUbootHex.literal($0.loadAddress, width: 8) }).sorted().joined(separator: ", ")
            notes.append("mode inferred: ram-load; the device does not report its bootloader mode, and the image header carries RAM_LOAD (load address \(addresses)): MCUboot runs the highest version from RAM, so nothing is marked: upload, reset, check")
            return .ramLoad
        }
        if images.allSatisfy({ $0.flags.contains(.romFixed) }) {
            notes.append("mode inferred: direct-xip-with-revert; the device does not report its bootloader mode, and the image header carries ROM_FIXED (linked for its slot's address); if the device refuses the test mark, it boots the newest image without one")
            return .directXIPWithRevert
        }
        return .unknown
    }
}
