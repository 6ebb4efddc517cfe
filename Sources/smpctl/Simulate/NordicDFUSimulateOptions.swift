import ArgumentParser
import Crypto
import FoundationEssentials
import NordicDFU
import SMPSimulator

/// `smpctl simulate --nordic-dfu`: a virtual nRF5 SDK Secure DFU bootloader on the serial link
/// instead of an SMP device, with the checks its build makes and faults on its data writes.
struct NordicDFUSimulateOptions: ParsableArguments {
    @Flag(help: "Serve a Nordic Secure DFU bootloader (nRF5 SDK 15–17: SLIP frames, 4 KiB objects) on --serial-link instead of an SMP device.")
    var nordicDFU = false

    @Option(
        help: ArgumentHelp("Require init packets signed with this ECDSA P-256 key (PEM, public or private); without it signatures are not checked.", valueName: "pem"),
        completion: .file())
    var dfuKey: String?

    @Option(help: ArgumentHelp("The hardware version init packets must name (hw_version; 52 for nRF52).", valueName: "n"))
    var dfuHardwareVersion: UInt32 = 52

    @Option(help: ArgumentHelp("The SoftDevice the device runs, as its firmware ID (sd_req): 0xB7 is S132 6.1.1.", valueName: "id"))
    var dfuSoftDevice: String = "0xB7"

    @Option(help: ArgumentHelp("Fraction of data writes the bootloader loses.", valueName: "fraction"))
    var dfuLoseWrites: Double = 0

    @Option(help: ArgumentHelp("Fraction of data writes with a byte corrupted.", valueName: "fraction"))
    var dfuCorruptWrites: Double = 0

    @Option(help: ArgumentHelp("Drop the link once, when this many image bytes have arrived (a device that resets mid-object).", valueName: "bytes"))
    var dfuDisconnectAfter: Int?

    @Flag(help: "With --nordic-dfu: serve a legacy DFU bootloader instead (nRF5 SDK 11, the Adafruit nRF52 bootloader: HCI packets over serial).")
    var dfuLegacy = false

    func validate() throws {
        try NumericRange.dfuLoseWrites.check(dfuLoseWrites)
        try NumericRange.dfuCorruptWrites.check(dfuCorruptWrites)
        try NumericRange.dfuDisconnectAfter.check(dfuDisconnectAfter)
        _ = try softDeviceID()
    }

    /// The SoftDevice's firmware ID: `0xB7` or `183`.
    func softDeviceID() throws -> UInt32 {
        let text = dfuSoftDevice.lowercased()
        let value = text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
        guard let value, value <= 0xFFFF else {
            throw ValidationError("--dfu-soft-device \(dfuSoftDevice) is not a SoftDevice firmware ID (a number up to 0xFFFF, e.g. 0xB7)")
        }
        return value
    }

    /// The bootloader these options describe; `seed` seeds its faults.
    func target(seed: UInt64) throws -> SecureDFUTarget {
        var publicKey: P256.Signing.PublicKey?
        if let dfuKey {
            do {
                publicKey = try DFUPublicKey(contentsOf: dfuKey).key
            } catch {
                throw ValidationError("--dfu-key: \(error.description)")
            }
        }
        let validation = SecureDFUValidation(publicKey: publicKey, hardwareVersion: dfuHardwareVersion, softDeviceID: try softDeviceID())
        let faults = SecureDFUTargetFaults(
            seed: seed, lostWriteFraction: dfuLoseWrites, corruptedWriteFraction: dfuCorruptWrites, disconnectAfterDataBytes: dfuDisconnectAfter)
        return SecureDFUTarget(configuration: validation.configuration(faults: faults))
    }

    /// `Nordic Secure DFU bootloader (signed packages only, hardware 52, SoftDevice 0xB7)`.
    var description: String {
        "Nordic Secure DFU bootloader (" + (dfuKey == nil ? "signatures not checked" : "signed packages only")
            + ", hardware \(dfuHardwareVersion), SoftDevice \(dfuSoftDevice)"
            + (dfuLoseWrites > 0 || dfuCorruptWrites > 0 || dfuDisconnectAfter != nil ? ", faults on" : "") + ")"
    }
}
