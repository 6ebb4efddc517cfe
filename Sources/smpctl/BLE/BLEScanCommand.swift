import ArgumentParser
import JSON
import SMPBluetooth

/// `smpctl ble scan`: the Bluetooth LE devices around, those offering SMP first.
struct BLEScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for Bluetooth LE devices and show which offer SMP or Nordic DFU.",
        discussion: """
            Scans through bluetoothd (BlueZ) on the system D-Bus, and also lists the devices \
            BlueZ already knows (paired or seen before). Without --all only devices that \
            advertise the SMP service are shown; many products don't advertise it, so --all \
            lists every device (connect by address or name: -c ble:AA:BB:CC:DD:EE:FF).
            Examples: smpctl ble scan --duration 10
                      smpctl ble scan --all --json
            Exit codes: 69 no bluetoothd, no adapter or the adapter is off (docs/ble.md).
            """)

    @Option(help: ArgumentHelp("Seconds to scan, greater than 0 and at most 3600.", valueName: "seconds"))
    var duration: Double = 5

    @Flag(help: "List every device, not only those advertising SMP or Nordic DFU.")
    var all = false

    @OptionGroup var adapter: BLEAdapterOption

    @Option(help: ArgumentHelp("Only devices heard at least this strong (dBm, e.g. -70).", valueName: "dBm"))
    var minRssi: Int?

    @OptionGroup var format: JSONOutputOption

    func validate() throws {
        try NumericRange.duration.check(duration)
        try NumericRange.minRSSI.check(minRssi)
    }

    func run() async throws {
        let output = format.output
        do {
            let every = try await BLEScanner.scan(
                filter: BLEDeviceFilter(minimumRSSI: minRssi), duration: .seconds(duration), adapter: adapter.adapter)
            let report = BLEScanReport(devices: all ? every : every.filter(\.offersUpdates), hidden: all ? 0 : every.filter { !$0.offersUpdates }.count)
            output.emit(report.json, human: report.text)
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}

/// What `smpctl ble scan` prints.
struct BLEScanReport {
    /// The devices shown, strongest first.
    var devices: [BLEDevice]
    /// How many more devices were found that advertise neither SMP nor Nordic DFU (not shown
    /// without --all).
    var hidden: Int

    /// `{"devices":[{"address","name","rssi","smp","dfu","connected","paired","connection"}…],"hidden":N}`.
    var json: JSONValue {
        .object([
            ("devices", .array(devices.map { device in
                .object([
                    ("address", .string(device.address)), ("name", device.name.map(JSONValue.string) ?? .null),
                    ("rssi", device.rssi.map { .int(Int64($0)) } ?? .null), ("smp", .bool(device.offersSMP)),
                    ("dfu", device.nordicDFU.map { .string($0.rawValue) } ?? .null),
                    ("connected", .bool(device.isConnected)), ("paired", .bool(device.isPaired)),
                    ("connection", .string("ble:\(device.address)")),
                ])
            })),
            ("hidden", .int(Int64(hidden))),
        ])
    }

    /// A table, and a note on hidden devices.
    var text: String {
        var sections: [String] = []
        if devices.isEmpty {
            sections.append(hidden > 0 ? "no devices advertising SMP or Nordic DFU found" : "no Bluetooth LE devices found")
        } else {
            var table = Table(["ADDRESS", "NAME", "RSSI", "SMP", "DFU", "STATE"], alignments: [.left, .left, .right, .left, .left, .left])
            for device in devices {
                let state = [device.isConnected ? "connected" : nil, device.isPaired ? "paired" : nil].compactMap { $0 }.joined(separator: ",")
                table.add([device.address, device.name ?? "", device.rssi.map { "\($0)" } ?? "", device.offersSMP ? "yes" : "-", device.nordicDFU?.rawValue ?? "-", state])
            }
            sections.append(table.rendered)
        }
        if hidden > 0 {
            sections.append(hidden == 1
                ? "1 more device advertises neither SMP nor Nordic DFU: --all lists it (it may still offer them once connected)"
                : "\(hidden) more devices advertise neither SMP nor Nordic DFU: --all lists them (they may still offer them once connected)")
        }
        return sections.joined(separator: "\n\n")
    }
}
