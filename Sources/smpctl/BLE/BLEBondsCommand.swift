import ArgumentParser
import JSON
import SMPBluetooth

/// `smpctl ble bonds`: the devices an adapter has paired.
struct BLEBondsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bonds",
        abstract: "List the Bluetooth LE devices the adapter has paired (its bonds).",
        discussion: """
            Lists what bluetoothd holds, without scanning: address, name, and whether each device \
            is paired, bonded (keys stored), trusted and connected.
            Examples: smpctl ble bonds
                      smpctl ble bonds --adapter hci1 --json
            Exit codes: 69 no bluetoothd, no adapter or the adapter is off (docs/ble.md).
            """)

    @OptionGroup var adapter: BLEAdapterOption

    @OptionGroup var format: JSONOutputOption

    func run() async throws {
        let output = format.output
        do {
            let devices = try await BLEBonds.list(adapter: adapter.adapter)
            var table = Table(["ADDRESS", "NAME", "STATE"], alignments: [.left, .left, .left])
            for device in devices { table.add([device.address, device.name ?? "", BLEBondReport.state(device)]) }
            output.emit(
                .object([("devices", .array(devices.map { BLEBondReport.json($0) }))]),
                human: devices.isEmpty ? "no paired devices" : table.rendered)
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
