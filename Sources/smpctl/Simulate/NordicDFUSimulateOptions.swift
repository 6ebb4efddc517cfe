import ArgumentParser
import Crypto
import FoundationEssentials
import NordicDFU
import SMPSimulator

/// `smpctl simulate --nordic-dfu`: a virtual nRF5 SDK Secure DFU bootloader (or with
/// `--dfu-legacy` a legacy one) on the serial link instead of an SMP device, with the checks its
/// build makes and faults on its data writes; or,
/// with `--udp`, a Secure or legacy DFU device behind the BlueZ mock's BLE bridge
/// (docs/ble-testing.md), optionally started as an application with buttonless DFU.
struct NordicDFUSimulateOptions: ParsableArguments {
    @Flag(help: "Serve a Nordic Secure DFU bootloader (nRF5 SDK 15 to 17: SLIP frames, 4 KiB objects) on --serial-link instead of an SMP device; with --udp, a Nordic DFU device for the BlueZ mock's BLE bridge (mock_bluez.py --dfu-device).")
    var nordicDFU = false

    @Flag(help: "With --nordic-dfu: a legacy DFU bootloader (nRF5 SDK 11 and older) instead of a Secure one: HCI packets on --serial-link (as the Adafruit nRF52 bootloader), the legacy DFU service with --udp.")
    var dfuLegacy = false

    @Flag(name: .customLong("dfu-sdk6"), help: "With --dfu-legacy: answer as an nRF5 SDK 6 or older bootloader: Start takes the application's size alone, there is no init packet, only applications are taken (what a bare application goes to: upgrade --bare).")
    var dfuSDK6 = false

    @Option(help: ArgumentHelp(
        "With --nordic-dfu --udp: start as an application offering buttonless DFU: secure (the bootloader comes back at address + 1), secure-bonded, or legacy (with --dfu-legacy).",
        valueName: "service"))
    var dfuButtonless: NordicDFUPeripheral.ButtonlessService?

    @Option(
        help: ArgumentHelp("Require init packets signed with this ECDSA P-256 key (PEM, public or private); without it signatures are not checked.", valueName: "pem"),
        completion: .file())
    var dfuKey: String?

    @Option(help: ArgumentHelp("The hardware version init packets must name (hw_version; 52 for nRF52).", valueName: "n"))
    var dfuHardwareVersion: UInt32 = 52

    @Option(help: ArgumentHelp("The SoftDevice the device runs, as its firmware ID (sd_req): 0xB7 is S132 6.1.1.", valueName: "id"))
    var dfuSoftDevice: String = "0xB7"

    @Option(help: ArgumentHelp("Fraction of data writes the bootloader loses (the legacy serial bootloader: of packets whose acknowledgement it does not send).", valueName: "fraction"))
    var dfuLoseWrites: Double = 0

    @Option(help: ArgumentHelp("Fraction of data writes with a byte corrupted.", valueName: "fraction"))
    var dfuCorruptWrites: Double = 0

    @Option(help: ArgumentHelp("Drop the link once, when this many image bytes have arrived (a device that resets mid-object).", valueName: "bytes"))
    var dfuDisconnectAfter: Int?

    func validate() throws {
        try NumericRange.dfuLoseWrites.check(dfuLoseWrites)
        try NumericRange.dfuCorruptWrites.check(dfuCorruptWrites)
        try NumericRange.dfuDisconnectAfter.check(dfuDisconnectAfter)
        _ = try softDeviceID()
        guard nordicDFU || (!dfuLegacy && dfuButtonless == nil) else {
            throw ValidationError("--dfu-legacy and --dfu-buttonless describe the device --nordic-dfu serves: add --nordic-dfu (with --serial-link PATH or --udp HOST:PORT)")
        }
        if let dfuButtonless, (dfuButtonless == .legacy) != dfuLegacy {
            throw ValidationError(dfuLegacy
                ? "--dfu-buttonless \(dfuButtonless.rawValue) enters a Secure DFU bootloader, not the legacy one of --dfu-legacy; use --dfu-buttonless legacy"
                : "--dfu-buttonless legacy enters a legacy DFU bootloader: add --dfu-legacy")
        }
        if dfuSDK6 && !dfuLegacy {
            throw ValidationError("--dfu-sdk6 describes a legacy DFU bootloader: add --dfu-legacy")
        }
        if dfuLegacy {
            let secureOnly = [("--dfu-key", dfuKey != nil), ("--dfu-corrupt-writes", dfuCorruptWrites > 0), ("--dfu-disconnect-after", dfuDisconnectAfter != nil)]
            if let (option, _) = secureOnly.first(where: \.1) {
                throw ValidationError("\(option) applies to the Secure DFU bootloader, not the legacy one of --dfu-legacy")
            }
        }
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

    /// The device these options describe for the BLE bridge; `seed` seeds its faults.
    func peripheral(seed: UInt64) throws -> NordicDFUPeripheral {
        guard dfuLegacy else {
            do {
                return try NordicDFUPeripheral(secure: try target(seed: seed), buttonless: dfuButtonless)
            } catch let error as NordicDFUPeripheralError {
                throw ValidationError("--dfu-buttonless: \(error.description)")
            }
        }
        return NordicDFUPeripheral(legacy: try legacyTarget(losingWritesWith: seed), buttonless: dfuButtonless == .legacy)
    }

    /// The `mock_bluez.py --dfu-device` that fits, for a device on `port`: an application is named
    /// `Sensor` (nrf-ota, like nRF Connect, takes a name with "DFU" in it for a bootloader).
    func mockDevice(port: Int) -> String {
        "C0:FF:EE:00:00:01,\(dfuButtonless == nil ? NordicDFUPeripheral.defaultBootloaderName : "Sensor"),\(port),\(mockDeviceKind)"
    }

    /// The kind of `mock_bluez.py --dfu-device` that fits: `secure`, `legacy`, `buttonless-secure`, ….
    var mockDeviceKind: String {
        dfuButtonless.map { "buttonless-\($0.rawValue)" } ?? (dfuLegacy ? "legacy" : "secure")
    }

    /// `Nordic Secure DFU bootloader (signed packages only, hardware 52, SoftDevice 0xB7)`, or
    /// `Nordic legacy DFU bootloader (SoftDevice 0xB7), running an application with buttonless DFU (legacy)`.
    var description: String {
        let faults = dfuLoseWrites > 0 || dfuCorruptWrites > 0 || dfuDisconnectAfter != nil ? ", faults on" : ""
        let bootloader = dfuLegacy
            ? "Nordic legacy DFU bootloader (\(legacyGeneration)\(faults))"
            : "Nordic Secure DFU bootloader (" + (dfuKey == nil ? "signatures not checked" : "signed packages only")
                + ", hardware \(dfuHardwareVersion), SoftDevice \(dfuSoftDevice)\(faults))"
        return bootloader + (dfuButtonless.map { ", running an application with buttonless DFU (\($0.rawValue))" } ?? "")
    }
}
