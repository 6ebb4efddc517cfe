import ArgumentParser
import JSON
import SMP
import SMPBluetooth
import SMPKit

/// `smpctl ble pair DEVICE`: pairs and trusts a device through smpctl's own BlueZ agent.
struct BLEPairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair and trust a Bluetooth LE device, asking for a passkey or a confirmation when it needs one.",
        discussion: """
            Pairs through smpctl's own BlueZ agent (KeyboardDisplay): Just Works, a passkey the \
            device displays (asked at the terminal, or --passkey), a passkey smpctl prints for you \
            to type on the device, or a number to confirm (asked at the terminal, or --confirm).
            A device paired already keeps its bond. Later connections use the bond without ?pair=1.
            Examples: smpctl ble pair C0:FF:EE:00:00:01
                      smpctl ble pair name=Zephyr --passkey 123456
                      smpctl ble pair 'ble:C0:FF:EE:00:00:01?adapter=hci1' --json
            Exit codes: 64 bad arguments; 69 no bluetoothd or adapter, the device not found, or the \
            pairing failed or was refused (docs/ble.md).
            """)

    @Argument(help: ArgumentHelp("The device: its address, name=NAME, or a ble: connection string.", valueName: "device"))
    var device: String

    @OptionGroup var adapter: BLEAdapterOption

    @Option(help: ArgumentHelp("The passkey the device displays (six digits), instead of asking for it.", valueName: "digits"))
    var passkey: String?

    @Flag(help: "Accept the number of a numeric comparison without asking (no protection against a man in the middle).")
    var confirm = false

    @Option(help: ArgumentHelp("Seconds to find and pair the device, greater than 0 and at most 3600 (default: 60).", valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var format: JSONOutputOption

    func validate() throws {
        try NumericRange.timeout.check(timeout)
        if let passkey, !(passkey.count == 6 && passkey.allSatisfy(\.isASCII) && passkey.allSatisfy(\.isNumber)) {
            throw ValidationError("--passkey expects the six digits the device displays, such as 012345, not \(passkey)")
        }
    }

    func run() async throws {
        let output = format.output
        do {
            let (selector, options) = try BLEDeviceArgument.parse(device)
            var link = options.bleConnectOptions(timeout: .seconds(timeout ?? 60))
            link.adapter = adapter.adapter ?? link.adapter
            link.passkey = passkey.flatMap { UInt32($0) } ?? link.passkey
            link.acceptsAnyNumber = confirm || link.acceptsAnyNumber
            link.pair = true
            let (paired, newly) = try await BLEBonds.pair(selector, options: link)
            let name = TerminalPairingInteraction.name(paired)
            output.emit(
                BLEBondReport.json(paired, extra: [("newlyPaired", .bool(newly))]),
                human: newly ? "paired and trusted \(name)" : "\(name) was paired already: the bond is kept, and it is trusted")
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}

/// A `ble` command's device argument: an address, `name=NAME`, or a whole `ble:` connection string.
enum BLEDeviceArgument {
    /// The device and the connection string's options.
    static func parse(_ text: String) throws -> (BLEDeviceFilter.Selector, ConnectionOptions) {
        // A whole connection string as it is; a bare address or name=NAME as a ble: one.
        let whole = text.hasPrefix("ble:") || (try? ConnectionString(parsing: text)) != nil
        let connection = try ConnectionString(parsing: whole ? text : "ble:" + text)
        guard case .ble(let selector) = connection.target else {
            throw CLIError(.usage, "\(text) is not a Bluetooth LE device", hint: "give its address (C0:FF:EE:00:00:01), name=NAME, or ble:…")
        }
        return (selector.deviceSelector, connection.options)
    }
}

/// How `ble` commands show a device and its bond.
enum BLEBondReport {
    /// `{"address","name","paired","bonded","trusted","connected","connection"}` plus `extra`.
    static func json(_ device: BLEDevice, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([
            ("address", .string(device.address)), ("name", device.name.map(JSONValue.string) ?? .null),
            ("paired", .bool(device.isPaired)), ("bonded", .bool(device.isBonded)), ("trusted", .bool(device.isTrusted)),
            ("connected", .bool(device.isConnected)), ("connection", .string("ble:\(device.address)")),
        ] + extra)
    }

    /// `paired,bonded,trusted,connected`: what holds.
    static func state(_ device: BLEDevice) -> String {
        [device.isPaired ? "paired" : nil, device.isBonded ? "bonded" : nil, device.isTrusted ? "trusted" : nil, device.isConnected ? "connected" : nil]
            .compactMap { $0 }.joined(separator: ",")
    }
}
